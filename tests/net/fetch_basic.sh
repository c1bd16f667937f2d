#!/bin/sh
# tern fetch against the test web: a page with headers, timings and sizes;
# gzip and chunked bodies whose bytes match an independent client (node);
# keep-alive reuse, also after 204/304 with Content-Length; 1xx; bad URLs;
# the private-address rule.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/net/fetch_lib.sh"
need_cmd node
tw_start --hosts 3
DNS_LOG_QUERIES=1 dns_start
H0=http://h0.web.test:$TW_PORT

fetch_run "$H0/"
[ "$RC" = 0 ] || fail "exit $RC: $OUT"
[ "$(field status)" = "200 (HTTP response)" ] || fail "status: $OUT"
field dns | grep -q "^1 127.0.0.1 .*server=$DNS_SERVER" || fail "dns line: $OUT"
[ "$(field ip)" = 127.0.0.1 ] || fail "ip: $OUT"
printf '%s\n' "$OUT" | grep -q '^HTTP/1.1 200 OK' || fail "no status line: $OUT"
[ "$(field Content-Encoding)" = gzip ] || fail "no gzip: $OUT"
field timings | grep -Eq '^dns [0-9.]+ ms, connect [0-9.]+ ms, tls 0.000 ms, first byte [0-9.]+ ms, total [0-9.]+ ms$' ||
	fail "timings: $OUT"
field sizes | grep -Eq '^raw [1-9][0-9]* bytes, decoded [1-9][0-9]* bytes$' || fail "sizes: $OUT"
pass "tern fetch prints status, dns, headers, timings, sizes"

# The same page without gzip: its raw bytes are the decoded bytes above.
GZ_DEC=$(field decoded-sha1)
GZ_RAW=$(field raw-sha1)
fetch_run "$H0/" --set fetch.accept-encoding=identity
[ -z "$(field Content-Encoding)" ] || fail "identity asked, got: $OUT"
[ "$(field raw-sha1)" = "$GZ_DEC" ] || fail "gzip decoded bytes differ from the identity body"
[ "$GZ_RAW" != "$GZ_DEC" ] || fail "raw and decoded digests equal for a gzip body"
pass "gzip body decodes to the identity body"

# node as the independent client: raw bytes as received (de-chunked,
# content coding kept) and decoded bytes.
node_sha1() {
	node -e '
		const http = require("http"), zlib = require("zlib"), crypto = require("crypto");
		http.get({ host: "127.0.0.1", port: process.argv[1], path: process.argv[2],
		    headers: { host: "h0.web.test", "accept-encoding": "gzip" } }, (res) => {
			const parts = [];
			res.on("data", (d) => parts.push(d));
			res.on("end", () => {
				const raw = Buffer.concat(parts);
				const dec = res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw;
				console.log(crypto.createHash("sha1").update(raw).digest("hex") + " " +
				    crypto.createHash("sha1").update(dec).digest("hex"));
			});
		});' "$TW_PORT" "$1"
}
for p in /_mis/chunked /_mis/gzip /p/3.html "/_mis/big?kb=300"; do
	fetch_run "$H0$p"
	want=$(node_sha1 "$p")
	got="$(field raw-sha1) $(field decoded-sha1)"
	[ "$got" = "$want" ] || fail "$p: tern $got, node $want"
done
pass "raw and decoded bytes match node for chunked, gzip and large bodies"

# Keep-alive: three fetches on one engine use one connection.
R=$("$DRIVER" --set "dns.servers=$DNS_SERVER" --set fetch.allow-private-addresses=true \
	"$H0/p/1.html" "$H0/p/2.html" "$H0/p/3.html") || fail "driver: $R"
[ "$(echo "$R" | grep -o 'reused=[01]' | tr '\n' ' ')" = "reused=0 reused=1 reused=1 " ] ||
	fail "reuse: $R"
echo "$R" | grep -q 'dnscache=1' || fail "second lookup not from the cache: $R"
ids=$(conn_ids /p/1.html /p/2.html /p/3.html)
set -- $ids
[ "$#" = 3 ] && [ "$1" = "$2" ] && [ "$2" = "$3" ] || fail "connection ids: $ids"
pass "keep-alive: three requests on connection $1"

# 204 and 304 with Content-Length: 5, then a page on the same connection.
R=$("$DRIVER" --set "dns.servers=$DNS_SERVER" --set fetch.allow-private-addresses=true \
	"$H0/_mis/204" "$H0/_mis/304" "$H0/p/4.html") || fail "driver: $R"
[ "$(echo "$R" | grep -o 'status=[0-9-]*' | tr '\n' ' ')" = "status=204 status=304 status=200 " ] ||
	fail "statuses: $R"
