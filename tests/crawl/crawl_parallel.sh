#!/bin/sh
# Parallel queues (checklist item 53): frontier.parallel-queues = 2 splits a
# host's queue into KEY and KEY+1 by a consistent hash of the first path
# segment (on the test web /p/ and /i/ stay on KEY and /r/ goes to KEY+1,
# tests/lib/test_surt.c), so with two connections one host has two fetches in
# flight at times, never more, as the server's request log shows; every
# page is still fetched once, and the queues report names both queues. The
# same crawl with one queue never has two requests in flight.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

tw_start --hosts 1 --pages 40 --links 6 --cross 0 --kb 1 --latency-ms 40-40
dns_start
cd "$TW_DIR" || fail "no work directory"
grep -q '/r/' manifest.tsv || fail "no redirect in the manifest: nothing on the second queue"

policy_crawl "$TW_DIR/job" -s "$TW_DIR/seeds.txt" --set frontier.parallel-queues=2 \
	--set crawl.max-connections=2
policy_wait_exit
tw_check_once
most=$(tw_most_in_flight)
[ "$most" -eq 2 ] || fail "at most $most requests in flight with two queues for one host"
"$TERN" report "$TW_DIR/job" queues >queues.txt 2>&1 || fail "tern report: $(cat queues.txt)"
key="test,web,h0,#$TW_PORT"
grep -q " $key " queues.txt || fail "no queue $key: $(cat queues.txt)"
grep -q " $key+1 " queues.txt || fail "no queue $key+1: $(cat queues.txt)"
[ "$(grep -vc '^#' queues.txt)" -eq 2 ] || fail "not two queues: $(cat queues.txt)"
pass "parallel-queues = 2: queues $key and $key+1, two requests in flight at most"

: >requests.tsv
policy_crawl "$TW_DIR/job1" -s "$TW_DIR/seeds.txt" --set crawl.max-connections=2
policy_wait_exit
tw_stop
tw_check_once
most=$(tw_most_in_flight)
[ "$most" -eq 1 ] || fail "$most requests in flight at once with one queue"
pass "parallel-queues = 1: one request in flight"
