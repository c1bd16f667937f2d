#!/bin/sh
# A crawl of the test web packaged by `tern wacz` and opened in the viewer
# people use: ReplayWeb.page (npm replaywebpage, pinned in
# tests/package.json) in Debian's chromium driven by puppeteer-core
# (tests/wacz_browser.mjs). For a small crawl (an index of one block) the
# Pages view must list every page with its title and a page is opened from
# it; a larger one (two blocks) is opened at a page's URL. Then a page with an image must replay inside the nested frames with
# its text and image; a link clicked there must load the linked capture; a
# URL never crawled must show the viewer's not-found page. The test web is
# stopped first, so everything shown comes from the package. Screenshots:
# tests/wacz_browser.shots/{small,large}/ of the build directory.
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
CRAWL_SETS="--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=0
	--set politeness.delay-factor=0 --set politeness.respect-crawl-delay-up-to-seconds=0"

# cases NAME: after a crawl of the live test web, NAME.json for
# wacz_browser.mjs: the first page with an image (its title and heading),
# the page its first link names (its heading), and a URL never crawled.
cases() {
	image="" link=""
	for u in $(awk -F'\t' '$2 == "allowed" && $1 ~ /(\/|\/p\/[0-9]+\.html)$/ { print $1 }' manifest.tsv | sort); do
		tw_curl "$u" >page.html || fail "fetching $u"
		grep -q '<img src="/i/' page.html || continue
		image=$u
		link=$(sed -n 's/.*<a href="\([^"#]*\)">link 0<\/a>.*/\1/p' page.html | head -1)
		break
	done
	[ -n "$image" ] && [ -n "$link" ] || fail "no page of the test web has an image and a link"
	link=$(node -e 'console.log(new URL(process.argv[2], process.argv[1]).href)' "$image" "$link")
	title=$(sed -n 's/.*<title>\(.*\)<\/title>.*/\1/p' page.html | head -1)
	h1=$(sed -n 's/.*<h1>\(.*\)<\/h1>.*/\1/p' page.html | head -1)
	tw_curl "$link" >link.html || fail "fetching $link"
	lh1=$(sed -n 's/.*<h1>\(.*\)<\/h1>.*/\1/p' link.html | head -1)
	[ -n "$title" ] && [ -n "$h1" ] && [ -n "$lh1" ] || fail "no title or heading in $image or $link"
	printf '{"image":{"url":"%s","title":"%s","h1":"%s"},"link":{"url":"%s","h1":"%s"},"absent":"%s"}\n' \
		"$image" "$title" "$h1" "$link" "$lh1" "http://h0.web.test:$TW_PORT/p/never-crawled.html" >"$1.json"
}

# package JOBDIR NAME: NAME.wacz and its NAME.pages.jsonl.
package() {
	"$TERN" wacz "$1" -o "$TW_DIR/$2.wacz" >"$2.out" 2>&1 || fail "tern wacz exited $?: $(cat "$2.out")"
	grep -q Sanitizer "$2.out" && fail "sanitizer: $(cat "$2.out")"
	unzip -p "$2.wacz" pages/pages.jsonl >"$2.pages.jsonl" || fail "no pages/pages.jsonl in $2.wacz"
}

# A small crawl, opened from the Pages view.
DNS_HOSTS=40
export DNS_HOSTS
tw_start --hosts 2 --pages 9 --links 3 --cross 0 --kb 2
dns_start
cd "$TW_DIR" || fail "no work directory"
# shellcheck disable=SC2086
"$TERN" crawl -j "$TW_DIR/small" -s seeds.txt --set dns.servers="$DNS_SERVER" $CRAWL_SETS \
	>small-crawl.out 2>&1 || fail "tern crawl exited $?: $(cat small-crawl.out)"
cases small
tw_stop
package "$TW_DIR/small" small
grep -q "$(sed 's/.*"image":{"url":"\([^"]*\)".*/"url":"\1"/' small.json)" small.pages.jsonl ||
	fail "the image page is not in pages.jsonl"
unzip -l small.wacz | grep -q " indexes/index.idx\$" || fail "the small package has no index.idx"
node "$top_srcdir/tests/wacz_browser.mjs" list "$TW_DIR/small.wacz" small.pages.jsonl small.json "$shots/small" ||
	fail "ReplayWeb.page did not show the small package as it should (screenshots in $shots/small)"

# A larger crawl (about 4,800 captures), opened at a page's URL: an index
# of two blocks, which the viewer reads block by block through its .idx.
tw_start --hosts 40 --pages 80 --links 4 --cross 0 --kb 2
# shellcheck disable=SC2086
"$TERN" crawl -j "$TW_DIR/large" -s seeds.txt --set dns.servers="$DNS_SERVER" $CRAWL_SETS \
	--set crawl.max-connections=64 >large-crawl.out 2>&1 || fail "tern crawl exited $?: $(cat large-crawl.out)"
cases large
tw_stop
package "$TW_DIR/large" large
unzip -l large.wacz | grep -q " indexes/index.idx\$" || fail "the large package has no index.idx"
node "$top_srcdir/tests/wacz_browser.mjs" direct "$TW_DIR/large.wacz" large.pages.jsonl large.json "$shots/large" ||
	fail "ReplayWeb.page did not show the large package as it should (screenshots in $shots/large)"

for s in small/pages small/replay-image small/replay-link small/not-found \
	large/replay-image large/replay-link large/not-found; do
	[ -s "$shots/$s.png" ] || fail "no screenshot $s.png"
done
pass "ReplayWeb.page lists the crawl's pages and replays them from tern's WACZ (indexes of one and two blocks); screenshots in $shots"
