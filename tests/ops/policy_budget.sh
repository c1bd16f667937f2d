#!/bin/sh
# Retirement at queue-total-budget end to end (seed 000, checklist 14-15):
# with unit cost and budget B each host gets exactly B page requests; its
# queue is retired keeping its URIs; the crawl still ends (retired queues
# do not keep it running), and the end report and the offline queue report
# list the retired queues with their counts.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

B=5
HOSTS=3
tw_start --hosts $HOSTS --pages 15 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set frontier.queue-total-budget=$B \
	--set crawl.max-connections=2
policy_wait_exit
tw_stop

policy_pages | awk '{ n[$1]++ } END { for (h in n) print h, n[h] }' | sort >perhost.txt
[ "$(wc -l <perhost.txt)" -eq $HOSTS ] || fail "hosts requested: $(cat perhost.txt)"
awk -v b=$B '$2 != b { print; bad++ } END { exit bad > 0 }' perhost.txt ||
	fail "not exactly $B page requests per host: $(cat perhost.txt)"

q=$job/reports/queues.txt
[ "$(grep -c '^RETIRED ' "$q")" -eq $HOSTS ] || fail "retired queues in the end report: $(cat "$q")"
awk '$1 == "RETIRED" && $4 == 0 { print; bad++ } END { exit bad > 0 }' "$q" ||
	fail "a retired queue lost its URIs: $(cat "$q")"
grep -q "; $HOSTS retired;" "$job/reports/frontier-summary.txt" ||
	fail "summary: $(head -1 "$job/reports/frontier-summary.txt")"
grep -q "retired queues hold" "$job.out" || fail "end of crawl says nothing of retired queues: $(cat "$job.out")"
grep -q '^FINISH - ' "$job/reports/frontier-summary.txt" || fail "summary word: $(head -1 "$job/reports/frontier-summary.txt")"

# Offline reports from the store.
"$TERN" report "$job" queues --state retired >retired.txt || fail "tern report queues failed"
[ "$(grep -vc '^#' retired.txt)" -eq $HOSTS ] || fail "offline retired queues: $(cat retired.txt)"
head -1 retired.txt | grep -q '^# state queue precedence size ' || fail "no column header: $(head -1 retired.txt)"
"$TERN" report "$job" queues --json --state RETIRED >retired.json || fail "tern report --json failed"
node -e 'const a = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
	if (!Array.isArray(a) || a.length !== Number(process.argv[2]) || a.some(q => q.state !== "RETIRED" || q.size < 1 || q.spend < q.budget))
		process.exit(1);' retired.json $HOSTS || fail "offline JSON: $(cat retired.json)"
"$TERN" report "$job" frontier | head -1 | grep -q "^FINISH - $HOSTS URI queues: .* $HOSTS retired" ||
	fail "offline frontier: $("$TERN" report "$job" frontier | head -1)"
"$TERN" report "$job" queues --state nonsense >/dev/null 2>err.txt && fail "unknown state accepted"
grep -q "unknown queue state" err.txt || fail "unknown state: $(cat err.txt)"
pass "$HOSTS queues retired after $B pages each; reported live and offline"
