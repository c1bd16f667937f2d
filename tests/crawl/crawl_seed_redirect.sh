#!/bin/sh
# Seed redirects (tern(1), SEEDS; crawl.seed-redirects-new-seeds in
# tern.conf(5)), against nginx serving a site the way public sites are
# served: its bare name redirects to www. (web.test -> www.web.test), and
# http to https (tls.web.test:P -> https://tls.web.test:T). Names come from
# a hosts file (CARES_HOSTS), as on an operator's machine.
#   - `tern crawl --local http://web.test:P/` crawls every page of the www
#     site: the target became a seed (its SURT prefix in the scope, its host
#     exempt from the address guard as the loopback seed's was), said by a
#     seedRedirect annotation on the seed's crawl.log line, a tern.log line,
#     a line of JOBDIR/seeds.txt and the end summary;
#   - the same crawl interrupted once the www site's first page is in and
#     resumed still gets every page (the widened scope is in the job);
#   - crawl.seed-redirects-new-seeds=false: the landing page only;
#   - http -> https: every page of the https site, and robots.txt asked once
#     per scheme, host and port (the https one was asked twice: once after
#     the http robots.txt's redirect, once for the https pages);
#   - a chain (web.test/go -> tls.web.test:P -> tls.web.test:T) and a meta
#     refresh (www.web.test/mr.html -> tls.web.test:T) make seeds too.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
. "$top_srcdir/tests/seedsite_lib.sh"
seedsite_start
cd "$TW_DIR" || fail "no work directory"

# crawl NAME ARGS...: tern crawl --local into job NAME, which must exit 0.
crawl() {
	_n=$1
	shift
	"$TERN" crawl --local -j "$TW_DIR/$_n" "$@" >"$_n.out" 2>&1 ||
		fail "$_n: tern crawl exited $?: $(cat "$_n.out")"
	grep -q Sanitizer "$_n.out" && fail "$_n: sanitizer report: $(cat "$_n.out")"
	[ -s "$_n/logs/crawl.log" ] || fail "$_n: no crawl.log"
}
# missing NAME ORIGIN: the allowed URLs of the site under ORIGIN that job
# NAME did not fetch.
missing() {
	awk '$2 > 0 { print $4 }' "$1/logs/crawl.log" | sort -u >"$1.fetched"
	allowed "$2" | comm -23 - "$1.fetched"
}

www=http://www.web.test:$P
crawl on "http://web.test:$P/"
m=$(missing on "$www")
[ -z "$m" ] || fail "on: pages of the www site not fetched: $(echo "$m" | head -3); $(cat on/logs/crawl.log)"
grep -Eq "^[^ ]+ +301 +[0-9]+ http://web\.test:$P/ - - .* ([^ ]*,)?seedRedirect(,[^ ]*)?$" on/logs/crawl.log ||
	fail "on: no seedRedirect on the seed's line: $(grep "web\.test:$P/ " on/logs/crawl.log)"
grep -Eq "^[^ ]+ +200 +[0-9]+ $www/ R http://web\.test:$P/ " on/logs/crawl.log ||
	fail "on: the new seed's line: $(grep " $www/ " on/logs/crawl.log)"
grep -q "seed http://web\.test:$P/ redirects to $www/, made a seed (crawl\.seed-redirects-new-seeds)" \
	on/logs/tern.log || fail "on: tern.log: $(cat on/logs/tern.log)"
grep -qx "$www/ R http://web\.test:$P/" on/seeds.txt || fail "on: seeds.txt: $(cat on/seeds.txt)"
grep -q "^tern: 1 seed made by seeds' redirects" on.out || fail "on: summary: $(cat on.out)"
awk '$2 == -7' on/logs/crawl.log | grep . && fail "on: refused by the address guard"
pass "a seed's redirect to www.: a seed, every page crawled, said in crawl.log, tern.log, seeds.txt and the summary"

# Interrupted once the www site's root is fetched, then resumed.
"$TERN" crawl --local --set politeness.min-delay-ms=200 --set politeness.max-delay-ms=200 -j "$TW_DIR/res" "http://web.test:$P/" \
	>res.out 2>&1 &
