#!/bin/sh
# extract.extract-independently, Heritrix's meaning over tern's extractors
# (HTML, then CSS, in Heritrix's chain order): false, an extractor that ran
# finishes the response and later ones skip it; true, every extractor that
# applies runs. The CSS extractor applies as Heritrix's does: a Content-Type
# naming css, or a URI ending in ".css". Judged from the outlinks of the
# WARC metadata records:
#   /_mis/mixed.css  text/html at a .css URL: an <a href> and a CSS url()
#   /_mis/plain.css  a text/plain stylesheet
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 1 --pages 3 --links 2 --kb 1 --cross 0
dns_start
cd "$TW_DIR" || fail "no work directory"

# outlinks JOB URL: the outlinks of URL's metadata record.
outlinks() {
	for _w in "$1"/warcs/*.warc.gz; do
		gzip -dc "$_w"
	done | tr -d '\r' | awk -v u="$2" '
		/^WARC\/1\.[01]$/ { inhead = 1; type = ""; target = ""; next }
		inhead && /^WARC-Type:/ { type = $2 }
		inhead && /^WARC-Target-URI:/ { target = $2 }
		inhead && /^$/ { inhead = 0; take = type == "metadata" && target == u; next }
		take && /^outlink: / { print $2 }'
}
crawl() {
	"$TERN" crawl -j "$1" --set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
		--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 --set crawl.max-hops=0 \
		--set extract.extract-independently="$2" \
		"$(tw_url 0 /_mis/mixed.css)" "$(tw_url 0 /_mis/plain.css)" >>tern.out 2>&1 ||
		fail "tern crawl exited $?: $(tail -5 tern.out)"
}
mixed=$(tw_url 0 /_mis/mixed.css)
plain=$(tw_url 0 /_mis/plain.css)

crawl dependent false
outlinks dependent "$mixed" >a.txt
grep -qx "$(tw_url 0 /p/1.html)" a.txt || fail "false: the HTML extractor did not run on text/html: $(cat a.txt)"
! grep -q '/i/1\.png$' a.txt || fail "false: the CSS extractor ran after the HTML one had finished: $(cat a.txt)"
outlinks dependent "$plain" >b.txt
grep -qx "$(tw_url 0 /i/2.png)" b.txt && grep -qx "$(tw_url 0 /s.css)" b.txt ||
	fail "a text/plain stylesheet at a .css URL was not read as CSS: $(cat b.txt)"

crawl independent true
outlinks independent "$mixed" >c.txt
grep -qx "$(tw_url 0 /p/1.html)" c.txt && grep -qx "$(tw_url 0 /i/1.png)" c.txt ||
	fail "true: not every applicable extractor ran: $(cat c.txt)"
outlinks independent "$plain" >d.txt
cmp -s b.txt d.txt || fail "true: the plain stylesheet's links changed: $(cat d.txt)"
pass "extract-independently false: the first extractor finishes the response; true: HTML and CSS both run"
