#!/bin/sh
# Seed redirects in cluster mode (doc/cluster.md, "Seeds, and the seeds
# their redirects make"): `tern crawl --workers 2 --local
# http://web.test:P/`, whose bare name redirects to www.web.test, crawls
# every page of the www site. Partitioned by queue, the two hosts may be
# held by different workers: the new seed reaches every node's scope
# through its seed record, and the owner of its partition takes it as a
# seed (its host exempt from the address guard, the redirecting seed being
# on loopback), so no page is refused -7 and none is out of scope.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
. "$top_srcdir/tests/seedsite_lib.sh"
need_cmd nats-server
seedsite_start
cd "$TW_DIR" || fail "no work directory"

"$TERN" crawl --workers 2 --local -j "$TW_DIR/w" --set cluster.partition-by=queue \
	--set cluster.partitions=8 --set cluster.lease-seconds=4 --set crawl.max-connections=8 \
	"http://web.test:$P/" >w.out 2>&1 || fail "tern crawl --workers exited $?: $(cat w.out)"
grep -q Sanitizer w/w0.out w/w1.out && fail "sanitizer report: $(grep -A5 Sanitizer w/w*.out | head -20)"
cat w/w0/logs/crawl.log w/w1/logs/crawl.log >all.log
awk '$2 > 0 { print $4 }' all.log | sort -u >fetched.txt
www=http://www.web.test:$P
m=$(allowed "$www" | comm -23 - fetched.txt)
[ -z "$m" ] || fail "pages of the www site not fetched: $(echo "$m" | head -3); $(cat all.log)"
grep -Eq "^[^ ]+ +301 +[0-9]+ http://web\.test:$P/ - - .* ([^ ]*,)?seedRedirect(,[^ ]*)?$" all.log ||
	fail "no seedRedirect on the seed's line: $(grep "web\.test:$P/ " all.log)"
awk '$2 == -7' all.log | grep . && fail "refused by the address guard"
grep -q "redirects to $www/, made a seed" w/w0/logs/tern.log w/w1/logs/tern.log ||
	fail "no tern.log line: $(cat w/w0/logs/tern.log w/w1/logs/tern.log)"
seed=$(grep -l " http://web\.test:$P/ - - " w/w*/logs/crawl.log | sed 's|/logs/crawl.log||' | head -1)
site=$(grep -l " $www/p/" w/w*/logs/crawl.log | sed 's|/logs/crawl.log||' | tr '\n' ' ')
pass "--workers 2: the www site crawled whole (the seed fetched by $seed, the site by $site)"
