#!/bin/sh
# HTTP/2 over TLS, chosen by ALPN, against servers nobody here wrote:
# Debian's nginx (1.22, HTTP/2 on its listen line) and nghttpd (Debian's
# nghttp2-server). A crawl of a small site over h2 fetches every page (nginx
# logs HTTP/2.0 for each request), its WARC records are HTTP/1.1 syntax with
# WARC-Protocol h2, the TLS version and WARC-Cipher-Suite, warcio reads them,
# and their payload digests are those of the same crawl over HTTP/1.1
# (fetch.http2=false, which nginx then logs as HTTP/1.1); a server that
# offers no h2 is crawled over HTTP/1.1.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
need_cmd nginx nghttpd curl node dnsmasq
tw_dir
cd "$TW_DIR" || fail "no work directory"
tw_ca_make
DNS_HOSTS=1 dns_start

# One host of 12 pages, gzip files served as they are (the WARC keeps the
# content coding): links rewritten to https://h0.web.test:PORT/.
ngx_web "$TW_DIR/site" 1 12 2 6
web=$TW_DIR/site/web/$NGX_BASE
find "$TW_DIR/site/web" -type f -name '*.html' -exec sed -i "s|http://127\.0\.0\.1:|https://h0.web.test:|g" {} +
find "$TW_DIR/site/web" -type f -name '*.html' -exec sh -c 'gzip -6 -n -c "$1" >"$1.gz"' _ {} \;
S=https://h0.web.test:$NGX_BASE
sed -n "s|^http://127\.0\.0\.1:$NGX_BASE\([^	]*\)	allowed.*|$S\1|p" "$TW_DIR/site/manifest.tsv" |
	sort -u >"$TW_DIR/allowed"
[ "$(wc -l <"$TW_DIR/allowed")" -ge 12 ] || fail "manifest too small"
NGX_CERT=$TW_CERT NGX_KEY=$TW_KEY
export NGX_CERT NGX_KEY

