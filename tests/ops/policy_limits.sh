#!/bin/sh
# The crawl's limits and its progress.log (tern.conf(5), [crawl]; doc/formats.md):
#   1. max-pages with pause-at-finish: held PAUSED at the limit with it as
#      the reason; the limit raised with `tern ctl set` and an unpause, the
#      crawl goes on and is held again at the new limit; unpaused there, it
#      ends (exit 0).
#   2. max-bytes with pause-at-finish: held at the byte budget, the fetch
#      that crossed it the last one; held there, progress.log gets its
#      periodic line (every 20 s) with the documented fields; unpaused with
#      the limit still reached, it ends at once and fetches nothing more.
#   3. reconsider-retired revives queues: a job whose queues were retired by
#      queue-total-budget is resumed with the budget lifted in tern.conf;
#      the kept retired queues hold it at finish until reconsider-retired,
#      which sends the crawl on to the end of the web, every page once.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

HOSTS=3
tw_start --hosts $HOSTS --pages 12 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
# pages_in JOB: pages fetched (crawl.log lines of pages answered, robots.txt
# and DNS aside).
pages_in() {
	awk '$2 > 0 && $4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/' "$1/logs/crawl.log" | wc -l
}
status_json() {
	"$TERN" ctl "$1" status 2>/dev/null
}

# 1. max-pages.
job=$TW_DIR/pages
policy_crawl "$job" -s seeds.txt --set crawl.max-pages=5 --set crawl.pause-at-finish=true
policy_wait_sock "$job"
policy_wait_state "$job" PAUSED
status_json "$job" | grep -q 'max-pages reached' || fail "paused, but not for max-pages: $(status_json "$job")"
[ "$(pages_in "$job")" -eq 5 ] || fail "$(pages_in "$job") pages at max-pages 5"
sleep 0.5
[ "$(pages_in "$job")" -eq 5 ] || fail "pages fetched while held at max-pages"
"$TERN" ctl "$job" set crawl.max-pages=9 >/dev/null || fail "raising max-pages refused"
"$TERN" ctl "$job" unpause >/dev/null || fail "unpause failed"
policy_wait_state "$job" PAUSED '"pages": 9,'
[ "$(pages_in "$job")" -eq 9 ] || fail "$(pages_in "$job") pages at max-pages 9"
"$TERN" ctl "$job" unpause >/dev/null || fail "unpause failed"
policy_wait_exit 0
[ "$(pages_in "$job")" -eq 9 ] || fail "$(pages_in "$job") pages after the last unpause at max-pages 9"
[ "$(grep -c 'state RUNNING -> PAUSED: max-pages reached' "$job/logs/tern.log")" -eq 2 ] ||
	fail "tern.log: $(cut -c26- "$job/logs/tern.log")"
grep -q 'state PAUSED -> STOPPING: max-pages reached' "$job/logs/tern.log" || fail "tern.log: $(cut -c26- "$job/logs/tern.log")"
pass "max-pages: held at 5 pages, raised to 9 and unpaused, held at 9, unpaused, ended"

# 2. max-bytes.
MAXB=8000
job=$TW_DIR/bytes
policy_crawl "$job" -s seeds.txt --set crawl.max-bytes=$MAXB --set crawl.pause-at-finish=true
policy_wait_sock "$job"
policy_wait_state "$job" PAUSED
status_json "$job" | grep -q 'max-bytes reached' || fail "paused, but not for max-bytes: $(status_json "$job")"
# With one connection crawl.log is in fetch order: the budget is crossed by
# the last fetch, not before it. Bytes and pages count as progress.log and
# the status do: robots.txt and DNS lookups aside.
awk -v m=$MAXB '$2 > 0 && $4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/ { last = $3; sum += $3 }
	END { printf "%d %d\n", sum, last; exit !(sum >= m && sum - last < m) }' "$job/logs/crawl.log" >bytes.txt ||
	fail "bytes fetched (total, last) $(cat bytes.txt) against max-bytes $MAXB"
held=$(pages_in "$job")
total=$(cut -d' ' -f1 bytes.txt)
[ "$held" -lt $((HOSTS * 12)) ] || fail "the whole web fetched under max-bytes $MAXB"
status_json "$job" | grep -q "\"bytes\": $total," || fail "status bytes, want $total: $(status_json "$job" | grep bytes)"
pass "max-bytes $MAXB: held after $total bytes, $held pages"

# progress.log: its header names the fields; a line every 20 s while the
# crawl runs (held here), the first 20 s after the start, and a last one at
# the end.
p=$job/logs/progress.log
i=0
until [ "$(grep -vc '^#' "$p")" -ge 1 ]; do
	[ $i -lt 300 ] || fail "no progress.log line in 30 s: $(cat "$p")"
	sleep 0.1
	i=$((i + 1))
