#!/bin/sh
# The test web's changing pages and sitemaps (tests/testweb/README.md):
# versions follow the period, validators follow the kind, conditional
# requests get 304 exactly when they should and are logged as such, and
# the sitemaps (index, plain, gzip'd, malformed, over the URL limit,
# robots.txt's Sitemap: line, /sitemap.xml) say what the README says.
. "$top_srcdir/tests/lib.sh"
need_cmd curl gzip

TW_NO_MANIFEST=1
tw_start --hosts 3 --pages 5 --change-periods 2,0 --sitemaps
D=$TW_DIR
u() { tw_url 1 "$1"; }

# A page's head and body, with optional request headers; sets status.
get() {
	_url=$1
	shift
	rm -f "$D/b"
	tw_curl -D "$D/h" -o "$D/b" "$@" "$_url" || fail "fetch $_url"
	status=$(sed -n '1s/^HTTP\/1.1 \([0-9]*\).*/\1/p' "$D/h")
}
header() { sed -n "s/^$1: \\(.*\\)\\r\$/\\1/Ip" "$D/h"; }

# The index lists 2 periods x 4 kinds x 2 pages.
get "$(u /v/)"
[ "$status" = 200 ] || fail "/v/ answered $status"
[ "$(grep -c '<a href="/v/' "$D/b")" = 16 ] || fail "/v/ lists $(grep -c '<a href' "$D/b") pages, want 16"
grep -q 'href="/v/2/etag/1.html"' "$D/b" && grep -q 'href="/v/0/none/0.html"' "$D/b" || fail "/v/ lacks a page"
pass "index of changing pages"

# Validators by kind.
get "$(u /v/0/both/0.html)"
[ -n "$(header ETag)" ] && [ -n "$(header Last-Modified)" ] || fail "both: validators missing"
get "$(u /v/0/etag/0.html)"
[ -n "$(header ETag)" ] && [ -z "$(header Last-Modified)" ] || fail "etag: wrong validators"
get "$(u /v/0/lastmod/0.html)"
[ -z "$(header ETag)" ] && [ -n "$(header Last-Modified)" ] || fail "lastmod: wrong validators"
get "$(u /v/0/none/0.html)"
[ -z "$(header ETag)" ] && [ -z "$(header Last-Modified)" ] || fail "none: validators sent"
pass "validators follow the kind"

# A page that never changes: 304 on its ETag and on its date, 200 on
# another ETag; a page without validators never answers 304 to a date.
get "$(u /v/0/both/0.html)"
etag=$(header ETag)
lm=$(header Last-Modified)
cp "$D/b" "$D/never1"
get "$(u /v/0/both/0.html)" -H "If-None-Match: $etag"
[ "$status" = 304 ] || fail "If-None-Match $etag answered $status"
[ ! -s "$D/b" ] || fail "304 has a body"
[ "$(header ETag)" = "$etag" ] || fail "304 lacks the ETag"
get "$(u /v/0/both/0.html)" -H "If-None-Match: W/\"other\", W/$etag"
[ "$status" = 304 ] || fail "weak list match answered $status"
get "$(u /v/0/both/0.html)" -H 'If-None-Match: "other"' -H "If-Modified-Since: $lm"
[ "$status" = 200 ] || fail "a failed If-None-Match must win over If-Modified-Since, got $status"
get "$(u /v/0/lastmod/0.html)" -H "If-Modified-Since: $lm"
[ "$status" = 304 ] || fail "If-Modified-Since answered $status"
get "$(u /v/0/lastmod/0.html)" -H "If-Modified-Since: Mon, 01 Jan 1990 00:00:00 GMT"
[ "$status" = 200 ] || fail "an old If-Modified-Since answered $status"
get "$(u /v/0/none/0.html)" -H "If-Modified-Since: $lm"
[ "$status" = 200 ] || fail "a page without Last-Modified answered $status to a date"
get "$(u /v/0/both/0.html)"
cmp -s "$D/b" "$D/never1" || fail "a page of period 0 changed"
pass "conditional requests on an unchanging page"

# A page of period 2 changes within 2 s: new body, new ETag, later date;
# the old ETag then gets 200.
get "$(u /v/2/both/1.html)"
e1=$(header ETag)
cp "$D/b" "$D/v1"
sleep 2.2
get "$(u /v/2/both/1.html)" -H "If-None-Match: $e1"
[ "$status" = 200 ] || fail "a changed page answered $status to its old ETag"
[ "$(header ETag)" != "$e1" ] || fail "the ETag did not change"
cmp -s "$D/b" "$D/v1" && fail "the body did not change"
get "$(u /v/2/both/1.html)" -H "If-None-Match: $(header ETag)"
[ "$status" = 304 ] || [ "$status" = 200 ] || fail "answered $status"
pass "a page of period 2 changes"

# gzip bodies decode to the identity body.
get "$(u /v/0/none/1.html)"
cp "$D/b" "$D/plain"
get "$(u /v/0/none/1.html)" -H 'Accept-Encoding: gzip'
[ "$(header Content-Encoding)" = gzip ] || fail "no gzip"
gzip -dc <"$D/b" | cmp -s - "$D/plain" || fail "gzip body differs"
pass "gzip"

# The request log names the validators each request carried.
awk -F '\t' '$4 == "/v/0/both/0.html" && $5 == 304 && $8 == "inm" { n++ } END { exit n < 2 }' \
	"$D/requests.tsv" || fail "request log lacks 304s to If-None-Match"
awk -F '\t' '$4 == "/v/0/lastmod/0.html" && $5 == 304 && $8 == "ims" { n++ } END { exit n < 1 }' \
	"$D/requests.tsv" || fail "request log lacks a 304 to If-Modified-Since"
awk -F '\t' '$4 == "/v/0/both/0.html" && $8 == "inm+ims" { n++ } END { exit n < 1 }' \
	"$D/requests.tsv" || fail "request log lacks a request with both validators"
awk -F '\t' '$4 == "/v/" && $8 != "-" { exit 1 }' "$D/requests.tsv" || fail "unconditional request logged with validators"
pass "request log names validators"

# Sitemaps.
tw_curl -o "$D/robots" "$(u /robots.txt)"
grep -qx "Sitemap: http://h1.web.test:$TW_PORT/sm/index.xml" "$D/robots" || fail "robots.txt lacks its Sitemap line"
get "$(u /sm/index.xml)"
[ "$status" = 200 ] && grep -q '<sitemapindex' "$D/b" || fail "sitemap index"
[ "$(grep -c '<sitemap>' "$D/b")" = 3 ] || fail "index lists $(grep -c '<sitemap>' "$D/b") sitemaps"
get "$(u /sm/pages.xml)"
[ "$(grep -c '<url>' "$D/b")" = 8 ] || fail "pages.xml lists $(grep -c '<url>' "$D/b") URLs, want 8"
grep -q "<loc>http://h1.web.test:$TW_PORT/v/2/both/0.html</loc>" "$D/b" || fail "pages.xml lacks a page"
grep -q '<changefreq>never</changefreq><priority>0.2</priority>' "$D/b" || fail "pages.xml: period 0 hints"
grep -q '<changefreq>always</changefreq><priority>0.9</priority>' "$D/b" || fail "pages.xml: period 2 hints"
get "$(u /sm/pages.xml.gz)"
[ "$(header Content-Type)" = application/x-gzip ] && [ -z "$(header Content-Encoding)" ] || fail "pages.xml.gz headers"
gzip -dc <"$D/b" >"$D/gz.xml" || fail "pages.xml.gz is not gzip"
[ "$(grep -c '<url>' "$D/gz.xml")" = 8 ] && grep -q '/v/0/etag/1.html' "$D/gz.xml" || fail "pages.xml.gz lists the wrong pages"
get "$(u /sm/bad.xml)"
grep -q '</lo></url>' "$D/b" || fail "bad.xml is not malformed"
get "$(u '/sm/huge.xml?n=50001')"
[ "$(grep -c '<url>' "$D/b")" = 50001 ] || fail "huge.xml lists $(grep -c '<url>' "$D/b") URLs"
get "$(u /sitemap.xml)"
[ "$status" = 200 ] && grep -q "<loc>http://h1.web.test:$TW_PORT/v/</loc>" "$D/b" || fail "/sitemap.xml"
pass "sitemaps"

# Without --sitemaps: no Sitemap line, no /sitemap.xml (the other paths stay).
tw_stop
tw_start --hosts 2 --pages 5
tw_curl -o "$D/robots" "$(tw_url 1 /robots.txt)"
grep -q Sitemap "$D/robots" && fail "robots.txt names a sitemap without --sitemaps"
get "$(tw_url 1 /sitemap.xml)"
[ "$status" = 404 ] || fail "/sitemap.xml answered $status without --sitemaps"
get "$(tw_url 1 /v/)"
[ "$status" = 200 ] || fail "/v/ answered $status without --sitemaps"
pass "sitemaps off by default"
tw_stop
