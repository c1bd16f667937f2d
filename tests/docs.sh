#!/bin/sh
# The manual and the example configuration list every configuration key with
# its real default, so that doc/ stays true to the code.
set -u
: "${top_srcdir:?}"
fails=0
keys=$top_srcdir/src/lib/config-keys.h
man=$top_srcdir/doc/tern.conf.5
example=$top_srcdir/doc/tern.conf.example
n=0
# X(ID, "section", "key", TYPE, "default", ...)
sed -n 's/^X([A-Z0-9_]*, "\([a-z]*\)", "\([a-z0-9-]*\)", CT_[A-Z]*, "\([^"]*\)".*/\1 \2 \3/p' "$keys" >keys.tmp
while read -r section key def; do
	n=$((n + 1))
	awk -v s="[$section]" -v k="$key" '
		$0 == ".SH " s { in_s = 1; next }
		/^\.SH / { in_s = 0 }
		in_s && $0 == ".B " k { found = 1 }
		END { exit !found }' "$man" || { echo "FAIL: $section.$key missing from tern.conf.5"; fails=$((fails + 1)); }
	case $def in
	tern/) ;;	# the user agent's default is built from the version
	*) grep -q -x -F "#$key = $def" "$example" ||
		{ echo "FAIL: $section.$key = $def missing from tern.conf.example"; fails=$((fails + 1)); } ;;
	esac
done <keys.tmp
rm -f keys.tmp
[ "$n" -gt 60 ] || { echo "FAIL: only $n keys parsed from $keys"; exit 1; }
echo "checked $n keys"
[ $fails -eq 0 ]
