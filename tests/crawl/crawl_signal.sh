#!/bin/sh
# Signals (tern(1), SIGNALS): the first SIGINT stops handing out work and
# gives in-flight fetches five seconds; a second signal exits at once,
# keeping everything already recorded. A crawl with a fetch that takes 8 s
# in flight gets SIGINT, then a second SIGINT 0.3 s later: it must be gone
# well before the grace period ends, and `tern resume` must finish the crawl
# with nothing lost: every reachable page in crawl.log, the slow page too,
# every crawl.log line whole, no robots-disallowed page fetched.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 3 --pages 30 --links 4 --kb 1 --cross 0.2 --latency-ms 40-80
dns_start slow.web.test
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
slow="http://slow.web.test:$TW_PORT/_mis/slow-head?ms=8000"
{ cat seeds.txt; echo "$slow"; } >seeds2.txt

"$TERN" crawl -j "$job" -s seeds2.txt --set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=100 \
	--set politeness.delay-factor=0 --set politeness.respect-crawl-delay-up-to-seconds=0 \
	--set crawl.max-connections=4 >tern.out 2>&1 &
pid=$!
track_pid $pid
# Signal once pages are being written and the slow page is in flight (its
# robots.txt has been answered; the page itself answers after 8 s).
_i=0
until [ "$(awk '$4 !~ /robots\.txt$/ && $2 == 200' "$job/logs/crawl.log" 2>/dev/null | wc -l)" -ge 10 ] &&
	awk -F'\t' '$3 == "slow.web.test" && $4 == "/robots.txt"' requests.tsv | grep -q .; do
	kill -0 $pid 2>/dev/null || fail "tern exited early: $(tail -5 tern.out)"
	[ $_i -lt 300 ] || fail "no pages after 30 s: $(tail -5 tern.out)"
	sleep 0.1
	_i=$((_i + 1))
done
grep -q '/_mis/slow-head' requests.tsv && fail "the slow page answered before the signals"
t0=$(date +%s%3N)
kill -INT $pid
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
took=$(($(date +%s%3N) - t0))
[ $rc -eq 0 ] || fail "tern exited $rc after two SIGINTs: $(tail -5 tern.out)"
# The first signal alone waits for the slow fetch up to the 5 s grace.
[ $took -lt 2500 ] || fail "tern took $took ms to exit after two SIGINTs"
grep -q 'second signal 2: exiting at once' "$job/logs/tern.log" ||
	fail "tern.log: $(tail -3 "$job/logs/tern.log")"
grep -q Sanitizer tern.out && fail "sanitizer report: $(cat tern.out)"
awk '$4 ~ /slow-head/' "$job/logs/crawl.log" | grep -q . && fail "the slow page logged before it answered"
before=$(wc -l <"$job/logs/crawl.log")
pass "two SIGINTs: exited in $took ms with $before crawl.log lines"

timeout 120 "$TERN" resume "$job" >>tern.out 2>&1 || fail "resume failed: $(tail -5 tern.out)"
grep -q Sanitizer tern.out && fail "sanitizer report: $(cat tern.out)"
tw_stop
cl=$job/logs/crawl.log
awk 'NF != 12 { print; bad++ } END { exit bad > 0 }' "$cl" >badlines.txt ||
	fail "malformed crawl.log lines: $(head -3 badlines.txt)"
awk -F'\t' '$2 == "allowed" { print $1 }' manifest.tsv | sort >allowed.txt
awk -F'\t' '$2 == "disallowed" { print $1 }' manifest.tsv | sort >disallowed.txt
awk '$2 > 0 { print $4 }' "$cl" | sort -u >logged.txt
missing=$(comm -23 allowed.txt logged.txt | wc -l)
[ "$missing" -eq 0 ] || fail "$missing pages lost: $(comm -23 allowed.txt logged.txt | head -5)"
awk -v u="$slow" '$4 == u && $2 == 200' "$cl" | grep -q . || fail "the slow page was not fetched on resume"
awk -F'\t' -v p="$TW_PORT" '{ print "http://" $3 ":" p $4 }' requests.tsv | sort -u >requested.txt
[ -z "$(comm -12 disallowed.txt requested.txt)" ] || fail "disallowed pages fetched: $(comm -12 disallowed.txt requested.txt | head -3)"
pass "resume finished the crawl: $(wc -l <allowed.txt) pages and the slow one in crawl.log, nothing lost"
