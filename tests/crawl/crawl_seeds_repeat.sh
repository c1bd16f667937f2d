#!/bin/sh
# A seed given more than once (listed twice, once more with a #fragment,
# its host in capitals) is fetched once (tern(1), SEEDS), and the count
# of seeds given and kept is said at the start, on the terminal and in
# tern.log. JOBDIR/seeds.txt holds each kept seed once, without fragment.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 2 --pages 6 --links 3 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
h0=http://h0.web.test:$TW_PORT
h1=http://h1.web.test:$TW_PORT
printf '%s\n' "$h0/" "$h0/#top" "HTTP://H1.WEB.TEST:$TW_PORT/p/2.html" >list.txt
"$TERN" crawl -j job -s list.txt --set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=0 \
	--set politeness.max-delay-ms=0 --set politeness.delay-factor=0 \
	--set politeness.respect-crawl-delay-up-to-seconds=0 \
	"$h0/" "$h1/p/2.html#frag" "$h1/p/3.html" >tern.out 2>&1 ||
	fail "tern crawl exited $?: $(cat tern.out)"
grep -q Sanitizer tern.out && fail "sanitizer report: $(cat tern.out)"
tw_stop

n=$(awk -F'\t' '$3 == "h0.web.test" && $4 == "/"' requests.tsv | wc -l)
[ "$n" = 1 ] || fail "h0's root requested $n times: $(cat requests.tsv)"
n=$(awk -F'\t' '$3 == "h1.web.test" && $4 == "/p/2.html"' requests.tsv | wc -l)
[ "$n" = 1 ] || fail "h1's page 2 requested $n times"
n=$(awk -v u="$h0/" '$4 == u' job/logs/crawl.log | wc -l)
[ "$n" = 1 ] || fail "$n crawl.log lines for $h0/"
msg="6 seeds given, 3 kept: 3 repeated a seed before it"
grep -q "^tern: $msg" tern.out || fail "terminal: $(cat tern.out)"
grep -q " $msg" job/logs/tern.log || fail "tern.log: $(cat job/logs/tern.log)"
printf '%s\n' "$h0/" "$h1/p/2.html" "$h1/p/3.html" >want.txt
sort job/seeds.txt | cmp -s - want.txt || fail "seeds.txt: $(cat job/seeds.txt)"
pass "a seed given three times, or with a fragment, is fetched once; 6 given, 3 kept said"
