#!/bin/sh
# Names resolve as the system does: the hosts file and DNS in the system's
# order (c-ares), even with dns.servers set, and localhost names are the
# loopback addresses without asking DNS (RFC 6761). The hosts file here is a
# test-local one named by CARES_HOSTS (tern(1), ENVIRONMENT): h1.web.test is
# only in it, h0.web.test only in the test DNS server.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/net/fetch_lib.sh"
tw_start --hosts 2 --pages 8 --links 4 --cross 0
DNS_HOSTS=1 DNS_LOG_QUERIES=1 dns_start
printf '# test-local hosts file\n127.0.0.1\th1.web.test  alias1.web.test\n' >"$TW_DIR/hosts.test"
CARES_HOSTS=$TW_DIR/hosts.test
export CARES_HOSTS
asked() {
	grep -q "query\[[A-Z]*\] $1 " "$TW_DIR/dnsmasq.log"
}

# A name only the hosts file knows, with dns.servers set.
fetch_run "http://h1.web.test:$TW_PORT/"
[ "$(field status | cut -d' ' -f1)" = 200 ] || fail "hosts-file name: $OUT"
field dns | grep -q "^1 127\.0\.0\.1 .*server=$CARES_HOSTS" || fail "dns line: $OUT"
asked h1.web.test && fail "h1.web.test was asked of DNS: $(grep h1 "$TW_DIR/dnsmasq.log")"
fetch_run "http://alias1.web.test:$TW_PORT/"
field dns | grep -q "^1 127\.0\.0\.1 " || fail "alias in the hosts file not resolved: $OUT"
# A name only DNS knows: the hosts file first, then the server named.
fetch_run "http://h0.web.test:$TW_PORT/"
[ "$(field status | cut -d' ' -f1)" = 200 ] || fail "DNS name: $OUT"
field dns | grep -q "^1 127\.0\.0\.1 .*server=$DNS_SERVER" || fail "dns line: $OUT"
# A name neither knows: DNS's failure.
fetch_run "http://h7.web.test:$TW_PORT/"
[ "$(field status | cut -d' ' -f1)" = -6 ] || fail "unknown name: $OUT"
asked h7.web.test || fail "h7.web.test was not asked of DNS"
pass "hosts file then DNS, with dns.servers set"

# localhost and names under it: loopback, DNS never asked (the hosts file
# given has no localhost line).
for name in localhost app.localhost A.B.LOCALHOST; do
	fetch_run "http://$name:$TW_PORT/"
	field dns | grep -q '^1 127\.0\.0\.1 ' || fail "$name: $OUT"
	asked "$name" && fail "$name was asked of DNS"
done
pass "localhost names are loopback without DNS"

# A crawl of the hosts-file name: its dns: line says 1 as for a DNS answer,
# its WARC dns record names no server, and every page is fetched; its
# loopback address needs no setting, being a seed's host.
"$TERN" crawl -j "$TW_DIR/job" --set dns.servers="$DNS_SERVER" \
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
	--set politeness.max-delay-ms=0 --set politeness.respect-crawl-delay-up-to-seconds=0 \
	"http://h1.web.test:$TW_PORT/" >"$TW_DIR/crawl.out" 2>&1 ||
	fail "tern crawl exited $?: $(cat "$TW_DIR/crawl.out")"
grep -q Sanitizer "$TW_DIR/crawl.out" && fail "sanitizer report: $(cat "$TW_DIR/crawl.out")"
log=$TW_DIR/job/logs/crawl.log
awk '$4 == "dns:h1.web.test"' "$log" | grep -q . || fail "no dns:h1.web.test line: $(head -3 "$log")"
awk '$4 == "dns:h1.web.test" && $2 != 1' "$log" | grep -q . && fail "dns: line not 1: $(grep dns: "$log")"
awk '$2 == -7' "$log" | grep -q . && fail "refused: $(awk '$2 == -7' "$log" | head -3)"
awk '$2 > 0 { print $4 }' "$log" | sort -u >"$TW_DIR/fetched.txt"
awk -F'\t' '$2 == "allowed" && $1 ~ /^http:\/\/h1\./ { print $1 }' "$TW_DIR/manifest.tsv" | sort >"$TW_DIR/allowed.txt"
[ -s "$TW_DIR/allowed.txt" ] || fail "empty manifest"
missing=$(comm -23 "$TW_DIR/allowed.txt" "$TW_DIR/fetched.txt")
[ -z "$missing" ] || fail "not fetched: $(echo "$missing" | head -3)"
rec=$(gzip -dc "$TW_DIR"/job/warcs/*.warc.gz | tr -d '\r' |
	awk '/^WARC\/1/ { h = ""; inh = 1 } inh { h = h $0 "\n" } inh && /^$/ { inh = 0; if (h ~ /WARC-Target-URI: dns:h1\.web\.test/) print h }')
[ -n "$rec" ] || fail "no WARC dns record for h1.web.test"
echo "$rec" | grep -q '^WARC-IP-Address:' && fail "dns record from the hosts file names a server: $rec"
pass "crawl of a hosts-file name: dns: 1, every page, WARC dns record without a server"
