#!/bin/sh
# The command line: help, version, unknown commands, and configuration errors
# that must name the file, line and key and exit 2.
set -u
: "${TERN:?}"
fails=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

check() {	# check DESCRIPTION EXPECTED-STATUS PATTERN -- command...
	desc=$1 want=$2 pat=$3
	shift 4
	out=$("$@" 2>&1)
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $desc: exit $got, wanted $want: $out"
		fails=$((fails + 1))
	elif [ -n "$pat" ] && ! printf '%s\n' "$out" | grep -q -- "$pat"; then
		echo "FAIL: $desc: output lacks '$pat': $out"
		fails=$((fails + 1))
	else
		echo "ok: $desc"
	fi
}

check "--version" 0 "^tern [0-9]" -- "$TERN" --version
check "--help lists crawl" 0 "crawl" -- "$TERN" --help
check "no command" 2 "usage" -- "$TERN"
check "unknown command" 2 "unknown command" -- "$TERN" frobnicate
check "unknown command: the nearest" 2 "unknown command 'resum'; did you mean 'resume'?" -- "$TERN" resum x
check "unknown report: the nearest" 2 "unknown report 'statz'; did you mean 'stats'?" -- "$TERN" report "$t" statz
check "unknown ctl command: the nearest" 2 "unknown command 'paues'; did you mean 'pause'?" -- "$TERN" ctl "$t" paues
check "--set typo: the nearest key" 2 "crawl.max-page: unknown key; did you mean crawl.max-pages?" -- \
	"$TERN" fetch --set crawl.max-page=3 http://x.test/
check "--set key without its section" 2 "did you mean politeness.min-delay-ms?" -- \
	"$TERN" fetch --set min-delay-ms=3 http://x.test/
check "a user agent without a contact URL" 2 "crawl.user-agent: expected the operator's contact URL" -- \
	"$TERN" fetch --set "crawl.user-agent=mybot/1.0" http://x.test/
check "fetch needs a URL" 2 "usage" -- "$TERN" fetch
check "--set unknown key" 2 "nosuch.key: unknown key" -- "$TERN" fetch --set nosuch.key=1 http://x.test/
check "--set bad integer" 2 "politeness.min-delay-ms: expected an integer" -- \
	"$TERN" fetch --set politeness.min-delay-ms=soon http://x.test/

printf '[crawl]\nmax-hops = 3\n\n[politeness]\nmin-delay-ms = -5\n' > "$t/bad-range.conf"
check "file: value out of range names file:line:key" 2 "bad-range.conf:5: politeness.min-delay-ms: expected an integer from 0" -- \
	"$TERN" crawl -c "$t/bad-range.conf" -j "$t/job1" http://x.test/
printf '[crawl]\nmax-hops = 3\nthis line has no equals\n' > "$t/no-eq.conf"
check "file: line without =" 2 "no-eq.conf:3:" -- "$TERN" crawl -c "$t/no-eq.conf" -j "$t/job2" http://x.test/
printf '[crawl]\nmax-hopz = 3\n' > "$t/unknown.conf"
check "file: unknown key" 2 "unknown.conf:2: crawl.max-hopz: unknown key" -- "$TERN" crawl -c "$t/unknown.conf" -j "$t/job3" http://x.test/
printf '[crowl]\nmax-hops = 3\n' > "$t/section.conf"
check "file: unknown section" 2 "section.conf:1: \[crowl\]: unknown section; did you mean \[crawl\]?" -- "$TERN" crawl -c "$t/section.conf" -j "$t/job4" http://x.test/
printf '[override "com,"]\nfetch.tls-verify = false\n' > "$t/ovr.conf"
check "file: global key in override" 2 "ovr.conf:2: fetch.tls-verify: not a per-URI" -- "$TERN" crawl -c "$t/ovr.conf" -j "$t/job5" http://x.test/
check "file: missing" 2 "nope.conf: No such file" -- "$TERN" crawl -c "$t/nope.conf" -j "$t/job6" http://x.test/

# One message shape and one exit status per kind of mistake, whatever the
# command (tern(1), EXIT STATUS): no arguments or an unknown option give the
# command's usage line and 2; a file, a missing, an empty or a foreign
# directory where a JOBDIR goes give "tern: COMMAND: ..." and 2.
: >"$t/afile"
mkdir "$t/empty" "$t/foreign"
echo notes >"$t/foreign/notes.txt"
for cmd in crawl resume report ctl console wacz warc-index precedence-load fetch; do
	check "$cmd: no arguments" 2 "usage: tern $cmd" -- "$TERN" $cmd
	check "$cmd: an unknown option" 2 "usage: tern $cmd" -- "$TERN" $cmd --bogus x
done
for cmd in resume report ctl console wacz warc-index precedence-load; do
	case $cmd in
	ctl) args=status pre= ;;
	precedence-load) args= pre="$t/afile" ;;
	*) args= pre= ;;
	esac
	check "$cmd: a file for JOBDIR" 2 "^tern: $cmd: $t/afile is not a directory" -- "$TERN" $cmd $pre "$t/afile" $args
	check "$cmd: a missing JOBDIR" 2 "^tern: $cmd: $t/nowhere: No such file or directory" -- "$TERN" $cmd $pre "$t/nowhere" $args
	check "$cmd: an empty JOBDIR" 2 "^tern: $cmd: $t/empty is not a tern job directory" -- "$TERN" $cmd $pre "$t/empty" $args
	check "$cmd: a foreign JOBDIR" 2 "^tern: $cmd: $t/foreign is not a tern job directory" -- "$TERN" $cmd $pre "$t/foreign" $args
done
check "crawl: a file for -j" 2 "$t/afile is not a directory" -- "$TERN" crawl -j "$t/afile" http://x.test/
check "crawl: a foreign -j" 2 "is not a tern job directory" -- "$TERN" crawl -j "$t/foreign" http://x.test/

if [ "$fails" -ne 0 ]; then
	echo "$fails failed"
	exit 1
fi
exit 0
