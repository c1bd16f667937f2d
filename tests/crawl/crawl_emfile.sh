#!/bin/sh
# A local EMFILE puts the fetch off, never the host's failure (status.md,
# "out of descriptors"). crawl_fdlimit.sh shows the reserve keeps EMFILE
# away; here tern is made to hit it: it starts with `ulimit -n 128` and 95
# descriptors it did not open and does not know of (inherited from the
# shell), so the 27 connections its reserve allows do not fit and connect()
# fails with EMFILE. 200 seeds on a numeric host (no DNS sockets), each a
# queue of its own (frontier.parallel-queues), each answer 300 ms late so
# that connections pile up (they answer 404: the test web knows no pages
# of a numeric host; one more seed answers 200, so that the crawl is not
# one whose every seed failed). The crawl must finish (exit 0) having put
# fetches off (tern.log), with every seed logged once with the server's
# answer, requested once and archived, and no failure logged. (Creating a
# WARC file can hit EMFILE too: the fetch is then put off as well.)
. "$top_srcdir/tests/lib.sh"
need_cmd bash timeout

tw_start --hosts 1 --pages 2 --script 127.0.0.1=slow:300
cd "$TW_DIR" || fail "no work directory"
i=0
while [ $i -lt 200 ]; do
	echo "http://127.0.0.1:$TW_PORT/s$i/x"
	i=$((i + 1))
done >seeds200.txt
ok="http://127.0.0.1:$TW_PORT/_mis/status?code=200"
{ cat seeds200.txt; echo "$ok"; } >seeds.txt
# bash, for descriptors numbered past 9 ({fd} redirections).
bash -c 'ulimit -n 128 || exit 3
	for i in $(seq 95); do exec {fd}</dev/null || exit 4; done
	exec "$@"' tern timeout 120 "$TERN" crawl -j job -s seeds.txt \
	--set fetch.allow-private-addresses=true --set crawl.max-connections=256 \
	--set frontier.parallel-queues=1000 --set politeness.min-delay-ms=0 \
	--set politeness.delay-factor=0 --set politeness.respect-crawl-delay-up-to-seconds=0 \
	>tern.out 2>&1
rc=$?
[ $rc -ne 3 ] && [ $rc -ne 4 ] || fail "could not set the limit or open descriptors ($rc)"
[ $rc -ne 124 ] || fail "the crawl was still running after 120 s: $(tail -3 job/logs/tern.log)"
[ $rc -eq 0 ] || fail "tern crawl exited $rc: $(tail -5 tern.out)"
grep -q Sanitizer tern.out && fail "sanitizer report: $(cat tern.out)"
tw_stop
put=$(sed -n 's/.* \([0-9]*\) fetches put off for want of a local resource.*/\1/p' job/logs/tern.log | tail -1)
[ -n "$put" ] || fail "no fetch put off: EMFILE never reached ($(grep -o 'lowered to [0-9]*' tern.out))"
n=$(awk '$2 < 0' job/logs/crawl.log | wc -l)
[ "$n" -eq 0 ] || fail "$n failures logged: $(awk '$2 < 0' job/logs/crawl.log | head -3)"
awk '$4 ~ /\/s[0-9]+\/x$/ && $2 == 404 { print $4 }' job/logs/crawl.log | sort >logged.txt
sort seeds200.txt >want.txt
[ -z "$(uniq -d logged.txt)" ] || fail "seeds logged twice: $(uniq -d logged.txt | head -3)"
cmp -s want.txt logged.txt || fail "crawl.log differs from the seeds: $(diff want.txt logged.txt | head -5)"
awk '$4 == u && $2 == 200' u="$ok" job/logs/crawl.log | grep -q . || fail "the 200 seed not logged"
awk -F'\t' -v p="$TW_PORT" '$4 != "/robots.txt" && $4 !~ /^\/_mis\// { print "http://127.0.0.1:" p $4 }' requests.tsv | sort >requested.txt
cmp -s want.txt requested.txt || fail "requests differ from the seeds: $(diff want.txt requested.txt | head -5)"
warc_captured_uris job/warcs/*.warc.gz | grep -v -e '/robots\.txt$' -e '/_mis/' >archived.txt
cmp -s want.txt archived.txt || fail "WARC captures differ from the seeds: $(diff want.txt archived.txt | head -5)"
pass "out of descriptors: $put+ fetches put off, all 200 seeds fetched once and archived, no failure logged"
