#!/bin/sh
# Operator actions given to one cluster node reach every node (doc/cluster.md;
# pause and unpause are in cluster_basic.sh): `tern ctl n0 set KEY=VALUE`
# changes the setting on n1 and n2 too (their tern.conf rewritten, their
# tern.log says so, naming n0), a setting read at start is refused by the
# others, `tern ctl n0 checkpoint` makes a valid checkpoint on
# every node, `tern ctl n0 reconsider-retired` reaches n1 and n2, and `tern ctl n1 stop` stops all three, each exiting 0 with
# the stop in its tern.log, long before the web is crawled.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server

tw_start --hosts 100 --pages 20 --links 5 --kb 2 --latency-ms 0-10
dns_start
nats_start
cd "$TW_DIR" || fail "no work directory"
CLUSTER_ID=control
cluster_node n0 -s "$TW_DIR/seeds.txt"
cluster_node n1
cluster_node n2

# Until every node fetches: each then holds partitions and hears the others.
i=0
while :; do
	ok=1
	for n in n0 n1 n2; do
		c=$(grep -c ' 200 .* http' $n/logs/crawl.log 2>/dev/null)
		[ "${c:-0}" -ge 5 ] || ok=0
	done
	[ $ok -eq 1 ] && break
	[ $i -lt 600 ] || fail "not every node fetched 5 pages in 60 s"
	sleep 0.1
	i=$((i + 1))
done

# wait_all WHAT CMD: until CMD (with $n set) succeeds for every node, 15 s
# at most.
wait_all() {
	_what=$1
	shift
	for n in n0 n1 n2; do
		_i=0
		until eval "$*"; do
			[ $_i -lt 150 ] || fail "$n: $_what not seen 15 s after it was given to one node: $(tail -3 $n/logs/tern.log)"
			sleep 0.1
			_i=$((_i + 1))
		done
	done
}

grep -q '^queue-total-budget = 999$' n1/tern.conf && fail "n1 has the setting already"
"$TERN" ctl n0 set frontier.queue-total-budget=999 >set.json || fail "set on n0: $(cat set.json)"
wait_all "the setting" "grep -q '^queue-total-budget = 999\$' \$n/tern.conf"
wait_all "the setting in tern.log" "grep -q 'setting changed: frontier.queue-total-budget=999' \$n/logs/tern.log"
for n in n1 n2; do
	grep -q 'cluster: settings from node .*/n0$' $n/logs/tern.log || fail "$n: the setting not from n0"
done
pass "a setting given to n0 reaches n0, n1 and n2"
for n in n1 n2; do
	grep -q 'setting changed: frontier.queue-total-budget=999 (from node .*/n0)$' $n/logs/tern.log ||
		fail "$n: the setting's origin not logged: $(grep 'setting changed' $n/logs/tern.log)"
	grep -q 'cluster: settings from node .*/n0 applied$' $n/logs/tern.log || fail "$n: not logged as applied"
done
pass "each node logs the node a setting came from when it applies it"
# A setting read at start (a node's own: doc/cluster.md, "Who can steer a
# crawl") is kept by n0 for its resume and refused by the others.
"$TERN" ctl n0 set 'crawl.user-agent=elsewhere/1 (+https://elsewhere.example/)' >ua.json ||
	fail "set on n0: $(cat ua.json)"
wait_all "the refusal" "[ \$n = n0 ] || grep -q 'cluster: settings from node .*/n0 refused: .*crawl.user-agent: not taken from another node' \$n/logs/tern.log"
grep -q '^user-agent = elsewhere/1 (+https://elsewhere.example/)$' n0/tern.conf ||
	fail "n0 did not keep its own setting"
grep -q 'elsewhere/1' n1/tern.conf n2/tern.conf && fail "another node took a setting read at start"
pass "a setting read at start is not taken from another node (refusal logged with the node)"

for n in n0 n1 n2; do
	[ -z "$(ls $n/checkpoints 2>/dev/null)" ] || fail "$n has a checkpoint already"
done
"$TERN" ctl n0 checkpoint >cp.json || fail "checkpoint on n0: $(cat cp.json)"
wait_all "a valid checkpoint" "ls \$n/checkpoints/cp*/valid >/dev/null 2>&1"
for n in n1 n2; do
	grep -q 'cluster: checkpoint from node .*/n0$' $n/logs/tern.log || fail "$n: the checkpoint not from n0"
done
pass "a checkpoint asked of n0 is taken on every node ($(ls -d n0/checkpoints/cp* n1/checkpoints/cp* n2/checkpoints/cp* | wc -l) in all)"

# reconsider-retired (no queue is retired here: each node just logs it).
"$TERN" ctl n0 reconsider-retired >rr.json || fail "reconsider-retired on n0: $(cat rr.json)"
wait_all "reconsider-retired" "[ \$n = n0 ] || grep -q 'cluster: reconsider-retired from node .*/n0\$' \$n/logs/tern.log"
pass "reconsider-retired asked of n0 reaches n1 and n2"

"$TERN" ctl n1 stop >stop.json || fail "stop on n1: $(cat stop.json)"
for n in n0 n1 n2; do
	cluster_wait $n 30
	grep -q 'state RUNNING -> STOPPING: stopped by the operator' $n/logs/tern.log ||
		fail "$n: no stop in tern.log: $(tail -3 $n/logs/tern.log)"
done
for n in n0 n2; do
	grep -q 'cluster: stop from node .*/n1$' $n/logs/tern.log || fail "$n: the stop not from n1"
done
tw_stop
pages=$(awk -F'\t' '$4 != "/robots.txt"' requests.tsv | wc -l)
reachable=$(awk -F'\t' '$2 == "allowed"' manifest.tsv | wc -l)
[ "$pages" -lt "$reachable" ] || fail "the crawl ran to its end ($pages pages) instead of stopping"
pass "a stop given to n1 stops every node ($pages of $reachable pages fetched)"
