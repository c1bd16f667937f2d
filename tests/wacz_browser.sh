#!/bin/sh
# A crawl of the test web packaged by `tern wacz` and opened in the viewer
# people use: ReplayWeb.page (npm replaywebpage, pinned in
# tests/package.json) in Debian's chromium driven by puppeteer-core
# (tests/wacz_browser.mjs). The Pages view must list every page with its
# title; a page with an image must replay inside the nested frames with its
# text and image; a link clicked there must load the linked capture; a URL
# never crawled must show the viewer's not-found page. The test web is
# stopped first, so everything shown comes from the package. Screenshots:
# tests/wacz_browser.shots/ of the build directory.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq
command -v node >/dev/null 2>&1 || fail "node missing: run scripts/deps"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || fail "no chromium at $CHROMIUM: run scripts/deps"
for m in puppeteer-core replaywebpage; do
	[ -d "$top_srcdir/tests/node_modules/$m" ] || fail "npm $m missing: run scripts/deps"
done
export CHROMIUM
command -v unzip >/dev/null 2>&1 || fail "unzip missing: run scripts/deps"

shots=$top_builddir/tests/wacz_browser.shots
rm -rf "$shots"
tw_start --hosts 2 --pages 9 --links 3 --cross 0 --kb 2
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
"$TERN" crawl -j "$job" -s "$TW_DIR/seeds.txt" --set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=0 \
	--set politeness.delay-factor=0 --set politeness.respect-crawl-delay-up-to-seconds=0 \
	>crawl.out 2>&1 || fail "tern crawl exited $?: $(cat crawl.out)"

# The cases, from the live test web before it stops: the first page with
# an image, and the page its first same-host link names.
port=$TW_PORT
image="" link=""
for u in $(awk -F'\t' '$2 == "allowed" && $1 ~ /(\/|\/p\/[0-9]+\.html)$/ { print $1 }' manifest.tsv | sort); do
	tw_curl "$u" >page.html || fail "fetching $u"
	grep -q '<img src="/i/' page.html || continue
	image=$u
	link=$(sed -n 's/.*<a href="\([^"#]*\)">link 0<\/a>.*/\1/p' page.html | head -1)
	break
done
[ -n "$image" ] || fail "no page of the test web has an image"
case $link in
http://*) ;;
/*) link=$(echo "$image" | sed 's|^\(http://[^/]*\).*|\1|')$link ;;
*) link=$(echo "$image" | sed 's|[^/]*$||')$link ;;
esac
link=$(echo "$link" | sed 's|/\./|/|; s|/p/\.\./p/|/p/|; s|:[0-9]*/\.\./p/|:'"$port"'/p/|')
title=$(sed -n 's/.*<title>\(.*\)<\/title>.*/\1/p' page.html | head -1)
h1=$(sed -n 's/.*<h1>\(.*\)<\/h1>.*/\1/p' page.html | head -1)
tw_curl "$link" >link.html || fail "fetching $link"
lh1=$(sed -n 's/.*<h1>\(.*\)<\/h1>.*/\1/p' link.html | head -1)
[ -n "$title" ] && [ -n "$h1" ] && [ -n "$lh1" ] || fail "no title or heading in $image or $link"
tw_stop

"$TERN" wacz "$job" -o "$TW_DIR/crawl.wacz" >wacz.out 2>&1 || fail "tern wacz exited $?: $(cat wacz.out)"
grep -q Sanitizer wacz.out && fail "sanitizer: $(cat wacz.out)"
unzip -p crawl.wacz pages/pages.jsonl >pages.jsonl || fail "no pages/pages.jsonl in the package"
grep -q "\"url\":\"$image\"" pages.jsonl || fail "$image is not in pages.jsonl"
printf '{"image":{"url":"%s","title":"%s","h1":"%s"},"link":{"url":"%s","h1":"%s"},"absent":"%s"}\n' \
	"$image" "$title" "$h1" "$link" "$lh1" "http://h0.web.test:$port/p/never-crawled.html" >cases.json

node "$top_srcdir/tests/wacz_browser.mjs" "$TW_DIR/crawl.wacz" pages.jsonl cases.json "$shots" ||
	fail "ReplayWeb.page did not show the package as it should (screenshots in $shots)"
for s in pages replay-image replay-link not-found; do
	[ -s "$shots/$s.png" ] || fail "no screenshot $s.png"
done
pass "ReplayWeb.page lists the crawl's pages and replays them from tern's WACZ; screenshots in $shots"
