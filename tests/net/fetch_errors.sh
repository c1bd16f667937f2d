#!/bin/sh
# Network failures through tern fetch: connection refused (-2), NXDOMAIN
# (-6 on the URL, the dns: lookup -1), a DNS server that never answers
# (given up after dns.timeout-ms x dns.tries), a server that accepts and stays
# silent (-4 after fetch.idle-timeout-seconds).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/net/fetch_lib.sh"
tw_start --hosts 2
dns_start

# A port that refuses: bind one with node, note it, close it.
need_cmd node
PORT=$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => {
	const p = s.address().port; s.close(() => console.log(p)); });')
expect_status "http://h0.web.test:$PORT/" -2 err:connection-refused
field error | grep -qi "refused" || fail "refused not explained: $OUT"
[ "$(field status)" = "-2 (connection refused)" ] || fail "status without its cause: $OUT"

expect_status "http://nx.web.test:$TW_PORT/" -6 err:dns-nxdomain
field dns | grep -q '^-1 .*NXDOMAIN' || fail "no dns: -1 NXDOMAIN line: $OUT"
field error | grep -q "nx.web.test" || fail "error does not name the host: $OUT"

dns_dead_start
t0=$(now_ms)
OUT=$("$TERN" fetch --set "dns.servers=$DNS_DEAD_SERVER" --set dns.timeout-ms=300 \
	--set dns.tries=2 "http://h0.web.test:$TW_PORT/" 2>&1)
RC=$?
t1=$(now_ms)
[ "$RC" = 1 ] && [ "$(field status | cut -d' ' -f1)" = -6 ] || fail "dead DNS: $OUT"
field dns | grep -qi 'timeout' || fail "dead DNS not reported as a timeout: $OUT"
field annotations | grep -qw 'err:dns-timeout' || fail "dead DNS without its cause: $OUT"
[ $((t1 - t0)) -ge 550 ] && [ $((t1 - t0)) -lt 1500 ] ||
	fail "dead DNS took $((t1 - t0)) ms with timeout 300 ms x 2 tries"
pass "dead DNS server: -6 after $((t1 - t0)) ms (300 ms x 2 tries)"

t0=$(now_ms)
expect_status "http://h0.web.test:$TW_STALL_PORT/" -4 err:head-timeout --set fetch.idle-timeout-seconds=1
t1=$(now_ms)
[ $((t1 - t0)) -lt 4000 ] || fail "silent server took $((t1 - t0)) ms with a 1 s idle timeout"
