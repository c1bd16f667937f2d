#!/bin/sh
# Every /_mis/ misbehaviour of the test web is observable from a client
# (curl) and from the request log.
. "$top_srcdir/tests/lib.sh"
need_cmd curl gzip node

tw_start --hosts 3 --pages 5
D=$TW_DIR
B=http://h1.web.test:$TW_PORT/_mis

# get PATH CURL-ARGS...: prints "http_code size_download rc" and leaves
# headers in $D/h and the body in $D/body. The server logs a request once its
# write completes, which may be a moment after curl has the bytes: wait for
# the line (up to 3 s) so the checks below read the request just made.
get() {
	_path=$1
	shift
	_before=$(wc -l <"$D/requests.tsv" 2>/dev/null || echo 0)
	_out=$(tw_curl -D "$D/h" -o "$D/body" -w '%{http_code} %{size_download}' "$@" "$B/$_path")
	_rc=$?
	_i=0
	while [ "$(wc -l <"$D/requests.tsv" 2>/dev/null || echo 0)" -le "$_before" ] && [ $_i -lt 30 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "$_out $_rc"
}
logged() {
	grep "	$1	" "$D/requests.tsv" | tail -1 | cut -f5-6
}

r=$(get 'drip?ms=20&bytes=10')
[ "$r" = "200 10 0" ] || fail "drip: $r"
t=$(tail -1 "$D/requests.tsv" | awk -F '\t' '{ printf "%d", $2 - $1 }')
[ "$t" -ge 180 ] || fail "drip of 10 bytes at 20 ms took $t ms"
pass "drip ($t ms for 10 bytes)"

r=$(get hang -m 1)
[ "$r" = "000 0 28" ] || fail "hang: $r"
pass "hang (timeout)"

r=$(get hang-body -m 1)
[ "$r" = "200 0 28" ] || fail "hang-body: $r"
grep -q '^Content-Length: 1000' "$D/h" || fail "hang-body Content-Length"
pass "hang-body (headers, then timeout)"

r=$(get endless -m 1)
case $r in "200 "*" 28") ;; *) fail "endless: $r" ;; esac
[ "$(echo "$r" | cut -d' ' -f2)" -gt 1000000 ] || fail "endless sent little: $r"
grep -qi '^Transfer-Encoding: chunked' "$D/h" || fail "endless is not chunked"
pass "endless ($(echo "$r" | cut -d' ' -f2) bytes in 1 s)"

r=$(get short)
[ "$r" = "200 10 18" ] || fail "short: $r (want curl error 18)"
pass "short body (curl error 18)"

r=$(get 'bigheaders')
case $r in "200 "*" 0") ;; *) fail "bigheaders: $r" ;; esac
[ "$(wc -c <"$D/h")" -gt 100000 ] || fail "bigheaders sent $(wc -c <"$D/h") header bytes"
pass "big headers ($(wc -c <"$D/h") bytes)"

r=$(get garbage)
case $r in "000 0 0") fail "garbage accepted: $r" ;; "000 "*) ;; *) fail "garbage: $r" ;; esac
[ "$(logged /_mis/garbage)" = "0	0" ] || fail "garbage log: $(logged /_mis/garbage)"
pass "garbage status line (curl: $r)"

r=$(get reset)
[ "$r" = "000 0 56" ] || fail "reset: $r (want curl error 56)"
pass "reset (curl error 56)"

r=$(get 'bomb?mb=64' -H 'Accept-Encoding: gzip')
case $r in "200 "*" 0") ;; *) fail "bomb: $r" ;; esac
grep -qi '^Content-Encoding: gzip' "$D/h" || fail "bomb is not gzip"
wire=$(wc -c <"$D/body")
[ "$wire" -lt 200000 ] || fail "bomb is $wire bytes on the wire"
dec=$(gzip -dc <"$D/body" | wc -c)
[ "$dec" -eq 67108864 ] || fail "bomb decodes to $dec bytes, want 64 MiB"
r=$(get 'bomb' -I)
len=$(sed -n 's/^Content-Length: \([0-9]*\).*/\1/ip' "$D/h")
[ "$len" -gt 500000 ] && [ "$len" -lt 2000000 ] || fail "default bomb is $len bytes on the wire"
pass "gzip bomb ($wire bytes -> $dec; default 1 GiB in $len bytes)"

