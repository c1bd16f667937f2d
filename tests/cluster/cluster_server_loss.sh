#!/bin/sh
# Server loss loses nothing (doc/cluster.md): two nodes crawl the test web
# over a cluster of three nats-servers with the stream and buckets
# replicated three times (cluster.replicas = 3). Mid-crawl the server that
# leads most of the cluster (its metadata, the stream, the leases' bucket)
# is killed with -9 and never restarted; the nodes fail over to the other
# two, retry the JetStream calls that time out while leaders are elected
# again, and the crawl ends on both (exit 0) with every reachable page
# fetched, each URI once in the crawl.logs.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server curl

# Few hosts and a longer delay between requests to each: the crawl lasts
# ~15 s after the kill, so that the elections happen while pages are
# fetched (with 100 hosts it ended within the lease's window).
tw_start --hosts 24 --pages 50 --links 5 --kb 2 --latency-ms 0-20
dns_start
NATS_MONITOR=1 nats_cluster_start 3
cd "$TW_DIR" || fail "no work directory"
CLUSTER_ID=sl
CLUSTER_LEASE=${CLUSTER_LEASE:-10}
CLUSTER_MIN_DELAY=200
# Both start paused and are let go once each holds half the partitions:
# a node that joins late takes partitions over from the other, whose
# fetches in flight there are abandoned (and fetched again), which is not
# what this test is about.
cluster_node n0 -s "$TW_DIR/seeds.txt" --set cluster.replicas=3 --set crawl.pause-at-start=true
cluster_node n1 --set cluster.replicas=3 --set crawl.pause-at-start=true
i=0
until "$TERN" report n0 cluster --json >report.json 2>/dev/null && node -e '
	const r = JSON.parse(require("fs").readFileSync(process.argv[1]));
	const held = r.nodes.map(n => (n.partitions || []).length);
	process.exit(held.length === 2 && held[0] === 8 && held[1] === 8 ? 0 : 1);' report.json; do
	[ $i -lt 600 ] || fail "the nodes did not share the partitions in 60 s: $(cat report.json)"
	kill -0 "$NODE_PID_n0" && kill -0 "$NODE_PID_n1" || fail "a node exited early: $(tail -n 3 n0.out n1.out)"
	sleep 0.1
	i=$((i + 1))
done
pass "both nodes joined, 8 partitions each, in $((i / 10)) s"
"$TERN" ctl n0 unpause >/dev/null || fail "unpause"

# Kill once the nodes have fetched 400 of the ~2,200 URIs.
i=0
while n=$(cat n0/logs/crawl.log n1/logs/crawl.log 2>/dev/null | grep -c ' http'); [ "${n:-0}" -lt 400 ]; do
	[ $i -lt 600 ] || fail "the nodes fetched fewer than 400 pages in 60 s: $(tail -n 3 n0.out n1.out)"
	kill -0 "$NODE_PID_n0" && kill -0 "$NODE_PID_n1" || fail "a node exited early: $(tail -n 3 n0.out n1.out)"
	sleep 0.1
	i=$((i + 1))
done
# The victim: the server that leads most of the cluster's metadata, the
# stream and the leases' bucket (ties: the leases' leader), from each
# server's monitoring port.
lmeta=$(nats_cluster_leader meta)
lstream=$(nats_cluster_leader "tern-$CLUSTER_ID")
lowners=$(nats_cluster_leader "KV_tern-$CLUSTER_ID-owners")
[ -n "$lowners" ] || fail "no server says it leads the leases' bucket"
victim=$lowners
for k in 0 1 2; do
	[ "$(echo "$lmeta $lstream $lowners" | tr ' ' '\n' | grep -c "^$k$")" -ge 2 ] && victim=$k
done
eval "vpid=\$NATS_PID_C$victim"
kill -9 "$vpid"
wait "$vpid" 2>/dev/null
killed_at=$(date -u +%H:%M:%S.%N)
pass "server $victim killed with -9 after $n pages (leaders: metadata $lmeta, stream $lstream, leases $lowners)"

cluster_wait n0 120
cluster_wait n1 120
tw_stop

cluster_requested
pass "every reachable page requested"
cat n0/logs/crawl.log n1/logs/crawl.log | awk '$4 ~ /^http/ { print $4 }' | sort >fetched.txt
uniq -d fetched.txt >logdups.txt
[ ! -s logdups.txt ] || fail "$(wc -l <logdups.txt) URIs in the crawl.logs twice: $(head -3 logdups.txt)"
pass "every URI in the crawl.logs once ($(wc -l <fetched.txt) lines)"
# A page may be requested twice only when its first fetch was abandoned
# (not logged): a lease whose renewals could not be stored for half a lease
# while the leases' bucket elected a new leader stops its partition's
# fetches in flight. At most each node's connections.
uniq -d requested.txt >dups.txt
ndups=$(wc -l <dups.txt)
[ "$ndups" -le 64 ] || fail "$ndups pages requested twice, more than the nodes' 64 connections: $(head -3 dups.txt)"
for n in n0 n1; do
	grep -q "the crawl is over" $n/logs/tern.log || fail "$n did not see the end"
done
# What the loss cost: fetches a second (both nodes) in the 3 s before the
# kill and the 12 s after it, and when the crawl ended.
rates=$(cat n0/logs/crawl.log n1/logs/crawl.log | awk -v k="$killed_at" '
	function sec(t) { split(t, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] }
	BEGIN { ks = sec(k) }
	$4 ~ /^http/ { d = sec(substr($1, 12, 12)) - ks; if (d >= -3 && d < 12) n[int(d + 3)]++ }
	END { for (i = 0; i < 15; i++) printf "%s%d", (i == 3 ? " | " : i ? " " : ""), n[i] + 0 }')
end=$(cat n0/logs/crawl.log n1/logs/crawl.log | awk -v k="$killed_at" '
	function sec(t) { split(t, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] }
	{ t = sec(substr($1, 12, 12)); if (t > m) m = t }
	END { printf "%.1f", m - sec(k) }')
pass "both nodes saw the end; $ndups pages requested again after an abandoned fetch"
pass "fetches a second, 3 s before the kill | 12 s after: $rates; the last fetch $end s after the kill"
