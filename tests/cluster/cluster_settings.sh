#!/bin/sh
# The settings every node of one crawl must share (doc/cluster.md): the
# first node records them in the crawl's meta bucket, and a node joining
# with another partition count, another crawl.mode (a one-time node and a
# continuous one would disagree on the end), another partition-by (on who
# owns a URI) or other canonicalize.* settings (on what is one URI) exits
# 2 naming the setting,
# while the crawl goes on to its end.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server

tw_start --hosts 20 --pages 5 --links 4 --kb 2 --latency-ms 0-5
dns_start
nats_start
cd "$TW_DIR" || fail "no work directory"
CLUSTER_ID=settings
cluster_node n0 -s "$TW_DIR/seeds.txt"
i=0
until grep -q ' http' n0/logs/crawl.log 2>/dev/null; do
	[ $i -lt 300 ] || fail "n0 fetched nothing in 30 s: $(tail -3 n0.out)"
	sleep 0.1
	i=$((i + 1))
done

# cluster_node_rc NAME ARGS...: node NAME run to its exit, which is $rc.
cluster_node_rc() {
	cluster_node "$@"
	eval "_p=\$NODE_PID_$1"
	wait "$_p"
	rc=$?
}
cluster_node_rc cont --set crawl.mode=continuous
[ $rc -eq 2 ] || fail "a continuous node in a one-time crawl: exit $rc, want 2: $(tail -3 cont.out)"
grep -q "crawl.mode: crawl 'settings' on $NATS_URL is once, not continuous" cont.out ||
	fail "a continuous node in a one-time crawl: $(cat cont.out)"
grep -q Sanitizer cont.out && fail "sanitizer report: $(grep -A5 Sanitizer cont.out | head -20)"
pass "a continuous node joining a one-time crawl exits 2 naming crawl.mode"
CLUSTER_PARTITIONS=8 cluster_node_rc eight
[ $rc -eq 2 ] || fail "8 partitions in a crawl of 16: exit $rc, want 2: $(tail -3 eight.out)"
grep -q "cluster.partitions: crawl 'settings' on $NATS_URL has 16 partitions, not 8" eight.out ||
	fail "8 partitions in a crawl of 16: $(cat eight.out)"
pass "a node with another partition count exits 2 naming cluster.partitions"
cluster_node_rc dom --set cluster.partition-by=registered-domain
[ $rc -eq 2 ] || fail "partition-by domain in a crawl by queue: exit $rc, want 2: $(tail -3 dom.out)"
grep -q "cluster.partition-by: crawl 'settings' on $NATS_URL is queue, not registered-domain" dom.out ||
	fail "partition-by domain in a crawl by queue: $(cat dom.out)"
pass "a node partitioning otherwise exits 2 naming cluster.partition-by"
cluster_node_rc www --set canonicalize.strip-www=false
[ $rc -eq 2 ] || fail "another canonicalization: exit $rc, want 2: $(tail -3 www.out)"
grep -q "canonicalize.\*: crawl 'settings' on $NATS_URL is .*strip-www=true.*, not .*strip-www=false" www.out ||
	fail "another canonicalization: $(cat www.out)"
[ ! -s www/logs/crawl.log ] || fail "the refused node fetched"
pass "a node canonicalizing otherwise exits 2 naming canonicalize.*"

cluster_wait n0
tw_stop
cluster_requested
grep -q "the crawl is over" n0/logs/tern.log || fail "n0 did not see the end: $(tail -3 n0/logs/tern.log)"
pass "the crawl went on to its end"
