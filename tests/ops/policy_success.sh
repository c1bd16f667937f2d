#!/bin/sh
# success-counts queue precedence end to end (seed 001, checklist 24 and
# 26): base 3 with increment counts "5,1000" keeps a queue at precedence 3
# for its first 5 successes, then drops it to 4, and a queue yields to a
# strictly better waiting one after every completion (tern re-evaluates
# after each, not only after zero-delay ones). With one connection, the
# first 5 x HOSTS page requests are therefore exactly 5 per host, in runs of
# 5, before any host gets its 6th.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

HOSTS=3
tw_start --hosts $HOSTS --pages 12 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set frontier.queue-precedence-policy=success-counts \
	--set frontier.success-increment-counts=5,1000 --set frontier.queue-base-precedence=3
policy_wait_exit
tw_stop

policy_pages | awk '{ print $1 }' >order.txt
head -n $((5 * HOSTS)) order.txt | uniq -c | awk '{ print $1 }' | sort -u >runs.txt
[ "$(cat runs.txt)" = 5 ] || fail "first $((5 * HOSTS)) requests not in runs of 5: $(uniq -c order.txt | head -8 | tr '\n' ' ')"
[ "$(head -n $((5 * HOSTS)) order.txt | sort -u | wc -l)" -eq $HOSTS ] || fail "not every host had its 5"
# Demoted, every queue sits at precedence 4 at the end.
awk '$1 == "EXHAUSTED" && $3 != 4 { print; bad++ } END { exit bad > 0 }' "$job/reports/queues.txt" ||
	fail "queue precedence after demotion: $(cat "$job/reports/queues.txt")"
pass "success-counts: $(uniq -c order.txt | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $1 }')"
