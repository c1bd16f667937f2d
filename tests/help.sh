#!/bin/sh
# `tern COMMAND --help` lists every option of COMMAND, one line each, and
# they are the options tern(1) lists for it under OPTIONS (one .SS section
# per command, one .TP entry per option): the two are compared, command by
# command, so that neither can gain an option the other lacks. Each --help
# exits 0 and writes to standard output, and no line is wider than 80.
set -u
: "${TERN:?}"
: "${top_srcdir:?}"
man=$top_srcdir/doc/tern.1
fails=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# man_options CMD: the options tern(1) gives CMD, one a line, sorted.
man_options() {
	awk -v cmd="$1" '
		/^\.SH / { in_opts = ($2 == "OPTIONS"); sect = ""; next }
		!in_opts { next }
		/^\.SS / { sub(/^\.SS +/, ""); gsub(/"/, ""); n = split($0, names, /, */)
			sect = ""; for (i = 1; i <= n; i++) if (names[i] == cmd) sect = cmd; next }
		sect == "" { next }
		/^\.TP/ { want = 1; next }
		want { want = 0; gsub(/\\-/, "-"); print $2 }
	' "$man" | sort -u
}

# help_options CMD: the options `tern CMD --help` lists, one a line, sorted.
help_options() {
	"$TERN" "$1" --help | awk '/^  -/ { sub(/^  +/, ""); n = split($0, w, /  +/)
		m = split(w[1], o, /, */); for (i = 1; i <= m; i++) { split(o[i], x, " "); print x[1] } }' | sort -u
}

for cmd in crawl resume report ctl precedence-load fetch warc-index console wacz; do
	if ! "$TERN" "$cmd" --help >"$t/out" 2>"$t/err"; then
		echo "FAIL: tern $cmd --help exited $?: $(cat "$t/err")"
		fails=$((fails + 1))
		continue
	fi
	[ -s "$t/out" ] && [ ! -s "$t/err" ] || { echo "FAIL: tern $cmd --help: not on standard output"; fails=$((fails + 1)); }
	wide=$(awk 'length($0) > 80' "$t/out" | grep -v '^usage:' | head -1)
	[ -z "$wide" ] || { echo "FAIL: tern $cmd --help: a line wider than 80: $wide"; fails=$((fails + 1)); }
	man_options "$cmd" >"$t/man"
	printf '%s\n' -h --help >>"$t/man"
	sort -u "$t/man" -o "$t/man"
	help_options "$cmd" >"$t/help"
	if [ "$(wc -l <"$t/help")" -lt 2 ]; then
		echo "FAIL: tern $cmd --help lists no options: $(cat "$t/out")"
		fails=$((fails + 1))
	elif ! cmp -s "$t/man" "$t/help"; then
		echo "FAIL: tern $cmd: tern(1) and --help differ (< tern.1, > --help):"
		diff "$t/man" "$t/help" | grep '^[<>]'
		fails=$((fails + 1))
	else
		echo "ok: tern $cmd --help: $(tr '\n' ' ' <"$t/help")"
	fi
done

# The commands tern(1) has an OPTIONS section for are all covered above.
for cmd in $(awk '/^\.SH / { o = ($2 == "OPTIONS") } o && /^\.SS / { sub(/^\.SS +/, ""); gsub(/"|,/, ""); print }' "$man"); do
	case " crawl resume report ctl precedence-load fetch warc-index console wacz " in
	*" $cmd "*) ;;
	*) echo "FAIL: tern(1) has options for '$cmd', which this test does not check"; fails=$((fails + 1)) ;;
	esac
done

if [ "$fails" -ne 0 ]; then
	echo "$fails failed"
	exit 1
fi
exit 0
