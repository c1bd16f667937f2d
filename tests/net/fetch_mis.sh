#!/bin/sh
# Every misbehaviour of the test web through tern fetch, each with the
# status and annotation doc/formats.md ("crawl.log") asks for.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/net/fetch_lib.sh"
tw_start --hosts 1
dns_start
M=http://h0.web.test:$TW_PORT/_mis

expect_status "$M/drip?ms=200&bytes=100" 200 timeTrunc --set fetch.timeout-seconds=1
expect_status "$M/hang" -4 - --set fetch.idle-timeout-seconds=1
expect_status "$M/hang-body" 200 timeTrunc --set fetch.idle-timeout-seconds=1
expect_status "$M/endless" 200 lenTrunc --set fetch.max-length-bytes=100000
[ "$(field sizes | cut -d' ' -f2)" = 100000 ] || fail "lenTrunc body not cut at the cap: $OUT"
expect_status "$M/short" -3 -
expect_status "$M/bigheaders?kb=100" -3 -
field error | grep -q "max-header-bytes" || fail "big head not explained: $OUT"
expect_status "$M/bigheaders?kb=10" 200 -
expect_status "$M/garbage" -3 -
expect_status "$M/reset" -3 -
expect_status "$M/bomb?mb=200" 200 decodeTrunc
dec=$(field sizes | sed 's/.*decoded \([0-9]*\) bytes/\1/')
[ "$dec" -le 2097152 ] || fail "bomb decoded $dec bytes"
# br and zstd, and a stack of codings, sent whatever was asked: decoded
# whole (the page is 1,818 bytes and its title twice), the raw bytes
# those sent.
for enc in br zstd gzip-br; do
	expect_status "$M/$enc" 200 - --set fetch.accept-encoding=identity
	field annotations | grep -q decode && fail "$enc: $(field annotations)"
	case $(field sizes) in *"decoded $((1818 + 2 * ${#enc})) bytes"*) ;; *) fail "$enc decoded: $(field sizes)" ;; esac
done
[ "$(field Content-Encoding)" = "gzip, br" ] || fail "stack not sent: $OUT"
# The bombs stop at the ratio cap just past 1 MiB (a few KB of br or zstd
# hold 64 MiB); a broken br stream is decodeError.
for enc in br zstd; do
	expect_status "$M/$enc-bomb?mb=64" 200 decodeTrunc
	dec=$(field sizes | sed 's/.*decoded \([0-9]*\) bytes/\1/')
	[ "$dec" -ge 1048576 ] && [ "$dec" -le 2097152 ] || fail "$enc bomb decoded $dec bytes"
done
expect_status "$M/br-corrupt" 200 decodeError
expect_status "$M/redirect-loop" 302 -
[ "$(field Location)" = /_mis/redirect-loop ] || fail "no Location: $OUT"
expect_status "$M/redirect-chain?n=3" 302 -
expect_status "$M/calendar/2024/01/" 200 -
expect_status "$M/204" 204 -
expect_status "$M/304" 304 -
expect_status "$M/100" 200 -
expect_status "$M/chunked" 200 -
expect_status "$M/gzip" 200 - --set fetch.accept-encoding=identity
[ "$(field Content-Encoding)" = gzip ] || fail "gzip not sent: $OUT"
expect_status "$M/status?code=418" 418 -
expect_status "$M/status?code=599" 599 -
expect_status "$M/retry-after?s=7" 503 -
[ "$(field Retry-After)" = 7 ] || fail "no Retry-After: $OUT"
expect_status "$M/slow-head?ms=1500" -4 - --set fetch.timeout-seconds=1
expect_status "$M/slow-head?ms=200" 200 -
expect_status "$M/big?kb=2048" 200 -
[ "$(field sizes | cut -d' ' -f2)" = 2097152 ] || fail "big body size: $OUT"
