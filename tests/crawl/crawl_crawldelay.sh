#!/bin/sh
# robots.txt Crawl-delay governs the queue from the very next request, and
# robots.txt fetches themselves wait their turn, judged from the test web's
# request log (tw_gaps). h0's robots.txt says "Crawl-delay: 1"; h1's says
# nothing. Politeness is otherwise zero, so any gap on h0 under 1 s is a
# request the Crawl-delay did not govern. robots.validity-seconds = 2 makes
# h0's robots.txt expire and be fetched again mid-crawl: that fetch, too,
# comes at least 1 s after the page before it.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 2 --pages 6 --links 2 --kb 1 --cross 0
dns_start
cd "$TW_DIR" || fail "no work directory"
"$TERN" crawl -j job --set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
	--set politeness.max-delay-ms=0 --set robots.validity-seconds=2 \
	"$(tw_url 0 /)" "$(tw_url 1 /)" >tern.out 2>&1 || fail "tern crawl exited $?: $(cat tern.out)"
tw_stop

tw_gaps h0.web.test >h0.gaps
n=$(awk '$2 != "/robots.txt"' h0.gaps | wc -l)
[ "$n" -ge 6 ] || fail "h0: only $n requests after a page or robots.txt: $(cat h0.gaps)"
first=$(awk '$2 == "/robots.txt" { print $1; exit }' h0.gaps)
[ -n "$first" ] && [ "$first" -ge 1000 ] ||
	fail "h0: the first page came $first ms after robots.txt (Crawl-delay: 1): $(tr '\n' ';' <h0.gaps)"
awk '$1 < 1000 { bad++; print } END { exit bad > 0 }' h0.gaps >short.txt ||
	fail "h0: gaps under the 1 s Crawl-delay: $(tr '\n' ';' <short.txt)"
refetch=$(awk '$4 == "/robots.txt"' h0.gaps | wc -l)
[ "$refetch" -ge 1 ] || fail "h0: robots.txt was not fetched again after it expired: $(tr '\n' ';' <h0.gaps)"
# The control: without Crawl-delay, h1 is not slowed to 1 s.
tw_gaps h1.web.test >h1.gaps
[ "$(sort -n h1.gaps | head -1 | cut -d' ' -f1)" -lt 500 ] || fail "h1 slowed without a Crawl-delay: $(tr '\n' ';' <h1.gaps)"
echo "h0 gaps (ms): $(cut -d' ' -f1 h0.gaps | tr '\n' ' ')"
pass "Crawl-delay from the request after robots.txt; robots.txt re-fetch waits its turn"
