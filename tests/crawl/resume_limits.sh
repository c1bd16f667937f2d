#!/bin/sh
# crawl.max-pages is a limit of the job, not of one process, and the job's
# counts survive every kind of interruption (tern(1), RESUMING): a crawl of
# 20 hosts x 50 pages with crawl.max-pages=300 is interrupted three times
# (SIGINT, kill -9, SIGINT), each after some 60 more requests, and resumed
# until it ends. Then:
#   - it fetched 300 pages, and at most crawl.max-connections more;
#   - the status line (the last run is on a terminal), the end summary,
#     reports/stats.json, `tern report JOBDIR frontier` (succeeded URIs) and
#     the last progress.log line give the same count;
#   - a resume of the ended job says there is nothing to resume, exits 0 and
#     leaves reports/stats.json byte for byte as it was.
# A second job, crawl.max-time-seconds=4 and interrupted once after 2 s,
# ends within a few seconds of 4 s of crawl time in all.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq node script

CONNS=8
MAX=300
tw_start --hosts 20 --pages 50 --links 6 --kb 2 --latency-ms 20-60
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
log=$TW_DIR/requests.tsv
: >"$log"

# jget FILE KEY...: a value of a JSON file, by its path of keys.
jget() {
	node -e 'let v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		for (const k of process.argv.slice(2)) v = v[k];
		console.log(v);' "$@"
}

requests() {
	wc -l <"$log"
}

# interrupt SIGNAL EXPECTED_RC CMD...: runs tern until the test web has
# answered 60 more requests, then sends SIGNAL and waits for its exit.
interrupt() {
	_sig=$1
	_want=$2
	shift 2
	_from=$(requests)
	"$TERN" "$@" >>tern.out 2>&1 &
	_pid=$!
	_i=0
	while [ "$(requests)" -lt $((_from + 60)) ]; do
		kill -0 $_pid 2>/dev/null || fail "tern $1 ended before it was interrupted: $(tail -5 tern.out)"
		[ $_i -lt 600 ] || fail "tern $1 made no progress"
		sleep 0.05
		_i=$((_i + 1))
	done
	kill -"$_sig" $_pid
	wait $_pid
	_rc=$?
	[ $_rc -eq "$_want" ] || fail "tern $1 exited $_rc after SIG$_sig, wanted $_want: $(tail -5 tern.out)"
}

interrupt INT 0 crawl -j "$job" -s "$TW_DIR/seeds.txt" \
	--set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=200 \
	--set politeness.delay-factor=0 \
	--set politeness.respect-crawl-delay-up-to-seconds=0 \
	--set crawl.max-hops=500 \
	--set crawl.max-pages=$MAX \
	--set crawl.max-connections=$CONNS
"$TERN" report "$job" frontier | head -1 | grep -q '^HOLD - ' ||
	fail "an interrupted job's frontier report: $("$TERN" report "$job" frontier | head -1)"
interrupt KILL 137 resume "$job"
# After the kill, stats.json is the first run's; the offline stats report
# has the job's counts from its store, as the frontier report does.
"$TERN" report "$job" stats --json >killed-stats.json || fail "tern report stats after the kill failed"
"$TERN" report "$job" frontier --json >killed-frontier.json || fail "tern report frontier after the kill failed"
[ "$(jget killed-stats.json pages)" = "$(jget killed-frontier.json uris succeeded)" ] ||
	fail "after the kill: stats $(jget killed-stats.json pages) pages, frontier $(jget killed-frontier.json uris succeeded)"
[ "$(jget killed-stats.json pages)" -gt "$(jget "$job/reports/stats.json" pages)" ] ||
	fail "the offline stats report did not count the killed run"
interrupt INT 0 resume "$job"
# The last run on a terminal (script(1)), for its status line.
script -qefc "stty cols 100; exec \"$TERN\" resume \"$job\"" last.tty >/dev/null 2>&1 </dev/null ||
	fail "the last resume exited $?: $(tail -c 500 last.tty)"
tr '\r' '\n' <last.tty | sed 's/\x1b\[K//g' | grep -v -e '^$' -e '^Script ' >last.out
cat last.out >>tern.out
grep -q "Sanitizer" tern.out && fail "sanitizer report: $(cat tern.out)"
grep -q "max-pages reached" last.out || fail "the last run did not stop at max-pages: $(cat last.out)"

summary=$(sed -n 's/^tern: crawl .* in [0-9.]* s: \([0-9]*\) pages.*/\1/p' last.out)
stats=$(jget "$job/reports/stats.json" pages)
"$TERN" report "$job" frontier --json >frontier.json || fail "tern report frontier failed"
succeeded=$(jget frontier.json uris succeeded)
progress=$(tail -1 "$job/logs/progress.log" | awk '{ print $4 }')
status=$(grep -v '^tern: ' last.out | grep ' pages, ' | tail -1 | awk '{ print $1 }')
echo "pages: summary $summary, stats.json $stats, frontier $succeeded, progress.log $progress, status line $status"
[ -n "$summary" ] || fail "no count in the summary: $(cat last.out)"
[ "$summary" -ge $MAX ] && [ "$summary" -le $((MAX + CONNS)) ] ||
	fail "$summary pages for crawl.max-pages=$MAX and $CONNS connections"
