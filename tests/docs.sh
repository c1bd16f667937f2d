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

# Every cause crawl.log may name (err:WORD, src/lib/status.h) is explained
# in tern(1), and every group of the summary with it.
status=$top_srcdir/src/lib/status.h
tern1=$top_srcdir/doc/tern.1
words=$(sed -n 's/^.*X([A-Z_]*, [A-Z0-9_]*, [A-Z]*, "\([a-z0-9:-]*\)",.*/\1/p' "$status")
[ "$(echo "$words" | wc -w)" -gt 20 ] || { echo "FAIL: only $(echo "$words" | wc -w) causes parsed from $status"; exit 1; }
for w in $words; do
	[ "$w" = http ] && continue	# an HTTP status says it; no err: word
	sed 's/\\-/-/g; s/\\f[BRI]//g' "$tern1" | grep -q "err:$w\([^a-z:-]\|$\)" ||
		{ echo "FAIL: err:$w is not explained in tern.1"; fails=$((fails + 1)); }
done
for g in $(sed -n 's/^.*X([A-Z]*, "\([a-z]*\)", "[^"]*", "[^"]*").*/\1/p' "$status"); do
	sed 's/\\-/-/g; s/\\f[BRI]//g' "$tern1" | sed -n '/^\.SH FAILURES/,/^\.SH /p' | grep -qw "$g" ||
		{ echo "FAIL: the summary's cause $g is not in tern.1's FAILURES"; fails=$((fails + 1)); }
done

# Every test the documents name (doc/status.md maps each behaviour to its
# tests) is where they say: a test moved or removed without them fails here.
# Read from a file, not a command's words, so that a glob such as
# tests/net/fetch_*.sh is expanded in the source tree only.
nt=0
for d in "$top_srcdir"/README "$top_srcdir"/doc/*.md; do
	grep -o 'tests/[a-z0-9_/*.-]*\.\(sh\|mjs\|py\|c\|txt\)' "$d" | sort -u | sed "s|^|${d#"$top_srcdir"/} |"
done >paths.tmp
while read -r d p; do
	nt=$((nt + 1))
	set -- "$top_srcdir"/$p
	[ -e "$1" ] || { echo "FAIL: $d names $p, which is not there"; fails=$((fails + 1)); }
done <paths.tmp
rm -f paths.tmp
[ "$nt" -gt 100 ] || { echo "FAIL: only $nt test paths found in README and doc/*.md"; exit 1; }
echo "checked $nt test paths named in README and doc/*.md"
[ $fails -eq 0 ]
