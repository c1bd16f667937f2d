#!/bin/sh
# GET /metrics scraped during a crawl: Prometheus text, counters that only
# grow, in-flight within crawl.max-connections, a checkpoint counted with
# its duration, and, once the crawl is paused (nothing in flight, every
# record written), page and failure counts equal to crawl.log's lines.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq
need_cmd node

tw_start --hosts 4 --pages 150 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set politeness.min-delay-ms=20 \
	--set crawl.max-connections=4
policy_wait_sock "$job"

# metric NAME FILE: the value of an unlabelled metric.
metric() {
	awk -v n="$1" '$1 == n { print $2 }' "$2"
}
"$TERN" ctl "$job" metrics >m1.txt || fail "metrics: $(cat m1.txt)"
grep -q '^# TYPE tern_pages_total counter$' m1.txt || fail "no TYPE line: $(head m1.txt)"
for name in tern_pages_total tern_in_flight tern_uris_queued tern_dns_cache_entries \
	tern_store_write_seconds_total tern_resident_memory_bytes tern_checkpoints_total; do
	[ -n "$(metric $name m1.txt)" ] || fail "metric $name missing"
done
grep -q '^tern_queues{state="ready"} ' m1.txt || fail "no queues by state"
[ "$(metric tern_in_flight m1.txt)" -le 4 ] || fail "in flight above max-connections"
[ "$(metric tern_dns_cache_entries m1.txt)" -ge 1 ] || fail "DNS cache empty while crawling"

"$TERN" ctl "$job" checkpoint >cp.txt 2>&1 || fail "checkpoint: $(cat cp.txt)"
sleep 0.5
"$TERN" ctl "$job" metrics >m2.txt || fail "metrics: $(cat m2.txt)"
[ "$(metric tern_checkpoints_total m2.txt)" -eq 1 ] || fail "checkpoint not counted"
awk '$1 == "tern_checkpoint_last_seconds" && $2 > 0 { ok = 1 } END { exit !ok }' m2.txt ||
	fail "checkpoint duration not reported"
p1=$(metric tern_pages_total m1.txt)
p2=$(metric tern_pages_total m2.txt)
[ "$p2" -ge "$p1" ] || fail "tern_pages_total went down: $p1 then $p2"

"$TERN" ctl "$job" pause >/dev/null || fail "pause"
policy_wait_state "$job" PAUSED
"$TERN" ctl "$job" metrics >m3.txt || fail "metrics: $(cat m3.txt)"
[ "$(metric tern_in_flight m3.txt)" -eq 0 ] || fail "in flight while PAUSED"
cl=$job/logs/crawl.log
pages=$(awk '$4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/ && $2 > 0' "$cl" | wc -l)
# A failure is a URI that failed for good: a negative status, or a 4xx
# or 5xx answer (a page captured too).
fails=$(awk '$4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/ && ($2 < 0 || $2 >= 400)' "$cl" | wc -l)
[ "$(metric tern_pages_total m3.txt)" -eq "$pages" ] ||
	fail "tern_pages_total $(metric tern_pages_total m3.txt), crawl.log has $pages pages"
[ "$(metric tern_failures_total m3.txt)" -eq "$fails" ] ||
	fail "tern_failures_total $(metric tern_failures_total m3.txt), crawl.log has $fails failures"
# Every failure is counted under one cause, and its line names that cause;
# 4xx and 5xx pages are the http cause.
awk '$1 ~ /^tern_failures_by_cause_total/ { n += $2 } END { print n + 0 }' m3.txt >bycause.txt
[ "$(cat bycause.txt)" -eq "$fails" ] || fail "failures by cause add up to $(cat bycause.txt), not $fails"
http=$(awk '$4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/ && $2 >= 400' "$cl" | wc -l)
grep -q "^tern_failures_by_cause_total{cause=\"http\"} $http\$" m3.txt ||
	fail "http failures not $http: $(grep by_cause m3.txt)"
[ "$(awk '$4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/ && $2 < 0 && $12 !~ /err:/' "$cl" | wc -l)" -eq 0 ] ||
	fail "failures without their cause in crawl.log"
"$TERN" ctl "$job" status >status.json || fail "status: $(cat status.json)"
node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1]));
	process.exit(j.failures_by_cause.http === Number(process.argv[2]) ? 0 : 1)' status.json "$http" ||
	fail "/status failures_by_cause.http is not $http: $(cat status.json)"
dns=$(awk '$4 ~ /^dns:/' "$cl" | wc -l)
[ "$(metric tern_dns_lookups_total m3.txt)" -eq "$dns" ] || fail "dns lookups differ from crawl.log"
"$TERN" ctl "$job" unpause >/dev/null || fail "unpause"
policy_wait_exit
pass "metrics agree with crawl.log ($pages pages when paused)"