# crawl NAME [--set K=V]...: a crawl of $S/ into job NAME.
crawl() {
	_n=$1
	shift
	"$TERN" crawl -j "$TW_DIR/$_n" $TERN_MATCHED --set "dns.servers=$DNS_SERVER" \
		--set "fetch.ca-file=$TW_CA_FILE" "$@" "$S/" >"$TW_DIR/$_n.out" 2>&1 ||
		fail "tern crawl $_n exited $?: $(cat "$TW_DIR/$_n.out")"
	grep -q Sanitizer "$TW_DIR/$_n.out" && fail "sanitizer report: $(cat "$TW_DIR/$_n.out")"
	log=$TW_DIR/$_n/logs/crawl.log
	awk '$2 > 0 { print $4 }' "$log" | sort -u >"$TW_DIR/$_n.fetched"
	missing=$(comm -23 "$TW_DIR/allowed" "$TW_DIR/$_n.fetched")
	[ -z "$missing" ] || fail "$_n: pages not fetched: $(echo "$missing" | head -5); $(head -20 "$log")"
	zcat "$TW_DIR/$_n"/warcs/*.warc.gz >"$TW_DIR/$_n.warc"
}

# The protocols nginx logged (its last field), one of each.
ngx_protocols() {
	awk -F'\t' '{ print $9 }' "$NGX_LOG" | sort -u | tr '\n' ' '
}

# records NAME TYPE PROTO: every TYPE record of https carries WARC-Protocol
# PROTO, a TLS version and a cipher suite.
records() {
	awk -v type="$2" -v proto="$3" '
		/^WARC\/1\.[01]\r$/ { inrec = 1; t = ""; p = 0; tls = 0; cs = 0; next }
		inrec && /^WARC-Type: / { t = $2; sub(/\r$/, "", t) }
		inrec && /^WARC-Target-URI: https:/ { https = 1 }
		inrec && $0 == "WARC-Protocol: " proto "\r" { p = 1 }
		inrec && /^WARC-Protocol: tls\/1\.[23]\r$/ { tls = 1 }
		inrec && /^WARC-Cipher-Suite: TLS_[A-Z0-9_]*\r$/ { cs = 1 }
		inrec && /^\r$/ { if (t == type && https) { n++; if (!(p && tls && cs)) bad++ } inrec = 0; https = 0 }
		END { print n + 0, bad + 0 }' "$TW_DIR/$1.warc"
}

# digests NAME: "URI DIGEST" of every response record.
digests() {
	awk '/^WARC\/1\.[01]\r$/ { t = ""; u = ""; d = "" }
		/^WARC-Type: / { t = $2 }
		/^WARC-Target-URI: / { u = $2 }
		/^WARC-Payload-Digest: / { d = $2 }
		/^\r$/ && t == "response\r" && u != "" { print u, d; t = "" }' "$TW_DIR/$1.warc" | tr -d '\r' | sort
}

NGX_TLS=h2 ngx_start "$TW_DIR/site" static
crawl h2
[ "$(ngx_protocols)" = "HTTP/2.0 " ] || fail "nginx saw $(ngx_protocols), not HTTP/2.0 only"
set -- $(records h2 response h2)
[ "$1" -ge 12 ] && [ "$2" = 0 ] || fail "h2 responses: $1, $2 without WARC-Protocol h2, tls, cipher"
set -- $(records h2 request h2)
[ "$1" -ge 12 ] && [ "$2" = 0 ] || fail "h2 requests: $1, $2 without WARC-Protocol h2, tls, cipher"
grep -q "^HTTP/1.1 200 OK$(printf '\r')\$" "$TW_DIR/h2.warc" ||
	fail "no HTTP/1.1 200 OK status line in the h2 WARC"
grep -q '^GET / HTTP/1.1' "$TW_DIR/h2.warc" || fail "no HTTP/1.1 request line in the h2 WARC"
grep -qi '^host: h0.web.test:' "$TW_DIR/h2.warc" || fail "no Host from :authority in the h2 WARC"
grep -q '^content-encoding: gzip' "$TW_DIR/h2.warc" || fail "no gzip body in the h2 WARC"
(cd "$top_srcdir/tests/archive" && node warc_validate.mjs "$TW_DIR/h2" --version 1.1) >"$TW_DIR/validate.out" 2>&1 ||
	fail "warcio: $(cat "$TW_DIR/validate.out")"
# One request in flight per queue: one connection, kept alive.
conns=$(awk -F'\t' '{ print $7 }' "$NGX_LOG" | sort -u | wc -l)
[ "$conns" -le 2 ] || fail "h2 crawl of one host used $conns connections"
pass "crawl over h2 (nginx): every page, HTTP/2.0 in nginx's log, WARC-Protocol h2 + tls + cipher, warcio reads it"

# tern fetch says the protocol as the WARC records it.
out=$("$TERN" fetch --set "dns.servers=$DNS_SERVER" --set "fetch.ca-file=$TW_CA_FILE" "$S/p/1.html") ||
	fail "tern fetch: $out"
echo "$out" | grep -q '^protocol: h2 tls/1\.[23] TLS_[A-Z0-9_]*$' || fail "tern fetch over h2: $out"
out=$("$TERN" fetch --set "dns.servers=$DNS_SERVER" --set "fetch.ca-file=$TW_CA_FILE" \
	--set fetch.http2=false "$S/p/1.html") || fail "tern fetch: $out"
echo "$out" | grep -q '^protocol: http/1\.1 tls/1\.[23] TLS_' || fail "tern fetch, fetch.http2=false: $out"
: >"$NGX_LOG"
crawl h1 --set fetch.http2=false
[ "$(ngx_protocols)" = "HTTP/1.1 " ] || fail "fetch.http2=false: nginx saw $(ngx_protocols)"
set -- $(records h1 response http/1.1)
[ "$1" -ge 12 ] && [ "$2" = 0 ] || fail "http/1.1 responses: $1, $2 without WARC-Protocol http/1.1, tls, cipher"
digests h2 >"$TW_DIR/h2.digests"
digests h1 >"$TW_DIR/h1.digests"
[ -s "$TW_DIR/h2.digests" ] && cmp -s "$TW_DIR/h2.digests" "$TW_DIR/h1.digests" ||
	fail "payload digests differ between h2 and HTTP/1.1: $(diff "$TW_DIR/h2.digests" "$TW_DIR/h1.digests" | head -5)"
pass "fetch.http2=false: HTTP/1.1 in nginx's log and WARC-Protocol; payload digests the same as over h2"

ngx_stop
NGX_TLS=http1.1 ngx_start "$TW_DIR/site" static
crawl only11
[ "$(ngx_protocols)" = "HTTP/1.1 " ] || fail "server without h2: nginx saw $(ngx_protocols)"
set -- $(records only11 response http/1.1)
[ "$1" -ge 12 ] && [ "$2" = 0 ] || fail "server without h2: $1 responses, $2 without WARC-Protocol http/1.1"
pass "a server that offers no h2 by ALPN is crawled over HTTP/1.1"
ngx_stop

# nghttpd serves the same files, h2 only (it knows no redirects: those are
# 404 there).
nghttpd -a 127.0.0.1 -d "$web" "$NGX_BASE" "$TW_KEY" "$TW_CERT" >"$TW_DIR/nghttpd.log" 2>&1 &
NGH_PID=$!
track_pid "$NGH_PID"
i=0
while ! curl -s -o /dev/null --cacert "$TW_CA_FILE" --resolve "h0.web.test:$NGX_BASE:127.0.0.1" "$S/robots.txt"; do
	kill -0 "$NGH_PID" 2>/dev/null || fail "nghttpd did not start: $(cat "$TW_DIR/nghttpd.log")"
	i=$((i + 1))
	[ $i -lt 100 ] || fail "nghttpd did not answer"
	sleep 0.1
done
crawl nghttpd
set -- $(records nghttpd response h2)
[ "$1" -ge 12 ] && [ "$2" = 0 ] || fail "nghttpd: $1 responses, $2 without WARC-Protocol h2, tls, cipher"
(cd "$top_srcdir/tests/archive" && node warc_validate.mjs "$TW_DIR/nghttpd" --version 1.1) >"$TW_DIR/validate.out" 2>&1 ||
	fail "warcio (nghttpd): $(cat "$TW_DIR/validate.out")"
pass "crawl over h2 (nghttpd): every page, WARC-Protocol h2, warcio reads it"
