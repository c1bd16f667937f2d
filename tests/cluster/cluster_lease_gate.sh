#!/bin/sh
# No request without a lease (doc/cluster.md): a node stopped (SIGSTOP) for
# longer than its lease, then continued, must not send a request for a
# partition it no longer holds, not even one its visits had started before
# the stop (a connection opening, a robots.txt answered while it was
# stopped). The check is the server's own log: the nodes send different
# User-Agents, and no request of the stopped node may start after its
# leases' end (at the latest the stop plus a lease: their last renewal was
# sent before the stop) until it has claimed a partition again. The crawl
# then ends on both with every reachable page requested.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server node

# Many hosts, slow answers: at the stop the node has visits waiting for a
# robots.txt or a connection, whose page requests would leave once it runs.
tw_start --hosts 200 --pages 10 --links 5 --kb 2 --latency-ms 20-150
dns_start
nats_start
cd "$TW_DIR" || fail "no work directory"
CLUSTER_ID=gate
CLUSTER_LEASE=4
cluster_node n0 -s "$TW_DIR/seeds.txt" --set "crawl.user-agent=tern/test (node n0; +https://example.org/)"
cluster_node n1 --set "crawl.user-agent=tern/test (node n1; +https://example.org/)"

cluster_each_holds 8 n0 n1
kill -STOP "$NODE_PID_n1"
stop_ms=$(date +%s%3N)
until [ "$(cluster_held n0)" = 16 ]; do
	[ $(($(date +%s%3N) - stop_ms)) -lt 60000 ] || { kill -CONT "$NODE_PID_n1"; fail "n0 did not take n1's partitions in 60 s (it holds $(cluster_held n0))"; }
	sleep 0.1
done
kill -CONT "$NODE_PID_n1"
cont_ms=$(date +%s%3N)
pass "n1 stopped $((cont_ms - stop_ms)) ms, until n0 held its partitions"

cluster_wait n0 180
cluster_wait n1 180
tw_stop
cluster_requested
pass "every reachable page requested"

# n1 fetches again only once it has claimed and rebuilt a partition: its
# first "log replayed" after it was continued.
again_ms=$(grep 'log replayed' n1/logs/tern.log | cut -c1-24 | while read -r t; do
	ms=$(date -d "$t" +%s%3N)
	[ "$ms" -ge "$cont_ms" ] && { echo "$ms"; break; }
done)
again_ms=${again_ms:-99999999999999}
lease_end=$((stop_ms + CLUSTER_LEASE * 1000))
awk -F'\t' -v a="$lease_end" -v b="$again_ms" '$9 ~ /node n1/ && $1 > a && $1 < b' requests.tsv >late.tsv
[ -s late.tsv ] && fail "$(wc -l <late.tsv) requests of n1 started after its leases ended ($lease_end) and before it claimed again ($again_ms): $(head -3 late.tsv)"
withheld=$(grep -c 'not sent: its partition' n1/logs/tern.log)
sent=$(awk -F'\t' -v a="$stop_ms" -v b="$again_ms" '$9 ~ /node n1/ && $1 > a && $1 < b' requests.tsv | wc -l)
pass "no request of n1 after its leases ended ($sent landed after the stop, all before $lease_end; $withheld withheld unsent)"
