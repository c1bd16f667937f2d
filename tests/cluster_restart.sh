#!/bin/sh
# The NATS server restarted mid-crawl (doc/cluster.md): two nodes lose their
# connection, stop fetching once their leases' windows close, reconnect when
# the server is back on the same port and store, and the crawl ends on both
# with every reachable page requested and never two requests in flight to
# one host.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster_lib.sh"
need_cmd dnsmasq nats-server

tw_start --hosts 100 --pages 20 --links 5 --kb 2 --latency-ms 0-10
dns_start
nats_start
cd "$TW_DIR" || fail "no work directory"
CLUSTER_ID=restart
cluster_node n0 -s "$TW_DIR/seeds.txt"
cluster_node n1

i=0
while n=$(grep -c ' http' n0/logs/crawl.log 2>/dev/null); [ "${n:-0}" -lt 150 ]; do
	[ $i -lt 600 ] || fail "n0 fetched fewer than 150 pages in 60 s"
	sleep 0.1
	i=$((i + 1))
done
before=$(wc -l <requests.tsv)
nats_restart 0 3
pass "nats-server restarted after $before requests (3 s away)"

cluster_wait n0 180
cluster_wait n1 180
tw_stop
cluster_requested
pass "every reachable page requested"
cluster_no_overlap
pass "never two requests in flight to one host"
for n in n0 n1; do
	grep -q "connection to NATS at .* lost" $n/logs/tern.log || fail "$n never saw the server go"
	grep -q "connection to NATS at .* restored" $n/logs/tern.log || fail "$n never reconnected"
	grep -q "the crawl is over" $n/logs/tern.log || fail "$n did not see the end"
done
pass "both nodes reconnected and ended"
