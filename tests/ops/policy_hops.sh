#!/bin/sh
# The hops URI precedence policy end to end (seed 001, checklist 20): within
# a queue, URIs fewer navigation hops from a seed go first. With one
# connection crawl.log is the frontier's emission order, so the check is
# exact: no URI leaves its queue while a URI of the same queue with fewer L
# hops was already queued (policy_violations). Cross-host links and quick
# rotation make discovery order differ from hop order, and the same crawl
# under the default cost policy is checked to break the rule, so the check
# can fail.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

tw_start --hosts 3 --pages 30 --links 4 --cross 0.5 --kb 1 --seed 3
dns_start
cd "$TW_DIR" || fail "no work directory"
for policy in hops cost; do
	job=$TW_DIR/job-$policy
	policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set frontier.uri-precedence-policy=$policy \
		--set frontier.balance-replenish-amount=2
	policy_wait_exit
	awk '$4 !~ /^dns:/' "$job/logs/crawl.log" | wc -l >"n-$policy"
	policy_violations "$job/logs/crawl.log" >"v-$policy"
done
tw_stop
[ "$(cat n-hops)" -eq "$(cat n-cost)" ] || fail "the two crawls differ in size: $(cat n-hops) and $(cat n-cost)"
[ "$(cat v-hops)" -eq 0 ] || fail "hops policy: $(cat v-hops) URIs left a queue ahead of a queued URI with fewer hops"
[ "$(cat v-cost)" -gt 0 ] || fail "the cost policy kept hop order too: the test web no longer tells the two apart"
pass "hops order kept over $(cat n-hops) URIs (the cost policy breaks it $(cat v-cost) times)"
