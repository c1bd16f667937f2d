#!/bin/sh
# Crash recovery of a continuous crawl: tern is killed with SIGKILL at
# random moments (REVISIT_KILLS times, default 8) and continued each time
# with `tern resume JOBDIR`; the last run is stopped with tern ctl after
# FINAL_SECONDS. No URI drops out of the revisit cycle:
#   - after the last kill every URI discovered before it is visited again
#     (the intervals are at most 4 s), judged from the server's request log;
#   - the store holds each of them exactly once, queued or waiting for its
#     revisit (tern report's frontier summary);
#   - every unchanging page with validators answers 304 after the last
#     resume: its fetch history survived.
# REVISIT_KILL_SEED makes the kill times reproducible.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

KILLS=${REVISIT_KILLS:-8}
FINAL=${FINAL_SECONDS:-14}
SEED=${REVISIT_KILL_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
TW_NO_MANIFEST=1
tw_start --hosts 2 --pages 3 --change-periods 2,0
dns_start
cd "$TW_DIR" || fail "no work directory"
printf '%s\n%s\n' "$(tw_url 0 /v/)" "$(tw_url 1 /v/)" >seeds
job=$TW_DIR/job
log=$TW_DIR/requests.tsv
echo "kill seed $SEED"
awk -v s="$SEED" -v n="$KILLS" 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.3f\n", 1 + rand() * 2 }' >delays.txt

: >tern.out
runs=0
kills=0
last_kill=0
while [ $kills -lt "$KILLS" ]; do
	runs=$((runs + 1))
	if [ $runs -eq 1 ]; then
		"$TERN" crawl -j "$job" -s seeds \
			--set crawl.mode=continuous \
			--set revisit.initial-interval-seconds=2 \
			--set revisit.min-interval-seconds=1 \
			--set revisit.max-interval-seconds=4 \
			--set dns.servers="$DNS_SERVER" \
			--set fetch.allow-private-addresses=true \
			--set politeness.min-delay-ms=100 \
			--set politeness.delay-factor=0 \
			--set politeness.respect-crawl-delay-up-to-seconds=0 \
			--set crawl.max-connections=4 >>tern.out 2>&1 &
	else
		"$TERN" resume "$job" >>tern.out 2>&1 &
	fi
	pid=$!
	if [ $runs -eq 1 ]; then
		_i=0
		while [ ! -s "$log" ] && kill -0 $pid 2>/dev/null && [ $_i -lt 300 ]; do
			sleep 0.05
			_i=$((_i + 1))
		done
	fi
	sleep "$(sed -n "$((kills + 1))p" delays.txt)"
	kill -KILL $pid 2>/dev/null && last_kill=$(date +%s%3N)
	wait $pid
	rc=$?
	[ $rc -eq 137 ] || fail "run $runs ended by itself with $rc (seed $SEED): $(tail -5 tern.out)"
	kills=$((kills + 1))
done

# The last run: resumed, left alone, then stopped cleanly.
"$TERN" resume "$job" >>tern.out 2>&1 &
pid=$!
resumed=$(date +%s%3N)
sleep "$FINAL"
"$TERN" ctl "$job" stop >>tern.out 2>&1 || fail "tern ctl stop: $(tail -3 tern.out)"
wait $pid || fail "the last run exited $? (seed $SEED): $(tail -5 tern.out)"
grep -q "Sanitizer" tern.out && fail "sanitizer report: $(grep -A20 Sanitizer tern.out | head -40)"
tw_stop

# Every URL requested before the last kill was requested again after the
# last resume.
awk -F'\t' -v k="$last_kill" '$4 != "/robots.txt" && $1 < k { print $3 $4 }' "$log" | sort -u >before.txt
awk -F'\t' -v r="$resumed" '$4 != "/robots.txt" && $1 > r { print $3 $4 }' "$log" | sort -u >after.txt
[ "$(wc -l <before.txt)" -ge 20 ] || fail "only $(wc -l <before.txt) URLs visited before the last kill"
lost=$(comm -23 before.txt after.txt | wc -l)
[ "$lost" -eq 0 ] || fail "$lost URIs dropped out of the cycle after $KILLS kills (seed $SEED): $(comm -23 before.txt after.txt | head -5)"
pass "after $KILLS kills every one of $(wc -l <before.txt) URIs was visited again"

# The store holds each URI once: queued (in flight at the stop included)
# or waiting for its revisit.
"$TERN" report "$job" frontier >report.txt 2>&1 || fail "tern report: $(tail -3 report.txt)"
queued=$(sed -n 's/^ queued URIs: \([0-9]*\).*/\1/p' report.txt)
waiting=$(sed -n 's/^ waiting for a revisit: \([0-9]*\).*/\1/p' report.txt)
total=$(sort -u before.txt after.txt | wc -l)
[ $((queued + ${waiting:-0})) -eq "$total" ] ||
	fail "the store holds $queued queued + ${waiting:-0} waiting URIs for $total distinct URIs: $(cat report.txt | head -12)"
pass "the store holds the $total URIs once each ($queued queued, $waiting waiting)"

# Histories survive the kills: every unchanging page that gives validators
# answers 304 to a revisit after the last resume (a page whose capture the
# kill cut short is fetched in full once, then revisited with validators).
n=$(awk -F'\t' -v r="$resumed" '$1 > r && $4 ~ /^\/v\/0\/(both|etag|lastmod)\// && $5 == 304 && $8 != "-" { print $3 $4 }' "$log" |
	sort -u | wc -l)
[ "$n" -eq 12 ] || fail "only $n of the 12 unchanging pages with validators got a 304 after the last resume"
pass "fetch histories survive the kills: all 12 unchanging pages answered 304 after the resume"
