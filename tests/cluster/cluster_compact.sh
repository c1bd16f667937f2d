#!/bin/sh
# A bounded stream (doc/cluster.md): with a small cluster.compact-kib, each
# owner compacts its partitions' logs again and again (their url and done
# records reduced to one per URI on the partition's snapshot subjects,
# everything older purged). One of three nodes is killed with -9 mid-crawl:
# the survivors take its partitions over from their snapshots plus tails,
# and the crawl ends with every reachable page requested, duplicates within
# the bound of cluster_kill.sh, and the stream holding fewer messages than
# were ever stored in it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server node

tw_start --hosts 200 --pages 40 --links 5 --kb 2 --latency-ms 0-20
dns_start
nats_start
cd "$TW_DIR" || fail "no work directory"
CLUSTER_ID=compact
# The node with the seeds last, so that a slow start of the others (a
# loaded machine) does not leave the crawl to it alone.
cluster_node n1 --set cluster.compact-kib=4
cluster_node n2 --set cluster.compact-kib=4
i=0
until [ "$(cluster_held n1)" -gt 0 ] && [ "$(cluster_held n2)" -gt 0 ]; do
	[ $i -lt 300 ] || fail "n1 and n2 held no partitions after 30 s: $(tail -3 n1.out n2.out)"
	sleep 0.1
	i=$((i + 1))
done
cluster_node n0 -s "$TW_DIR/seeds.txt" --set cluster.compact-kib=4

# Kill n1 once it has compacted a partition and fetched 300 pages.
i=0
until grep -q 'log compacted' n1/logs/tern.log 2>/dev/null &&
	[ "$(grep -c ' http' n1/logs/crawl.log 2>/dev/null)" -ge 300 ]; do
	[ $i -lt 900 ] || fail "n1 compacted nothing or fetched fewer than 300 pages in 90 s: $(tail -3 n1/logs/tern.log)"
	kill -0 "$NODE_PID_n1" || fail "n1 exited early: $(tail -3 n1.out)"
	sleep 0.1
	i=$((i + 1))
done
kill -9 "$NODE_PID_n1"
wait "$NODE_PID_n1" 2>/dev/null
pass "n1 killed with -9 after $(grep -c 'log compacted' n1/logs/tern.log) compactions"

cluster_wait n0 180
cluster_wait n2 180
tw_stop
cluster_requested
pass "every reachable page requested at least once"
ndups=$(uniq -d requested.txt | wc -l)
recent=$(awk '{ t = substr($1, 12, 2) * 3600 + substr($1, 15, 2) * 60 + substr($1, 18, 6); s[NR] = t }
	END { for (i = NR; i > 0 && s[NR] - s[i] <= 0.5; i--) n++; print n + 0 }' n1/logs/crawl.log)
bound=$((32 + recent))
[ "$ndups" -le "$bound" ] || fail "$ndups pages requested twice, over the bound $bound"
compacted=$(cat n0/logs/tern.log n2/logs/tern.log | grep -c 'log compacted')
[ "$compacted" -gt 0 ] || fail "the survivors compacted nothing"
taken=$(grep -h 'log replayed' n0/logs/tern.log n2/logs/tern.log | wc -l)
pass "$ndups pages requested twice (bound $bound); the survivors compacted $compacted times and replayed $taken logs"

# The stream, read directly: fewer messages than its last sequence.
"$TERN" report n0 cluster --json >cluster.json 2>&1 || fail "report cluster: $(cat cluster.json)"
node -e 'const j = JSON.parse(require("fs").readFileSync("cluster.json", "utf8"));
	console.log(j.stream_messages, j.stream_bytes, j.stream_last_seq);' >stream.txt || fail "cluster.json: $(head -c 300 cluster.json)"
read -r msgs bytes last <stream.txt
[ "$msgs" -gt 0 ] && [ "$msgs" -lt "$last" ] || fail "the stream holds $msgs messages of $last stored: nothing purged"
pass "the stream holds $msgs of the $last messages stored in it ($bytes bytes) at the end"
