#!/bin/sh
# A node stopped (SIGSTOP) for longer than a lease, then continued and told
# to leave (doc/cluster.md): the other node takes its expired partitions and
# makes their consumers; the paused one finds its leases lost and closes its
# own consumers on its way out, which must not take the new owner's with
# them (they did, under one consumer name per partition, and the survivor
# never ended). The survivor ends with every reachable page requested,
# never having found a consumer of its own gone, and never two requests in
# flight to one host (each request is checked against its lease right
# before it is written, so the continued node sends none for the partitions
# it lost; tests/cluster/cluster_lease_gate.sh checks that by User-Agent).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server

tw_start --hosts 100 --pages 20 --links 5 --kb 2 --latency-ms 0-10
dns_start
nats_start
cd "$TW_DIR" || fail "no work directory"
CLUSTER_ID=pause
cluster_node n0 -s "$TW_DIR/seeds.txt"
cluster_node n1

i=0
while a=$(grep -c ' 200 .* http' n0/logs/crawl.log 2>/dev/null); b=$(grep -c ' 200 .* http' n1/logs/crawl.log 2>/dev/null);
	[ "${a:-0}" -lt 60 ] || [ "${b:-0}" -lt 60 ]; do
	[ $i -lt 600 ] || fail "the nodes fetched fewer than 60 pages each in 60 s (n0 ${a:-0}, n1 ${b:-0})"
	sleep 0.1
	i=$((i + 1))
done
# The two nodes fetching is not yet the two holding 8 partitions each: n0
# claims all 16 while alone and hands half to n1, each only once its
# fetches stopped (slower on a loaded machine), and a partition n1 never
# held is not n0's to rebuild. Pause n1 once each node holds its 8.
cluster_each_holds 8 n0 n1
kill -STOP "$NODE_PID_n1"
t0=$(date +%s)
# Until n1's keys and heartbeat expired and n0 holds all 16: a partition is
# held only once its log is replayed and its consumer exists. (Counting
# "log replayed" lines missed a partition whose log was still empty.)
until [ "$(cluster_held n0)" = 16 ]; do
	[ $(($(date +%s) - t0)) -lt 60 ] || { kill -CONT "$NODE_PID_n1"; fail "n0 did not take n1's partitions in 60 s (it holds $(cluster_held n0)): $(tail -5 n0/logs/tern.log)"; }
	sleep 0.1
done
kill -CONT "$NODE_PID_n1"
kill -TERM "$NODE_PID_n1"
pass "n1 paused until n0 took its partitions ($(($(date +%s) - t0)) s), then told to leave"
cluster_left n1

cluster_wait n0 120
tw_stop
cluster_requested
pass "every reachable page requested"
cluster_no_overlap
pass "never two requests in flight to one host"
grep -q "the crawl is over" n0/logs/tern.log || fail "n0 did not see the end"
grep -q "consumers are gone" n0/logs/tern.log && fail "n1 deleted n0's consumers: $(grep 'consumers are gone' n0/logs/tern.log)"
pass "n1's partitions moved to n0, their consumers stayed, and the crawl ended"
