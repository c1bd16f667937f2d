#!/bin/sh
# Retries, host back-off, Retry-After and robots.txt failures in a whole
# crawl, each scripted on one host of the test web and judged from the
# server's request log and from crawl.log.
#   h0  well-behaved control
#   h1  resets its first 2 connections      -> back-off, then everything fetched
#   h2  answers 503 to its first 3 pages    -> 503 is final (as Heritrix)
#   h3  503 + Retry-After: 2, twice         -> the queue sleeps 2 s, page retried
#   h4  robots.txt answers 500              -> every page -9998, none requested
#   h5  nothing listens on its port         -> robots.txt -2 each try, page -61 3t
#                                              with its cause, err:connection-refused
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq
need_cmd node

tw_start --hosts 5 --pages 6 --links 3 --kb 1 --cross 0 \
	--script h1.web.test=refuse-first:2 --script h2.web.test=fail-5xx:3 \
	--script h3.web.test=retry-after:2 --script h4.web.test=robots-5xx
dns_start h5.web.test
cd "$TW_DIR" || fail "no work directory"
closed=$(node -e 'const s = require("net").createServer();
	s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')
cp seeds.txt seeds-all.txt
echo "http://h5.web.test:$closed/" >>seeds-all.txt
# h2's first three pages fail, so it gets more seeds to go on from.
for k in 1 2 3 4 5; do echo "http://h2.web.test:$TW_PORT/p/$k.html"; done >>seeds-all.txt

"$TERN" crawl -j job -s seeds-all.txt \
	--set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=50 --set politeness.delay-factor=0 \
	--set politeness.respect-crawl-delay-up-to-seconds=0 \
	--set frontier.max-retries=3 --set frontier.retry-delay-seconds=1 \
	>tern.out 2>&1 || fail "tern crawl exited $?: $(cat tern.out)"
tw_stop
log=requests.tsv
cl=job/logs/crawl.log

# host_log HOST: the request log lines of one host, in time order.
host_log() {
	awk -F'\t' -v h="$1" '$3 == h' "$log" | sort -t "$(printf '\t')" -k1,1n
}
# logged URI-REGEX: crawl.log lines (status, annotations) for matching URIs.
logged() {
	awk -v re="$1" '$4 ~ re { print $2, $12 }' "$cl"
}

# h0: the control.
n=$(logged '^http://h0\.web\.test:[0-9]+/' | grep -c '^200 ')
[ "$n" -ge 6 ] || fail "h0: only $n pages fetched"

# h1: two resets (status 0 in the server's log), then success; each retry
# waited at least retry-delay-seconds (1 s), never less.
host_log h1.web.test >h1.tsv
resets=$(awk -F'\t' '$5 == 0' h1.tsv | wc -l)
[ "$resets" -eq 2 ] || fail "h1: $resets resets logged, wanted 2: $(cat h1.tsv)"
tw_gaps h1.web.test | awk '$3 == 0 && $1 < 1000 { print "gap", $1; bad++ } END { exit bad > 0 }' >h1gaps.txt ||
	fail "h1: retried sooner than retry-delay-seconds: $(cat h1gaps.txt)"
n=$(logged '^http://h1\.web\.test:[0-9]+/' | grep -c '^200 ')
[ "$n" -ge 6 ] || fail "h1: only $n pages fetched after the resets"
[ "$(logged '^http://h1\.web\.test:[0-9]+/robots\.txt$' | grep -c '^-3 ')" -eq 2 ] ||
	fail "h1: robots.txt attempts not each logged: $(logged 'h1\.web\.test.*robots')"

# h2: three pages logged 503, final, no retry.
n=$(logged '^http://h2\.web\.test:[0-9]+/' | grep -c '^503 ')
[ "$n" -eq 3 ] || fail "h2: $n pages logged 503, wanted 3"
n=$(host_log h2.web.test | awk -F'\t' '$5 == 503' | wc -l)
[ "$n" -eq 3 ] || fail "h2: server sent 503 $n times, wanted 3 (503 is not retried)"
n=$(logged '^http://h2\.web\.test:[0-9]+/' | grep -c '^200 ')
[ "$n" -ge 3 ] || fail "h2: only $n pages fetched after the 503s"

# h3: two 503 + Retry-After: 2; each next request at least ~2 s later; the
# page that got them is logged 200 with its attempts counted.
host_log h3.web.test >h3.tsv
awk -F'\t' 'p == 503 && $1 - e < 1950 { print "gap", $1 - e, "before", $4; bad++ } { p = $5; e = $2 } END { exit bad > 0 }' h3.tsv >h3gaps.txt ||
	fail "h3: Retry-After not honoured: $(cat h3gaps.txt)"
logged '^http://h3\.web\.test:[0-9]+/' | grep -q '^200 3t' || fail "h3: no page logged 200 with 3t: $(logged 'h3\.web\.test')"
[ "$(logged '^http://h3\.web\.test:[0-9]+/' | grep -c '^503 ')" -eq 0 ] || fail "h3: a 503 with Retry-After was logged as final"

# h4: robots.txt 500 means disallow all (robots.on-server-error=disallow).
n=$(host_log h4.web.test | awk -F'\t' '$4 != "/robots.txt"' | wc -l)
[ "$n" -eq 0 ] || fail "h4: $n pages requested despite robots.txt 500"
logged '^http://h4\.web\.test:[0-9]+/$' | grep -q '^-9998 err:robots-unavailable$' || fail "h4: seed not logged -9998: $(logged 'h4\.web\.test')"

# h5: nothing listening: three robots.txt attempts logged -2, the seed -61 3t.
[ "$(logged '^http://h5\.web\.test:[0-9]+/robots\.txt$' | grep -c '^-2 ')" -eq 3 ] ||
	fail "h5: robots.txt attempts: $(logged 'h5\.web\.test')"
logged '^http://h5\.web\.test:[0-9]+/$' | grep -q '^-61 3t,err:connection-refused$' || fail "h5: seed not logged -61 3t,err:connection-refused: $(logged 'h5\.web\.test')"
pass "retries, back-off, Retry-After and robots failures"
