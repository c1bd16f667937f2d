#!/bin/sh
# Every capture written to WARC as a revisit record carries duplicate:digest
# in crawl.log, whatever the URI (doc/formats.md, "crawl.log"), robots.txt included:
# h1 and h2 of the test web serve the same robots.txt body, and every host
# the same stylesheet and images.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 3 --pages 3 --links 2 --kb 1 --cross 0
dns_start
cd "$TW_DIR" || fail "no work directory"
"$TERN" crawl -j job --set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
	"$(tw_url 1 /)" "$(tw_url 2 /)" >tern.out 2>&1 || fail "tern crawl exited $?: $(cat tern.out)"
tw_stop

warc_revisit_uris job/warcs/*.warc.gz >revisits.txt
awk '$12 ~ /(^|,)duplicate:digest(,|$)/ { print $4 }' job/logs/crawl.log | sort >annotated.txt
grep -q '/robots\.txt$' revisits.txt || fail "no robots.txt written as a revisit: $(cat revisits.txt)"
[ "$(wc -l <revisits.txt)" -ge 3 ] || fail "too few revisits to judge: $(cat revisits.txt)"
cmp -s revisits.txt annotated.txt ||
	fail "revisit records and duplicate:digest lines differ: $(diff revisits.txt annotated.txt | tr '\n' ' ')"
pass "$(wc -l <revisits.txt) revisits, each annotated duplicate:digest in crawl.log"
