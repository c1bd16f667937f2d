#!/bin/sh
# crawl.pause-at-finish end to end (seed 000): budgets retire every queue,
# the crawl is held at finish (EMPTY) instead of ending; the live report
# lists the retired queues; reconsider-retired that revives nothing leaves
# it at finish; raising the budget with `tern ctl JOBDIR set` revives the
# queues and the crawl goes on to the end of the web; held again, an
# unpause ends it (exit 0) with every page fetched exactly once.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq node

B=4
HOSTS=3
tw_start --hosts $HOSTS --pages 12 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set frontier.queue-total-budget=$B \
	--set crawl.pause-at-finish=true --set crawl.max-connections=2
policy_wait_sock "$job"
policy_wait_state "$job" EMPTY "\"retired\": $HOSTS"
[ "$(policy_pages | wc -l)" -eq $((B * HOSTS)) ] || fail "$(policy_pages | wc -l) pages before the pause"
"$TERN" report "$job" queues --state retired >retired.txt || fail "live report failed"
[ "$(grep -c '^RETIRED ' retired.txt)" -eq $HOSTS ] || fail "live retired queues: $(cat retired.txt)"
"$TERN" report "$job" frontier | head -1 | grep -q "^EMPTY - " || fail "frontier word: $("$TERN" report "$job" frontier | head -1)"
grep -q '^EMPTY - ' "$job/reports/frontier-summary.txt" || fail "no report written at the pause"

# Reconsidered, they are over budget still: retired again, still at finish.
"$TERN" ctl "$job" reconsider-retired >reconsider.json || fail "reconsider-retired failed"
grep -q "\"reconsidered\": $HOSTS" reconsider.json || fail "reconsider: $(cat reconsider.json)"
sleep 0.5
policy_wait_state "$job" EMPTY "\"retired\": $HOSTS"
[ "$(policy_pages | wc -l)" -eq $((B * HOSTS)) ] || fail "pages fetched by a reconsider that revived nothing"

# A bad value is refused and changes nothing.
"$TERN" ctl "$job" set frontier.queue-total-budget=lots 2>err.txt && fail "bad setting accepted"
grep -q "frontier.queue-total-budget" err.txt || fail "bad setting: $(cat err.txt)"
"$TERN" ctl "$job" set no.such-key=1 2>err.txt && fail "unknown key accepted"
grep -q "^tern: ctl: setting: no.such-key: unknown key" err.txt || fail "unknown key: $(cat err.txt)"
"$TERN" ctl "$job" set frontier.max-retrie=3 2>err.txt && fail "a typo'd key accepted"
grep -q "did you mean frontier.max-retries?" err.txt || fail "a typo'd key: $(cat err.txt)"
"$TERN" ctl "$job" set crawl.mode=continuous 2>err.txt && fail "crawl.mode changed mid-crawl"
grep -q "crawl.mode cannot change for a job" err.txt || fail "crawl.mode mid-crawl: $(cat err.txt)"

"$TERN" ctl "$job" set frontier.queue-total-budget=-1 >set.json || fail "set failed"
grep -q '"frontier.queue-total-budget": "now"' set.json || fail "set: $(cat set.json)"
grep -q '^queue-total-budget = -1$' "$job/tern.conf" || fail "tern.conf not rewritten"
policy_wait_state "$job" EMPTY '"retired": 0'
"$TERN" ctl "$job" unpause >/dev/null || fail "unpause failed"
policy_wait_exit 0
tw_stop

policy_pages >pages.txt
awk -F'\t' '$2 == "allowed"' "$TW_DIR/manifest.tsv" | wc -l >want.txt
[ "$(wc -l <pages.txt)" -eq "$(cat want.txt)" ] || fail "$(wc -l <pages.txt) page requests, $(cat want.txt) reachable"
[ "$(sort pages.txt | uniq -d | wc -l)" -eq 0 ] || fail "pages requested twice"
grep -q "state EMPTY -> RUNNING: settings changed at finish" "$job/logs/tern.log" || fail "tern.log: no revival"
grep -q "state RUNNING -> FINISHED" "$job/logs/tern.log" || fail "tern.log: $(cat "$job/logs/tern.log")"
[ ! -e "$job/control.sock" ] || fail "control socket left behind"
pass "held at finish with $HOSTS retired queues, budget raised, crawl finished"