done
head -1 "$p" | grep -q '^# timestamp discovered queued downloaded pages/s(avg) KB/s(avg) failures in-flight ready snoozed inactive retired rss-KB bytes$' ||
	fail "progress.log header: $(head -1 "$p")"
{ head -1 "$job/logs/tern.log"; grep -v '^#' "$p"; } | awk '{ split($1, a, /[T:Z]/); t = a[2] * 3600 + a[3] * 60 + a[4] }
	NR == 2 { gap = t - prev; if (gap < 0) gap += 86400; printf "%.1f", gap; exit !(gap >= 18 && gap < 30) }
	{ prev = t }' >gap.txt || fail "the first progress.log line $(cat gap.txt) s after the start, want 20: $(cat "$p")"
check_progress() {
	tail -1 "$p" | awk -v pages="$1" -v bytes="$2" '
		NF != 14 { print "fields: " NF; exit 1 }
		$1 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9]Z$/ { print "timestamp " $1; exit 1 }
		{ for (i = 2; i <= 14; i++) if ($i !~ /^[0-9]+(\.[0-9]+)?$/) { print "field " i ": " $i; exit 1 } }
		$4 != pages { print "downloaded " $4 ", want " pages; exit 1 }
		$14 != bytes { print "bytes " $14 ", want " bytes; exit 1 }
		$2 < $4 { print "discovered " $2 " under downloaded " $4; exit 1 }
		$13 < 1024 { print "rss-KB " $13; exit 1 }'
}
check_progress "$held" "$total" >why.txt || fail "periodic progress.log line: $(cat why.txt): $(tail -1 "$p")"
pass "progress.log: a line $(cat gap.txt) s after the start with the 14 documented fields"

"$TERN" ctl "$job" unpause >/dev/null || fail "unpause failed"
policy_wait_exit 0
[ "$(pages_in "$job")" -eq "$held" ] || fail "$(pages_in "$job") pages after unpausing at max-bytes, $held before"
grep -q 'state PAUSED -> STOPPING: max-bytes reached' "$job/logs/tern.log" || fail "tern.log: $(tail -3 "$job/logs/tern.log")"
[ "$(grep -vc '^#' "$p")" -ge 2 ] || fail "no last progress.log line at the end: $(cat "$p")"
check_progress "$held" "$total" >why.txt || fail "last progress.log line: $(cat why.txt): $(tail -1 "$p")"
pass "unpaused at max-bytes: ended at once, progress.log's last line agrees with crawl.log"

# 3. reconsider-retired.
B=4
job=$TW_DIR/retired
policy_crawl "$job" -s seeds.txt --set frontier.queue-total-budget=$B --set crawl.pause-at-finish=true
policy_wait_sock "$job"
policy_wait_state "$job" EMPTY "\"retired\": $HOSTS"
"$TERN" ctl "$job" stop >/dev/null || fail "stop failed"
policy_wait_exit 0
[ "$(pages_in "$job")" -eq $((B * HOSTS)) ] || fail "$(pages_in "$job") pages at a budget of $B"
grep -q "^queue-total-budget = $B\$" "$job/tern.conf" || fail "tern.conf: no budget"
sed -i "s/^queue-total-budget = $B\$/queue-total-budget = -1/" "$job/tern.conf"
"$TERN" resume "$job" >"$job.out" 2>&1 &
CRAWL_PID=$!
track_pid $CRAWL_PID
policy_wait_sock "$job"
policy_wait_state "$job" EMPTY "\"retired\": $HOSTS"
[ "$(pages_in "$job")" -eq $((B * HOSTS)) ] || fail "pages fetched before reconsider-retired"
"$TERN" ctl "$job" reconsider-retired >reconsider.json || fail "reconsider-retired failed"
grep -q "\"reconsidered\": $HOSTS" reconsider.json || fail "reconsider: $(cat reconsider.json)"
policy_wait_state "$job" EMPTY '"retired": 0'
"$TERN" ctl "$job" unpause >/dev/null || fail "unpause failed"
policy_wait_exit 0
tw_stop
awk -F'\t' '$2 == "allowed" { print $1 }' manifest.tsv | sort >allowed.txt
awk '$2 > 0 && $4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/ { print $4 }' "$job/logs/crawl.log" | sort >logged.txt
[ -z "$(uniq -d logged.txt)" ] || fail "pages fetched twice: $(uniq -d logged.txt | head -3)"
cmp -s allowed.txt logged.txt || fail "crawl.log differs from the manifest: $(diff allowed.txt logged.txt | head -5)"
grep -q "reconsider-retired: $HOSTS queues back to inactive" "$job/logs/tern.log" || fail "tern.log: no reconsider"
pass "reconsider-retired revived $HOSTS retired queues kept across a resume; every page fetched"
