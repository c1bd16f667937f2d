#!/bin/sh
# IP queue assignment with relocation (checklist item 55). dnsmasq answers
# 127.0.0.1 for every test-web host, so with frontier.queue-assignment = ip
# the three hosts share one queue, 127.0.0.1#PORT: the seeds, queued under
# their host names before any lookup, move to it when they come up (after
# the DNS answer, before any fetch), and links found later go straight to
# it. Judged from the server's request log: with four connections never two
# requests in flight, every page fetched once; from the job: no crawl.log
# line and no count for a move, and the queues report names the IP queue.
# The same crawl with hostname queues does overlap requests.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

tw_start --hosts 3 --pages 15 --links 4 --cross 0.3 --kb 1 --latency-ms 20-20
dns_start
cd "$TW_DIR" || fail "no work directory"

job=$TW_DIR/job
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set frontier.queue-assignment=ip \
	--set crawl.max-connections=4
policy_wait_exit
tw_check_once
most=$(tw_most_in_flight)
[ "$most" -eq 1 ] || fail "$most requests in flight at once on one IP queue"
robots=$(awk -F'\t' '$4 == "/robots.txt"' requests.tsv | wc -l)
[ "$robots" -eq 3 ] || fail "robots.txt fetched $robots times for 3 hosts"

# crawl.log: one line per request, per robots-precluded URI and per host's
# dns: lookup, nothing for moves.
pages=$(wc -l <requested.txt)
precluded=$(awk '$2 == -9998' "$job/logs/crawl.log" | wc -l)
lines=$(grep -vc ' dns:' "$job/logs/crawl.log")
[ "$lines" -eq $((pages + precluded + 3)) ] ||
	fail "$lines crawl.log lines for $pages pages, $precluded precluded and 3 robots.txt"
[ "$(grep -c ' dns:' "$job/logs/crawl.log")" -eq 3 ] || fail "not one dns: line per host"

"$TERN" report "$job" queues >queues.txt 2>&1 || fail "tern report queues: $(cat queues.txt)"
key="127.0.0.1#$TW_PORT"
grep -q "^EXHAUSTED $key 3 0 $((pages + precluded)) " queues.txt ||
	fail "no exhausted queue $key with $pages + $precluded enqueues: $(cat queues.txt)"
moved=$(grep -c "^EXHAUSTED h[0-2].web.test#$TW_PORT 3 0 1 " queues.txt)
[ "$moved" -eq 3 ] || fail "not three host-name queues of one (moved) seed each: $(cat queues.txt)"
"$TERN" report "$job" frontier >frontier.txt 2>&1 || fail "tern report frontier: $(cat frontier.txt)"
grep -q "^ succeeded: $pages$" frontier.txt || fail "succeeded is not $pages: $(cat frontier.txt)"
grep -q "^ disregarded: $precluded$" frontier.txt || fail "moves counted: $(cat frontier.txt)"
grep -q "^ discovered: $((pages + precluded))$" frontier.txt ||
	fail "discovered is not $pages + $precluded: $(cat frontier.txt)"
pass "3 hosts on queue $key: $pages pages, one request in flight at a time, seeds moved"

: >requests.tsv
policy_crawl "$TW_DIR/job2" -s "$TW_DIR/seeds.txt" --set frontier.queue-assignment=hostname \
	--set crawl.max-connections=4
policy_wait_exit
tw_stop
tw_check_once
most=$(tw_most_in_flight)
[ "$most" -gt 1 ] || fail "hostname queues never overlapped: the check cannot see overlap"
pass "hostname queues: $most requests in flight at once"
