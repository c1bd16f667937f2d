#!/bin/sh
# HTTPS through tern fetch: the test CA, verification failures (unknown CA,
# wrong host name), verification off, a handshake that stalls, and session
# resumption on the next connection to the same host.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/net/fetch_lib.sh"
tw_start --tls --hosts 2
dns_start other.test
S=https://h0.web.test:$TW_TLS_PORT

expect_status "$S/" 200 - --set "fetch.ca-file=$TW_CA_FILE"
field timings | grep -Eq 'tls [0-9]*[1-9][0-9]*\.[0-9]+ ms|tls 0\.[0-9]*[1-9][0-9]* ms' ||
	fail "no TLS time: $OUT"

expect_status "$S/" -2 err:tls-verify:unknown-issuer
field error | grep -q "certificate verify failed" || fail "unknown CA not explained: $OUT"
field see | grep -q "fetch.ca-file, fetch.tls-verify" || fail "unknown CA without the settings that change it: $OUT"

expect_status "https://other.test:$TW_TLS_PORT/" -2 err:tls-verify:name-mismatch --set "fetch.ca-file=$TW_CA_FILE"
field error | grep -qi "hostname mismatch" || fail "wrong host not explained: $OUT"

expect_status "https://other.test:$TW_TLS_PORT/" 404 - --set fetch.tls-verify=false

t0=$(now_ms)
expect_status "https://h0.web.test:$TW_STALL_PORT/" -2 err:tls-timeout --set "fetch.ca-file=$TW_CA_FILE" \
	--set fetch.connect-timeout-ms=500
t1=$(now_ms)
field error | grep -q "TLS handshake timed out" || fail "stall not explained: $OUT"
[ $((t1 - t0)) -lt 3000 ] || fail "TLS stall took $((t1 - t0)) ms with a 500 ms limit"

expect_status "$S/_mis/short" -3 err:connection-lost --set "fetch.ca-file=$TW_CA_FILE"

# Reuse on one connection, then a new connection that resumes the session.
R=$("$DRIVER" --set "dns.servers=$DNS_SERVER" --set fetch.allow-private-addresses=true \
	--set "fetch.ca-file=$TW_CA_FILE" "$S/p/1.html" "$S/p/2.html") || fail "driver: $R"
[ "$(echo "$R" | grep -o 'reused=[01]' | tr '\n' ' ')" = "reused=0 reused=1 " ] || fail "TLS reuse: $R"
R=$("$DRIVER" --close-idle --set "dns.servers=$DNS_SERVER" --set fetch.allow-private-addresses=true \
	--set "fetch.ca-file=$TW_CA_FILE" "$S/p/1.html" "$S/p/2.html" "$S/p/3.html") || fail "driver: $R"
[ "$(echo "$R" | grep -o 'resumed=[01]' | tr '\n' ' ')" = "resumed=0 resumed=1 resumed=1 " ] ||
	fail "TLS resumption: $R"
pass "TLS keep-alive reuse and session resumption"