[ "$(echo "$R" | grep -o 'reused=[01]' | tr '\n' ' ')" = "reused=0 reused=1 reused=1 " ] ||
	fail "reuse after 204/304: $R"
ids=$(conn_ids /_mis/204 /_mis/304 /p/4.html)
set -- $ids
[ "$1" = "$2" ] && [ "$2" = "$3" ] || fail "connection ids: $ids"
pass "204 and 304 with Content-Length keep the connection in sync"

# Twenty fetches of one host started at once share one DNS lookup.
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	set -- "$@" "http://h2.web.test:$TW_PORT/p/$i.html"
done
R=$("$DRIVER" --parallel --set "dns.servers=$DNS_SERVER" --set fetch.allow-private-addresses=true "$@") ||
	fail "driver: $R"
[ "$(echo "$R" | grep -c 'status=200')" = 20 ] || fail "parallel fetches: $R"
n=$(grep -c 'query\[A\] h2.web.test' "$TW_DIR/dnsmasq.log")
[ "$n" = 1 ] || fail "$n DNS queries for h2.web.test, expected 1"
pass "20 parallel fetches, one DNS query"

# 100 Continue, then the real response.
fetch_run "$H0/_mis/100"
[ "$(field status)" = "200 (HTTP response)" ] || fail "1xx: $OUT"
printf '%s\n' "$OUT" | grep -q '^HTTP/1.1 100' && fail "interim head printed as the response: $OUT"
pass "1xx skipped, final 200 kept"

# Bad URLs exit 2. The host the operator names on the command line is
# allowed whatever its address, a name or an IP literal; a fetch nobody named
# (the driver's, as a crawl's discovered link) is refused -7 when its name
# resolves to a private address, the message naming the block.
"$TERN" fetch "ftp://h0.web.test/" >/dev/null 2>&1
[ $? = 2 ] || fail "bad scheme not exit 2"
"$TERN" fetch "http://[zz]/" >/dev/null 2>&1
[ $? = 2 ] || fail "bad host not exit 2"
# A URL is resolved as the crawl resolves links (as a browser does): a
# space is sent percent-encoded, never raw in the request line.
"$TERN" fetch --set dns.servers=$DNS_SERVER --set fetch.allow-private-addresses=true \
    "http://h0.web.test:$TW_PORT/a b" >space.out 2>&1
grep -q '^url: http://h0.web.test:[0-9]*/a%20b$' space.out ||
	fail "space in URL not encoded: $(head -3 space.out)"
grep -q '/a%20b' "$TW_DIR/requests.tsv" || fail "the server did not see /a%20b"
OUT=$("$TERN" fetch --set "dns.servers=$DNS_SERVER" "$H0/" 2>&1)
[ "$(field status | cut -d' ' -f1)" = 200 ] || fail "operator's name refused: $OUT"
OUT=$("$TERN" fetch --set "dns.servers=$DNS_SERVER" "http://127.0.0.1:$TW_PORT/" 2>&1)
# (the test web answers 404 for a host it does not know, which is fine)
[ "$(field status | cut -d' ' -f1)" = 404 ] || fail "operator IP literal refused: $OUT"
R=$("$DRIVER" --set "dns.servers=$DNS_SERVER" "$H0/p/1.html") || fail "driver: $R"
echo "$R" | grep -q 'status=-7 .*127\.0\.0\.1, in 127\.0\.0\.0/8 (loopback)' ||
	fail "private address not refused with its block: $R"
pass "bad URLs exit 2, operator hosts allowed, other private addresses -7"

# A request withdrawn at the last moment (struct fetch_cbs.may_send, the
# cluster's lease check) never reaches the server, on a kept-alive
# connection or a new one: the first is sent, the next two end -3 unsent.
R=$("$DRIVER" --withhold-after 1 --set "dns.servers=$DNS_SERVER" --set fetch.allow-private-addresses=true \
	"$H0/p/11.html" "$H0/p/12.html" "$H0/p/13.html") || fail "driver: $R"
[ "$(echo "$R" | grep -o 'status=[0-9-]*' | tr '\n' ' ')" = "status=200 status=-3 status=-3 " ] ||
	fail "withheld requests: $R"
[ "$(echo "$R" | grep -o 'reused=[01]' | tr '\n' ' ')" = "reused=0 reused=1 reused=0 " ] ||
	fail "withheld requests' connections: $R"
echo "$R" | grep -q 'error=not sent' || fail "no 'not sent' error: $R"
sleep 1.2	# the test web flushes its request log every second
grep -q 'h0.web.test	/p/11.html	' "$TW_DIR/requests.tsv" || fail "the first request is not in the server's log"
grep -q 'h0.web.test	/p/1[23].html	' "$TW_DIR/requests.tsv" && fail "a withheld request reached the server"
pass "requests withdrawn before writing never reach the server"
