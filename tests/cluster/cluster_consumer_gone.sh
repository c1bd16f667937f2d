#!/bin/sh
# A partition's consumer deleted behind its owner's back (doc/cluster.md:
# an owner that lost the partition deleting its own late, or a server that
# lost it): the owner notices when its view asks for the consumer's pending
# count, gives the partition up, and it is claimed and rebuilt from the
# stream with a new consumer. The crawl ends on both nodes with every
# reachable page requested and never two requests in flight to one host.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server
if ! command -v node >/dev/null 2>&1 || [ ! -d "$top_srcdir/tests/node_modules/nats" ]; then
	echo "SKIP: node or the nats package missing (cd tests && npm ci)"
	exit 77
fi

tw_start --hosts 100 --pages 30 --links 5 --kb 2 --latency-ms 0-10
dns_start
nats_start
cd "$TW_DIR" || fail "no work directory"
CLUSTER_ID=gone
cluster_node n0 -s "$TW_DIR/seeds.txt"
cluster_node n1

# Every partition claimed and consuming (whichever node holds it).
i=0
until [ "$( (cd "$top_srcdir/tests/cluster" && node nats_consumers.mjs "$NATS_URL" "tern-$CLUSTER_ID") 2>/dev/null |
	grep -c '^p')" -ge 16 ]; do
	[ $i -lt 120 ] || fail "fewer than 16 partition consumers after 60 s"
	sleep 0.5
	i=$((i + 1))
done
(cd "$top_srcdir/tests/cluster" && node nats_consumers.mjs "$NATS_URL" "tern-$CLUSTER_ID" delete) \
	>deleted.txt 2>&1 || fail "deleting the consumers: $(tail -3 deleted.txt)"
[ "$(grep -c '^deleted p' deleted.txt)" -ge 2 ] || fail "fewer than 2 consumers to delete: $(cat deleted.txt)"
pass "$(grep -c '^deleted' deleted.txt) partitions' consumers deleted"

cluster_wait n0 120
cluster_wait n1 120
tw_stop
cluster_requested
pass "every reachable page requested"
cluster_no_overlap
pass "never two requests in flight to one host"
grep -q "consumers are gone from the server" n0/logs/tern.log n1/logs/tern.log ||
	fail "no node saw its consumers gone"
for n in n0 n1; do
	grep -q "the crawl is over" $n/logs/tern.log || fail "$n did not see the end"
done
pass "the partitions were rebuilt and the crawl ended"