pid=$!
_i=0
until grep -q " $www/ R " res/logs/crawl.log 2>/dev/null; do
	kill -0 $pid 2>/dev/null || fail "res: ended early: $(cat res.out)"
	[ $_i -lt 300 ] || fail "res: the www root never came"
	sleep 0.05
	_i=$((_i + 1))
done
kill -INT $pid
wait $pid || fail "res: interrupted crawl exited $?: $(cat res.out)"
[ -z "$(missing res "$www")" ] && fail "res: nothing was left for the resume"
"$TERN" resume "$TW_DIR/res" >>res.out 2>&1 || fail "res: resume exited $?: $(cat res.out)"
grep -q Sanitizer res.out && fail "res: sanitizer report: $(cat res.out)"
m=$(missing res "$www")
[ -z "$m" ] || fail "res: after the resume, pages not fetched: $(echo "$m" | head -3)"
grep -q "2 seeds from .*seeds.txt (1 made by seeds' redirects)" res.out || fail "res: $(cat res.out)"
pass "the seed a redirect made is kept by a resume: every page"

crawl off --set crawl.seed-redirects-new-seeds=false --set fetch.allow-private-addresses=true \
	"http://web.test:$P/"
grep -q " $www/ R " off/logs/crawl.log || fail "off: the landing page was not fetched"
grep -q " $www/p/" off/logs/crawl.log && fail "off: pages past the landing page were fetched"
grep -q seedRedirect off/logs/crawl.log && fail "off: seedRedirect"
grep -q "made a seed" off/logs/tern.log && fail "off: tern.log says a seed was made"
pass "crawl.seed-redirects-new-seeds=false: the landing page only"

tls=https://tls.web.test:$T
: >ngx/access.tsv
crawl tls --set fetch.ca-file="$TW_CA_FILE" "http://tls.web.test:$P/"
m=$(missing tls "$tls")
[ -z "$m" ] || fail "tls: pages not fetched: $(echo "$m" | head -3); $(cat tls.out)"
n=$(grep -c "^https	tls\.web\.test	$T	/robots\.txt	" ngx/access.tsv)
[ "$n" = 1 ] || fail "tls: the https robots.txt asked $n times: $(grep robots ngx/access.tsv)"
n=$(grep -c "^http	tls\.web\.test	$P	/robots\.txt	" ngx/access.tsv)
[ "$n" = 1 ] || fail "tls: the http robots.txt asked $n times: $(grep robots ngx/access.tsv)"
n=$(awk -v u="$tls/robots.txt" '$4 == u' tls/logs/crawl.log | wc -l)
[ "$n" = 1 ] || fail "tls: $n crawl.log lines for $tls/robots.txt: $(grep robots tls/logs/crawl.log)"
pass "http -> https: every page, robots.txt once per scheme, host and port"

crawl chain --set fetch.ca-file="$TW_CA_FILE" "http://web.test:$P/go"
m=$(missing chain "$tls")
[ -z "$m" ] || fail "chain: pages not fetched: $(echo "$m" | head -3); $(cat chain/logs/crawl.log)"
grep -Eq "^[^ ]+ +200 +[0-9]+ $tls/ RR http://tls\.web\.test:$P/ " chain/logs/crawl.log ||
	fail "chain: the second new seed's line: $(grep " $tls/ " chain/logs/crawl.log)"
n=$(grep -c "made a seed" chain/logs/tern.log)
[ "$n" = 2 ] || fail "chain: $n seeds made: $(cat chain/logs/tern.log)"
pass "a chain of two redirects: two seeds, every page of the https site"

crawl refresh --set fetch.ca-file="$TW_CA_FILE" "$www/mr.html"
m=$(missing refresh "$tls")
[ -z "$m" ] || fail "refresh: pages not fetched: $(echo "$m" | head -3); $(cat refresh/logs/crawl.log)"
grep -Eq "^[^ ]+ +200 +[0-9]+ $www/mr\.html - - .* ([^ ]*,)?seedRedirect(,[^ ]*)?$" \
	refresh/logs/crawl.log || fail "refresh: the seed's line: $(grep mr.html refresh/logs/crawl.log)"
pass "a seed's meta refresh out of scope: a seed, every page of its site"