r=$(get redirect-loop -L --max-redirs 5)
case $r in "302 "*" 47") ;; *) fail "redirect loop: $r" ;; esac
grep -qi '^Location: /_mis/redirect-loop' "$D/h" || fail "redirect loop Location"
pass "redirect loop (curl error 47)"

r=$(tw_curl -L -o /dev/null -w '%{http_code} %{num_redirects}' "$B/redirect-chain?n=4")
[ "$r" = "200 4" ] || fail "redirect chain: $r"
pass "redirect chain of 4"

r=$(get calendar/2020/12/)
[ "$r" = "200 $(wc -c <"$D/body") 0" ] || fail "calendar: $r"
grep -q 'href="../../2020/11/"' "$D/body" && grep -q 'href="../../2021/01/"' "$D/body" ||
	fail "calendar links: $(cat "$D/body")"
r=$(tw_curl -o /dev/null -w '%{http_code}' "$B/calendar/9999/12/")
[ "$r" = 200 ] || fail "calendar far future: $r"
pass "calendar trap"

for s in 204 304; do
	c=$(tw_curl -o /dev/null -o "$D/after" -w '%{http_code}/%{num_connects} ' "$B/$s" "http://h1.web.test:$TW_PORT/")
	[ "$c" = "$s/1 200/0 " ] || fail "$s then a page on the same connection: $c"
	grep -q '<!DOCTYPE html>' "$D/after" || fail "page after $s is damaged"
done
pass "204 and 304 with Content-Length keep the connection usable"

r=$(get 100)
[ "$r" = "200 $(wc -c <"$D/body") 0" ] || fail "100: $r"
grep -q '^HTTP/1.1 100 Continue' "$D/h" || fail "no 100 Continue"
pass "100 Continue then 200"

get chunked >/dev/null
grep -qi '^Transfer-Encoding: chunked' "$D/h" || fail "chunked is not chunked"
cp "$D/body" "$D/chunked1"
get chunked >/dev/null
cmp -s "$D/body" "$D/chunked1" || fail "chunked page is not deterministic"
grep -q '<a href="/p/1.html">' "$D/body" || fail "chunked page has no links"
pass "chunked page"

r=$(get gzip -H 'Accept-Encoding: identity')
grep -qi '^Content-Encoding: gzip' "$D/h" || fail "/_mis/gzip not gzip"
gzip -dc <"$D/body" | grep -q '<a href=' || fail "/_mis/gzip does not decode to links"
pass "always-gzip page"

[ "$(get 'status?code=418' | cut -d' ' -f1)" = 418 ] || fail "status 418"
[ "$(get 'status?code=503' | cut -d' ' -f1)" = 503 ] || fail "status 503"
pass "status?code"

r=$(get 'retry-after?s=7')
[ "${r%% *}" = 503 ] && grep -q '^Retry-After: 7' "$D/h" || fail "retry-after: $r"
pass "retry-after"

r=$(tw_curl -o /dev/null -w '%{http_code} %{time_starttransfer}' "$B/slow-head?ms=400")
awk -v r="$r" 'BEGIN { split(r, a, " "); exit !(a[1] == 200 && a[2] >= 0.39) }' || fail "slow-head: $r"
pass "slow head ($r)"

r=$(get 'big?kb=3000')
[ "$r" = "200 3072000 0" ] || fail "big: $r"
pass "big body"

r=$(get nonsense)
[ "${r%% *}" = 404 ] || fail "unknown misbehaviour: $r"
r=$(tw_curl -o /dev/null -w '%{http_code}' "http://unknown.example:$TW_PORT/_mis/204")
[ "$r" = 204 ] || fail "misbehaviour on an unknown host: $r"
pass "unknown name is 404; /_mis/ works on any host"

tw_stop
grep -q '	/_mis/hang	0	0	' "$D/requests.tsv" || fail "hang not logged with status 0"
pass "request log records aborted requests"
