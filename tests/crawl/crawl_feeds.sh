#!/bin/sh
# Feeds in a crawl (doc/formats.md, "Feeds"): from a page whose only links
# are <link rel="alternate"> to an Atom feed, an RSS 2.0 feed and an RSS
# 1.0 feed served as text/xml (its root element says it is a feed), the
# feeds are fetched (hop L), then the pages their items name (L again),
# resolved against xml:base; enclosures and images are taken, a WebSub
# hub is not. A feed broken after its first item is feedError, and that
# item is still fetched.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 1 --pages 30 --links 2 --kb 1 --cross 0
dns_start
cd "$TW_DIR" || fail "no work directory"

"$TERN" crawl -j job --set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
	--set politeness.respect-crawl-delay-up-to-seconds=0 --set crawl.max-hops=2 \
	--set crawl.scope=domain "$(tw_url 0 /_mis/feeds.html)" >tern.out 2>&1 ||
	fail "tern crawl exited $?: $(tail -5 tern.out)"
cl=job/logs/crawl.log

# fetched URL HOPS VIA: URL is in crawl.log with status 200, that hops
# path and that via.
fetched() {
	awk -v u="$(tw_url 0 "$1")" -v h="$2" -v v="$(tw_url 0 "$3")" \
		'$4 == u && $2 == 200 && $5 == h && $6 == v { f = 1 } END { exit !f }' "$cl" ||
		fail "$1 not fetched with hops $2 from $3: $(grep -F "$1 " "$cl" || echo none)"
}
for f in feed.atom feed.rss feed.rdf; do
	fetched "/_mis/$f" L /_mis/feeds.html
done
fetched /p/11.html LL /_mis/feed.atom
fetched /p/12.html LL /_mis/feed.atom
fetched /p/13.html LL /_mis/feed.atom
fetched /i/6.png LL /_mis/feed.atom
fetched /i/5.png LE /_mis/feed.atom
fetched /p/14.html LL /_mis/feed.rss
fetched /p/15.html LL /_mis/feed.rss
fetched /p/16.html LL /_mis/feed.rss
fetched /i/8.png LL /_mis/feed.rss
fetched /i/7.png LE /_mis/feed.rss
fetched /p/17.html LL /_mis/feed.rdf
grep -q "/_mis/hub " "$cl" && fail "the WebSub hub was followed"
fetched /p/18.html LL /_mis/feed-bad.rss
awk '$4 ~ /\/p\/19\.html$/ && $6 ~ /feed-bad/ { f = 1 } END { exit !f }' "$cl" &&
	fail "a link inside the broken element was taken"
awk -v u="$(tw_url 0 /_mis/feed-bad.rss)" '$4 == u && $12 == "feedError" { f = 1 } END { exit !f }' "$cl" ||
	fail "the broken feed is not feedError: $(grep feed-bad "$cl")"
awk '$12 ~ /feed/ && $4 !~ /feed-bad/ { print; f = 1 } END { exit f }' "$cl" >bad.txt ||
	fail "feed annotations: $(cat bad.txt)"
pass "feeds from <link rel=alternate>: Atom, RSS 2.0 and RSS 1.0 (text/xml) items, enclosures and images fetched; a broken feed is feedError"
