#!/bin/sh
# Sitemaps in crawls of the test web (tests/testweb/README.md, "Changing
# pages and sitemaps"), judged from the server's request log and crawl.log:
#   1. once: robots.txt's Sitemap: line leads to the sitemap index, its
#      plain, gzip'd and malformed sitemaps, and every URL they list (the
#      malformed one's up to its error, annotated sitemapError), with hop M;
#      /sitemap.xml is not guessed in a one-time crawl;
#   2. a sitemap over the protocol's 50,000 URLs: exactly 50,000 taken,
#      annotated sitemapLimit;
#   3. continuous: /sitemap.xml is fetched on every server, and <changefreq>
#      sets the first revisit interval (never: the max, always: the min).
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

crawl() {
	_job=$1
	shift
	"$TERN" crawl -j "$_job" \
		--set dns.servers="$DNS_SERVER" \
		--set fetch.allow-private-addresses=true \
		--set politeness.min-delay-ms=50 \
		--set politeness.delay-factor=0 \
		--set politeness.respect-crawl-delay-up-to-seconds=0 \
		--set crawl.max-connections=8 "$@" >>"$TW_DIR/tern.out" 2>&1 ||
		fail "tern crawl exited $?: $(tail -5 "$TW_DIR/tern.out")"
	grep -q "Sanitizer" "$TW_DIR/tern.out" && fail "sanitizer report: $(cat "$TW_DIR/tern.out")"
}

TW_NO_MANIFEST=1
tw_start --hosts 2 --pages 2 --change-periods 2,0 --sitemaps
dns_start
cd "$TW_DIR" || fail "no work directory"
: >tern.out

# 1. A one-time crawl from h1's root.
crawl "$TW_DIR/job1" "$(tw_url 1 /)"
log=$TW_DIR/requests.tsv
cl=$TW_DIR/job1/logs/crawl.log
got() { awk -F'\t' -v p="$1" '$3 == "h1.web.test" && $4 == p' "$log" | wc -l; }
for p in /sm/index.xml /sm/pages.xml /sm/pages.xml.gz /sm/bad.xml /v/0/none/100.html \
    /v/2/both/1.html /v/0/none/0.html /v/2/etag/0.html /v/0/lastmod/1.html; do
	[ "$(got $p)" -eq 1 ] || fail "$p requested $(got $p) times, want once"
done
for p in /v/0/none/101.html /v/0/none/102.html /sitemap.xml /v/2/etag/5.html; do
	[ "$(got $p)" -eq 0 ] || fail "$p requested"
done
n=$(awk -F'\t' '$3 == "h1.web.test" && $4 ~ /^\/v\/[0-9]+\/[a-z]+\/[01]\.html$/' "$log" | wc -l)
[ "$n" -eq 16 ] || fail "$n listed pages requested, want 16 (8 in pages.xml, 8 in pages.xml.gz)"
grep -q "/sm/bad.xml .*sitemapError" "$cl" || fail "bad.xml not annotated sitemapError: $(grep bad.xml "$cl")"
awk '$4 ~ /\/v\/2\/both\/1\.html$/ && $5 ~ /M$/ { ok = 1 } END { exit !ok }' "$cl" ||
	fail "a listed page's hop path does not end in M: $(grep /v/2/both/1.html "$cl")"
awk '$4 ~ /\/sm\/pages\.xml\.gz$/ && $2 == 200 { ok = 1 } END { exit !ok }' "$cl" || fail "pages.xml.gz not logged"
pass "robots.txt Sitemap: index, plain, gzip'd and malformed sitemaps, 16 listed pages, no /sitemap.xml guess"
tw_stop
rm -f "$log"

# 2. Over the URL limit: the first 50,000 entries and no more. Without
# --sitemaps robots.txt names none; the seed is read as a sitemap because it
# is XML. The scope is the domain (a seed's own prefix, /sm/, would keep
# out the pages it lists); max-pages stops the crawl right after it.
tw_start --hosts 2 --pages 2
crawl "$TW_DIR/job2" --set extract.max-outlinks=60000 --set crawl.max-pages=1 --set crawl.scope=domain \
	"$(tw_url 1 '/sm/huge.xml?n=50001')"
cl=$TW_DIR/job2/logs/crawl.log
grep -q "/sm/huge.xml?n=50001 .*sitemapLimit" "$cl" || fail "huge.xml not annotated sitemapLimit: $(grep huge "$cl")"
"$TERN" report "$TW_DIR/job2" frontier >report2.txt 2>&1 || fail "tern report: $(tail -3 report2.txt)"
disc=$(sed -n 's/^ discovered: \([0-9]*\).*/\1/p' report2.txt)
[ "$disc" = 50001 ] || fail "discovered $disc URIs, want the seed and 50,000 entries"
pass "a sitemap of 50,001 URLs gives 50,000 and sitemapLimit"
tw_stop
rm -f "$log"

# 3. Continuous: /sitemap.xml on every server; <changefreq>never waits the
# max interval (30 s: one visit in the run), always the min (1 s).
tw_start --hosts 2 --pages 2 --change-periods 2,0 --sitemaps
start=$(date +%s)
crawl "$TW_DIR/job3" --set crawl.mode=continuous --set crawl.max-time-seconds=20 \
	--set revisit.initial-interval-seconds=8 --set revisit.min-interval-seconds=1 \
	--set revisit.max-interval-seconds=30 "$(tw_url 0 /)" "$(tw_url 1 /)"
log=$TW_DIR/requests.tsv
for h in h0.web.test h1.web.test; do
	n=$(awk -F'\t' -v h=$h '$3 == h && $4 == "/sitemap.xml"' "$log" | wc -l)
	[ "$n" -ge 1 ] || fail "$h: /sitemap.xml not fetched in a continuous crawl"
done
never=$(awk -F'\t' '$4 ~ /^\/v\/0\/(both|none)\/[01]\.html$/ { n[$3 $4]++ } END { for (k in n) if (n[k] > m) m = n[k]; print m + 0 }' "$log")
always=$(awk -F'\t' '$4 ~ /^\/v\/2\/(both|none)\/[01]\.html$/ { n[$3 $4]++ } END { m = 1e9; for (k in n) if (n[k] < m) m = n[k]; print m + 0 }' "$log")
[ "$never" -eq 1 ] || fail "a page listed with changefreq never was visited $never times in 20 s"
[ "$always" -ge 5 ] || fail "a page listed with changefreq always was visited only $always times in 20 s"
pass "continuous: /sitemap.xml guessed; changefreq never: 1 visit, always: at least $always visits in 20 s"
