#!/bin/sh
# Cluster mode end to end (doc/cluster.md): three nodes and a nats-server
# crawl a test web of 300 hosts together. Checked from the server's request
# log: every reachable page requested exactly once, never two requests in
# flight to one host (whichever node sent them), and from the nodes'
# crawl.logs: each host fetched by one node only. Also: a pause given to one
# node reaches the others, the cluster report lists every node, a node that
# cannot reach NATS says so with the URL, and [cluster] is checked.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server

tw_start --hosts 300 --pages 5 --links 4 --kb 2 --latency-ms 0-5
dns_start
cd "$TW_DIR" || fail "no work directory"

# Nothing listens on port 1: the error names the URL, exit 1.
"$TERN" crawl -j "$TW_DIR/nobody" --cluster nats://127.0.0.1:1 --crawl-id t \
	-s "$TW_DIR/seeds.txt" >nobody.out 2>&1
rc=$?
[ $rc -eq 1 ] || fail "unreachable NATS: exit $rc, want 1: $(cat nobody.out)"
grep -q "cannot reach NATS at nats://127.0.0.1:1" nobody.out || fail "unreachable NATS: $(cat nobody.out)"
"$TERN" crawl -j "$TW_DIR/noid" --cluster nats://127.0.0.1:1 -s "$TW_DIR/seeds.txt" >noid.out 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "cluster.crawl-id" noid.out || fail "no crawl id: exit $rc: $(cat noid.out)"
"$TERN" crawl -j "$TW_DIR/ipq" --cluster nats://127.0.0.1:1 --crawl-id t \
	--set frontier.queue-assignment=ip -s "$TW_DIR/seeds.txt" >ipq.out 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "queue-assignment = ip" ipq.out || fail "ip queues: exit $rc: $(cat ipq.out)"
pass "a node that cannot start says why"

nats_start
CLUSTER_ID=basic
cluster_node n0 -s "$TW_DIR/seeds.txt"
cluster_node n1
cluster_node n2

# A pause given to n0 reaches n1; an unpause given to n2 reaches n0. The
# pause travels on a plain NATS subject: it reaches the nodes running when
# it is given, so every node must be running first (a node that joins
# later is not told: doc/cluster.md).
for n in n0 n1 n2; do
	i=0
	until "$TERN" ctl $n status >st.json 2>/dev/null && grep -q RUNNING st.json; do
		[ $i -lt 300 ] || fail "$n never running: $(tail -3 $n.out)"
		sleep 0.1
		i=$((i + 1))
	done
done
"$TERN" ctl n0 pause >/dev/null || fail "pause n0"
i=0
until "$TERN" ctl n1 status 2>/dev/null | grep -q 'PAUS'; do
	[ $i -lt 100 ] || fail "n1 not paused 10 s after pausing n0: $("$TERN" ctl n1 status)"
	sleep 0.1
	i=$((i + 1))
done
# Every node's heartbeat shows within a lease.
i=0
while :; do
	"$TERN" report n1 cluster >report.txt || fail "report cluster: $(cat report.txt)"
	nodes=$(sed -n 's/.*, \([0-9]*\) nodes;.*/\1/p' report.txt)
	[ "$nodes" = 3 ] && break
	[ $i -lt 100 ] || fail "the cluster report shows ${nodes:-no} nodes: $(cat report.txt)"
	sleep 0.1
	i=$((i + 1))
done
"$TERN" report n1 cluster --json >report.json || fail "report cluster --json"
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1]));
	if (r.nodes.length !== 3 || r.owners.length !== 16) process.exit(1);' report.json ||
	fail "cluster report JSON: $(head -c 400 report.json)"
"$TERN" ctl n2 unpause >/dev/null || fail "unpause n2"
i=0
until "$TERN" ctl n0 status 2>/dev/null | grep -q 'RUNNING\|FINISHED'; do
	[ $i -lt 100 ] || fail "n0 not running again 10 s after unpausing n2"
	sleep 0.1
	i=$((i + 1))
done
pass "pause and unpause reach every node; the cluster report lists them"

cluster_wait n0
cluster_wait n1
cluster_wait n2
tw_stop

cluster_requested
dups=$(uniq -d requested.txt | wc -l)
[ "$dups" -eq 0 ] || fail "$dups pages requested twice: $(uniq -d requested.txt | head -3)"
pass "every reachable page requested exactly once"
cluster_no_overlap
pass "never two requests in flight to one host"
for n in n0 n1 n2; do
	cluster_hosts $n >hosts-$n.txt
	[ -s hosts-$n.txt ] || fail "node $n fetched nothing"
done
both=$(sort hosts-n0.txt hosts-n1.txt hosts-n2.txt | uniq -d | wc -l)
[ "$both" -eq 0 ] || fail "$both hosts fetched by two nodes: $(sort hosts-n0.txt hosts-n1.txt hosts-n2.txt | uniq -d | head -3)"
pass "each host fetched by one node only ($(wc -l <hosts-n0.txt), $(wc -l <hosts-n1.txt), $(wc -l <hosts-n2.txt) hosts)"
for n in n0 n1 n2; do
	grep -q "the crawl is over" $n/logs/tern.log || fail "$n did not see the end: $(tail -3 $n/logs/tern.log)"
done
pass "the crawl ended on every node"
# With the node gone, the report reads the cluster from NATS itself.
"$TERN" report n2 cluster >offline.txt 2>&1 || fail "offline cluster report: $(cat offline.txt)"
grep -q "^cluster basic at $NATS_URL: 16 partitions" offline.txt || fail "offline cluster report: $(cat offline.txt)"
pass "tern report JOBDIR cluster reads NATS when the node is not running"
# A message let go without an acknowledgment comes back only after the
# consumer's acknowledgment wait (30 s) and the end waits for it: a crawl
# that ends normally lets none go, not even those delivered before the
# client's thread confirmed their subscription.
for n in n0 n1 n2; do
	node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1])).cluster;
		console.log(j.messages_let_go, j.messages_early); if (j.messages_let_go !== 0) process.exit(1);' \
		$n/reports/stats.json >letgo-$n.txt || fail "$n let messages go: $(cat letgo-$n.txt)"
done
pass "no message let go for redelivery ($(cat letgo-n0.txt letgo-n1.txt letgo-n2.txt | awk '{ e += $2 } END { print e + 0 }') delivered before their subscription was confirmed)"
