#!/bin/sh
# A page fetched over HTTP/2 replays in ReplayWeb.page: a small site on
# Debian's nginx with TLS and http2 (nginx logs HTTP/2.0 for every request
# of the crawl), packaged by `tern wacz` with nginx stopped, opened in the
# viewer at a page with an image (tests/archive/wacz_browser.mjs direct: the page's
# heading, title and image from the archive, a link clicked inside the
# replay, a URL never crawled). The records it replays are the HTTP/1.1
# syntax of doc/warc.md, "HTTP/2 and the protocol fields". Screenshots:
# tests/crawl/http2_replay.shots/ of the build directory.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
need_cmd nginx dnsmasq curl unzip
command -v node >/dev/null 2>&1 || fail "node missing: run scripts/deps"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || fail "no chromium at $CHROMIUM: run scripts/deps"
for m in puppeteer-core replaywebpage; do
	[ -d "$top_srcdir/tests/node_modules/$m" ] || fail "npm $m missing: run scripts/deps"
done
export CHROMIUM
shots=$top_builddir/tests/crawl/http2_replay.shots
rm -rf "$shots"
tw_dir
cd "$TW_DIR" || fail "no work directory"
tw_ca_make
DNS_HOSTS=1 dns_start

ngx_web "$TW_DIR/site" 1 9 2 3
web=$TW_DIR/site/web/$NGX_BASE
find "$TW_DIR/site/web" -type f -name '*.html' -exec sed -i "s|http://127\.0\.0\.1:|https://h0.web.test:|g" {} +
S=https://h0.web.test:$NGX_BASE
NGX_CERT=$TW_CERT NGX_KEY=$TW_KEY NGX_TLS=h2
export NGX_CERT NGX_KEY NGX_TLS
ngx_start "$TW_DIR/site" off
# shellcheck disable=SC2086
"$TERN" crawl -j "$TW_DIR/job" $TERN_MATCHED --set "dns.servers=$DNS_SERVER" \
	--set "fetch.ca-file=$TW_CA_FILE" "$S/" >crawl.out 2>&1 || fail "tern crawl exited $?: $(cat crawl.out)"
protos=$(awk -F'\t' '{ print $9 }' "$NGX_LOG" | sort -u | tr '\n' ' ')
[ "$protos" = "HTTP/2.0 " ] || fail "nginx saw $protos, not HTTP/2.0 only"
ngx_stop

# The first page with an image and a link, read from the site's files.
image="" link=""
for f in index.html $(cd "$web" && ls p/*.html | sort -t/ -k2n); do
	grep -q '<img src="/i/' "$web/$f" || continue
	link=$(sed -n 's/.*<a href="\([^"#]*\)">link 0<\/a>.*/\1/p' "$web/$f" | head -1)
	[ -n "$link" ] || continue
	image=$S/${f%index.html}
	page=$web/$f
	break
done
[ -n "$image" ] || fail "no page of the site has an image and a link"
link=$(node -e 'console.log(new URL(process.argv[2], process.argv[1]).href)' "$image" "$link")
lfile=$web${link#"$S"}
case "$lfile" in */) lfile=${lfile}index.html ;; esac
title=$(sed -n 's/.*<title>\(.*\)<\/title>.*/\1/p' "$page" | head -1)
h1=$(sed -n 's/.*<h1>\(.*\)<\/h1>.*/\1/p' "$page" | head -1)
lh1=$(sed -n 's/.*<h1>\(.*\)<\/h1>.*/\1/p' "$lfile" | head -1)
[ -n "$title" ] && [ -n "$h1" ] && [ -n "$lh1" ] || fail "no title or heading in $image or $link"
printf '{"image":{"url":"%s","title":"%s","h1":"%s"},"link":{"url":"%s","h1":"%s"},"absent":"%s","title":"%s","desc":""}\n' \
	"$image" "$title" "$h1" "$link" "$lh1" "$S/p/never-crawled.html" "h0.web.test" >cases.json

"$TERN" wacz "$TW_DIR/job" -o "$TW_DIR/h2.wacz" >wacz.out 2>&1 || fail "tern wacz exited $?: $(cat wacz.out)"
unzip -p h2.wacz pages/pages.jsonl >pages.jsonl || fail "no pages/pages.jsonl in h2.wacz"
node "$top_srcdir/tests/archive/wacz_browser.mjs" direct "$TW_DIR/h2.wacz" pages.jsonl cases.json "$shots" ||
	fail "ReplayWeb.page did not replay the h2 crawl (screenshots in $shots)"
pass "a page fetched over h2 replays in ReplayWeb.page with its image and links"
