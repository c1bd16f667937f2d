#!/bin/sh
# The live status (tern(1), STATUS LINE), driven as a person sees it: tern
# runs on a pseudo-terminal (script(1)) of 80, then 40 columns. Every
# status line, as redrawn in place, fits in the terminal's width; at 80
# columns it names pages, rate, queued, failures, elapsed and (with
# crawl.max-pages) the ETA; its last figure of pages is the summary's.
# Without a terminal, a plain line comes every 10 seconds.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq script awk

tw_start --hosts 20 --pages 40 --links 6 --kb 2 --latency-ms 10-30
dns_start
cd "$TW_DIR" || fail "no work directory"

settings="--set dns.servers=$DNS_SERVER --set fetch.allow-private-addresses=true \
--set politeness.min-delay-ms=400 --set politeness.delay-factor=0 \
--set politeness.respect-crawl-delay-up-to-seconds=0 --set crawl.max-hops=500"

# on_tty COLS JOB EXTRA...: a crawl on a COLS-column terminal; its screen
# output in JOB.tty, cut at each carriage return or newline, with the
# clear-to-end-of-line sequences taken out, in JOB.lines.
on_tty() {
	_cols=$1 _job=$2
	shift 2
	script -qefc "stty cols $_cols rows 24; exec \"$TERN\" crawl -j $_job -s seeds.txt $settings $*" \
		"$_job.tty" >/dev/null 2>&1 </dev/null || fail "tern on a terminal exited $?: $(tail -c 400 "$_job.tty")"
	grep -q "Sanitizer" "$_job.tty" && fail "sanitizer report: $(cat "$_job.tty")"
	tr '\r' '\n' <"$_job.tty" | sed 's/\x1b\[K//g' | grep -v -e '^$' -e '^Script ' >"$_job.lines"
}

on_tty 80 j80 --set crawl.max-pages=200
status=$(grep -c ' pages, .*/s' j80.lines)
[ "$status" -ge 3 ] || fail "$status status lines in a crawl of several seconds: $(head -5 j80.lines)"
long=$(awk 'length($0) > 79 && !/^tern: / { print length($0) ": " $0 }' j80.lines | head -3)
[ -z "$long" ] || fail "lines wider than 79 on an 80-column terminal: $long"
for field in ' pages' '/s' ' queued' ' failed' 'elapsed [0-9]' 'ETA [0-9]'; do
	grep ' pages, ' j80.lines | grep -q -- "$field" || fail "no '$field' in the status: $(grep ' pages, ' j80.lines | tail -2)"
done
grep -q "$(printf '\033')" j80.lines && fail "escape sequences other than clear-to-end-of-line: $(grep -c "$(printf '\033')" j80.lines)"
last=$(grep -v '^tern: ' j80.lines | grep ' pages, ' | tail -1 | awk '{ print $1 }')
summary=$(sed -n 's/^tern: crawl .* in [0-9.]* s: \([0-9]*\) pages.*/\1/p' j80.lines)
[ -n "$summary" ] && [ "$last" = "$summary" ] || fail "the last status says $last pages, the summary $summary"
pass "$status status lines, none wider than 79 columns, with every field; last $last pages = summary"

on_tty 40 j40 --set crawl.max-pages=60
long=$(awk 'length($0) > 39 && !/^tern: / { print length($0) ": " $0 }' j40.lines | head -3)
[ -z "$long" ] || fail "lines wider than 39 on a 40-column terminal: $long"
grep -q '^[0-9]* pages, [0-9.]*/s, [0-9]* queued' j40.lines || fail "40 columns lost the first fields: $(tail -3 j40.lines)"
pass "40 columns: $(grep ' pages, ' j40.lines | tail -1)"

# No terminal: plain lines, every 10 s.
# shellcheck disable=SC2086
"$TERN" crawl -j plain -s seeds.txt $settings --set crawl.max-time-seconds=12 \
	--set politeness.min-delay-ms=2000 >plain.out 2>plain.err ||
	fail "the crawl without a terminal exited $?: $(tail -5 plain.err)"
grep -q "$(printf '\r')" plain.err && fail "carriage returns without a terminal"
n=$(grep -c '^tern: [0-9]* pages, .*/s, [0-9]* queued, [0-9]* failed, .*elapsed 0:1[0-9], ETA 0:0[0-9]$' plain.err)
[ "$n" -eq 1 ] || fail "$n plain status lines at 10 s in a 12 s crawl: $(cat plain.err)"
pass "without a terminal: $(grep '^tern: [0-9]* pages' plain.err)"
