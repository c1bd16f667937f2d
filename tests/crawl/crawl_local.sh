#!/bin/sh
# A site on this machine, crawled as a newcomer would: `tern crawl --local`
# with the seed given as an IP literal (127.0.0.1, no DNS at all) and as
# `localhost` (the hosts file, through c-ares), and no other setting. The
# test web is written as files and served by nginx on one loopback port.
# Every page of the site is fetched, nothing on the seed's host is refused,
# and a link to another private address (10.0.0.1, never connected to: it
# is refused before any connection) is logged -7 and counted.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
need_cmd nginx curl node
tw_dir
cd "$TW_DIR" || fail "no work directory"

# One host of 12 pages: page K always links to K+1, so every page is within
# crawl.max-hops (20) of the root and the crawl needs no setting but --local.
ngx_web "$TW_DIR/site" 1 12 2 6
web=$TW_DIR/site/web/$NGX_BASE
# An embed (in scope through crawl.max-trans-hops) on another private address.
sed -i 's|</body>|<img src="http://10.0.0.1/internal.png"></body>|' "$web/index.html"
grep -q 10.0.0.1 "$web/index.html" || fail "no link to 10.0.0.1 in the page"
ngx_start "$TW_DIR/site" plain

# crawl HOST NAME: a --local crawl of http://HOST:PORT/ into job NAME.
crawl() {
	"$TERN" crawl --local -j "$TW_DIR/$2" "http://$1:$NGX_BASE/" \
		>"$TW_DIR/$2.out" 2>&1 || fail "tern crawl $1 exited $?: $(cat "$TW_DIR/$2.out")"
	grep -q Sanitizer "$TW_DIR/$2.out" && fail "sanitizer report: $(cat "$TW_DIR/$2.out")"
	log=$TW_DIR/$2/logs/crawl.log
	[ -s "$log" ] || fail "$2: no crawl.log"
	# Every page the manifest allows, and nothing refused on the seed's host.
	awk '{ print $4 }' "$log" | grep "^http://$1:$NGX_BASE/" | sort -u >"$TW_DIR/$2.fetched"
	sed -n "s|^http://127\.0\.0\.1:$NGX_BASE\([^	]*\)	allowed.*|http://$1:$NGX_BASE\1|p" \
		"$TW_DIR/site/manifest.tsv" | sort -u >"$TW_DIR/$2.allowed"
	[ "$(wc -l <"$TW_DIR/$2.allowed")" -ge 12 ] || fail "manifest too small"
	missing=$(comm -23 "$TW_DIR/$2.allowed" "$TW_DIR/$2.fetched")
	[ -z "$missing" ] || fail "$2: pages not fetched: $(echo "$missing" | head -5)"
	refused=$(awk -v h="http://$1:$NGX_BASE/" '$2 == -7 && index($4, h) == 1' "$log")
	[ -z "$refused" ] || fail "$2: seed's host refused: $(echo "$refused" | head -3)"
	# The other private address: refused, annotated, never connected to.
	awk '$2 == -7 && $4 == "http://10.0.0.1/internal.png" && / err:private-address$/' "$log" | grep -q . ||
		fail "$2: link to 10.0.0.1 not refused -7: $(grep 10.0.0.1 "$log")"
	n=$(node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1]));
		console.log(j.failures_by_cause.private)' "$TW_DIR/$2/reports/stats.json") ||
		fail "$2: no private count in reports/stats.json"
	[ "$n" = 1 ] || fail "$2: $n private refusals counted, expected 1"
}

crawl 127.0.0.1 ip
pass "--local crawl of http://127.0.0.1:PORT/: every page, 10.0.0.1 refused and counted"

# The same site under the name localhost: links written with that name.
ngx_stop
find "$TW_DIR/site/web" -type f -name '*.html' -exec sed -i "s|127\.0\.0\.1:|localhost:|g" {} +
ngx_start "$TW_DIR/site" plain
crawl localhost name
grep -q '^[^ ]* *1 .*dns:localhost' "$TW_DIR/name/logs/crawl.log" ||
	fail "no dns:localhost line with status 1: $(grep dns: "$TW_DIR/name/logs/crawl.log")"
pass "--local crawl of http://localhost:PORT/: resolved from the hosts file, every page"
