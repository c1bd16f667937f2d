#!/bin/sh
# A crawl of the test web packaged by `tern wacz` and opened in the viewer
# people use: ReplayWeb.page (npm replaywebpage, pinned in
# tests/package.json) in Debian's chromium driven by puppeteer-core
# (tests/archive/wacz_browser.mjs). A small crawl, titled by warc.wacz-title and
# described by tern wacz --description, must open on the viewer's Story
# tab with both, Archive Info must name it by its title, its Pages view
# must list every page with its title, and a page is opened from it. A
# crawl of one host of 3,000 pages (--local; over 3,000 captures, so an
# index of two blocks), titled by default with its seeds' host, must be
# named so in its Pages view and Archive Info; after its Pages list is
# scrolled to the end, the last page listed, clicked, must replay within
# 60 s (a bound on a stall, not a measure: bench/wacz-viewer.sh measures);
# then it is opened at a page's URL. In both, a page with an image must
# replay inside the nested frames with its text and image; a link clicked
# there must load the linked capture; a URL never crawled must show the
# viewer's not-found page. The test web is stopped first, so everything
# shown comes from the package. Screenshots:
# tests/archive/wacz_browser.shots/{small,large}/ of the build directory.
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

shots=$top_builddir/tests/archive/wacz_browser.shots
rm -rf "$shots"
CRAWL_SETS="--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=0
	--set politeness.delay-factor=0 --set politeness.respect-crawl-delay-up-to-seconds=0"

# cases NAME TITLE [DESC]: after a crawl of the live test web, NAME.json for
# wacz_browser.mjs: the first page with an image (its title and heading),
# the page its first link names (its heading), a URL never crawled, and
# the package's title and description.
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
	printf '{"image":{"url":"%s","title":"%s","h1":"%s"},"link":{"url":"%s","h1":"%s"},"absent":"%s","title":"%s","desc":"%s"}\n' \
		"$image" "$title" "$h1" "$link" "$lh1" "http://h0.web.test:$TW_PORT/p/never-crawled.html" "$2" "$3" >"$1.json"
}

# package JOBDIR NAME [OPTION...]: NAME.wacz and its NAME.pages.jsonl; the
# index compressed, with its .idx.
package() {
	_job=$1 _name=$2
	shift 2
	"$TERN" wacz "$_job" -o "$TW_DIR/$_name.wacz" "$@" >"$_name.out" 2>&1 || fail "tern wacz exited $?: $(cat "$_name.out")"
	grep -q Sanitizer "$_name.out" && fail "sanitizer: $(cat "$_name.out")"
	unzip -p "$_name.wacz" pages/pages.jsonl >"$_name.pages.jsonl" || fail "no pages/pages.jsonl in $_name.wacz"
	unzip -l "$_name.wacz" | grep -q " indexes/index.idx\$" || fail "$_name.wacz has no indexes/index.idx"
}

# A small crawl, titled by its settings and described on the command
# line, opened on its Story tab and then from the Pages view.
DNS_HOSTS=40
export DNS_HOSTS
tw_start --hosts 2 --pages 9 --links 3 --cross 0 --kb 2
dns_start
cd "$TW_DIR" || fail "no work directory"
small_title="Small test crawl, two hosts"
small_desc="Nine pages on each of two hosts of the test web."
# shellcheck disable=SC2086
"$TERN" crawl -j "$TW_DIR/small" -s seeds.txt --set dns.servers="$DNS_SERVER" $CRAWL_SETS \
	--set "warc.wacz-title=$small_title" >small-crawl.out 2>&1 || fail "tern crawl exited $?: $(cat small-crawl.out)"
cases small "$small_title" "$small_desc"
tw_stop
package "$TW_DIR/small" small --description "$small_desc"
grep -q "$(sed 's/.*"image":{"url":"\([^"]*\)".*/"url":"\1"/' small.json)" small.pages.jsonl ||
	fail "the image page is not in pages.jsonl"
node "$top_srcdir/tests/archive/wacz_browser.mjs" list "$TW_DIR/small.wacz" small.pages.jsonl small.json "$shots/small" ||
	fail "ReplayWeb.page did not show the small package as it should (screenshots in $shots/small)"

# One host of 3,000 pages (over 3,000 captures: two blocks of the index),
# crawled as a person would crawl a site of their own, its package titled
# with the seeds' host: the Pages list scrolled, then a page clicked.
tw_start --hosts 1 --pages 3000 --links 4 --cross 0 --kb 2
"$TERN" crawl --local -j "$TW_DIR/large" -s seeds.txt --set dns.servers="$DNS_SERVER" \
	--set crawl.max-hops=10000 >large-crawl.out 2>&1 || fail "tern crawl exited $?: $(cat large-crawl.out)"
cases large h0.web.test
tw_stop
package "$TW_DIR/large" large
[ "$(unzip -p large.wacz indexes/index.idx | wc -l)" -ge 3 ] || fail "the large package's index is not of two blocks"
[ "$(($(wc -l <large.pages.jsonl) - 1))" -ge 3000 ] || fail "the large package has $(($(wc -l <large.pages.jsonl) - 1)) pages"
node "$top_srcdir/tests/archive/wacz_browser.mjs" scroll "$TW_DIR/large.wacz" large.pages.jsonl large.json "$shots/large" ||
	fail "ReplayWeb.page did not show the large package as it should (screenshots in $shots/large)"

for s in small/story small/archive-info small/pages small/replay-image small/replay-link small/not-found \
	large/archive-info large/pages-scrolled large/scrolled-replay large/replay-image large/replay-link \
	large/not-found; do
	[ -s "$shots/$s.png" ] || fail "no screenshot $s.png"
done
pass "ReplayWeb.page shows tern's WACZ with its title, lists its pages and replays them, after scrolling $(($(wc -l <large.pages.jsonl) - 1)) pages too; screenshots in $shots"