[ "$stats" = "$summary" ] && [ "$succeeded" = "$summary" ] && [ "$progress" = "$summary" ] &&
	[ "$status" = "$summary" ] ||
	fail "the counts disagree"
# Failures by cause are the job's too: HTTP errors over every run are the
# 4xx and 5xx answers over every run.
http=$(jget "$job/reports/stats.json" failures_by_cause http)
errs=$(($(jget "$job/reports/stats.json" statuses 4xx) + $(jget "$job/reports/stats.json" statuses 5xx)))
[ "$http" = "$errs" ] || fail "failures_by_cause.http $http, 4xx+5xx $errs"
fetched=$(awk -F'\t' '$4 != "/robots.txt"' "$log" | wc -l)
[ "$fetched" -ge "$summary" ] || fail "the test web served $fetched pages, tern counts $summary"

# The ended job's reports, offline: its frontier is FINISHed, not held; the
# queues report has its column header and human times.
"$TERN" report "$job" frontier | head -1 | grep -q '^FINISH - ' ||
	fail "the ended job's frontier report: $("$TERN" report "$job" frontier | head -1)"
"$TERN" report "$job" queues >queues.txt || fail "tern report queues failed"
head -1 queues.txt | grep -q '^# state queue precedence size enqueues session-balance last-cost(average) last-dequeue wake-in spend/budget errors last-peeked last-queued$' ||
	fail "the queues report's header: $(head -1 queues.txt)"
awk 'NR > 1 && $8 !~ /^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z$/ { print; bad++ }
	NR > 1 && $9 !~ /^(-|[0-9]+(ms|s|m[0-9][0-9]s|h[0-9][0-9]m|d[0-9][0-9]h))$/ { print; bad++ }
	END { exit bad > 0 }' queues.txt >badq.txt || fail "queue lines without human times: $(head -3 badq.txt)"
[ "$(grep -vc '^#' queues.txt)" -eq 20 ] || fail "not 20 queues: $(cat queues.txt)"

cp "$job/reports/stats.json" stats.before
"$TERN" resume "$job" >again.out 2>&1 || fail "resuming the ended job exited $?: $(cat again.out)"
grep -q "nothing to resume" again.out || fail "the resume did not say the job is over: $(cat again.out)"
cmp -s stats.before "$job/reports/stats.json" || fail "the resume rewrote reports/stats.json"
pass "$summary pages over 4 runs (SIGINT, kill -9, SIGINT), counts agree ($http HTTP errors by cause), the ended job left alone"

# crawl.max-time-seconds over two runs: 2 s, SIGINT, then the rest.
tjob=$TW_DIR/tjob
"$TERN" crawl -j "$tjob" -s "$TW_DIR/seeds.txt" \
	--set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=500 \
	--set politeness.delay-factor=0 \
	--set crawl.max-hops=500 \
	--set crawl.max-time-seconds=4 \
	--set crawl.max-connections=$CONNS >t1.out 2>&1 &
pid=$!
sleep 2
kill -INT $pid
wait $pid || fail "the timed crawl exited $? after SIGINT: $(tail -5 t1.out)"
first=$(jget "$tjob/reports/stats.json" seconds)
"$TERN" resume "$tjob" >t2.out 2>&1 || fail "the timed resume exited $?: $(tail -5 t2.out)"
grep -q "max-time-seconds reached" t2.out || fail "the resume did not stop at max-time-seconds: $(cat t2.out)"
run=$(sed -n 's/^tern: the job.s totals over every run; this run: [0-9]* pages in \([0-9.]*\) s$/\1/p' t2.out)
secs=$(jget "$tjob/reports/stats.json" seconds)
echo "timed job: first run $first s, resumed run $run s, job $secs s"
[ -n "$run" ] || fail "the resumed run did not give its own time: $(cat t2.out)"
# The job's time is both runs' (the second ends within a cron tick and the
# in-flight grace of the limit), and the second ran only for what was left.
awk -v f="$first" -v r="$run" -v s="$secs" 'BEGIN { d = s - f - r; exit !(s >= 4 && s < 7 && d > -1 && d < 1 && r < 4) }' ||
	fail "the job crawled $secs s ($first + $run) for a limit of 4"
"$TERN" resume "$tjob" >t3.out 2>&1 || fail "resuming the timed-out job exited $?"
grep -q "nothing to resume" t3.out || fail "the timed-out job resumed: $(cat t3.out)"
pass "crawl.max-time-seconds=4 held across a SIGINT and a resume ($secs s in all)"
