#!/bin/sh
# tern crawl --workers N killed with -9 (doc/cluster.md): its workers and the
# nats-server it started die with it (PR_SET_PDEATHSIG), within seconds and
# with nothing left running; tern resume then starts the server and both
# workers again and the crawl ends with every reachable page requested.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server pgrep

tw_start --hosts 100 --pages 20 --links 5 --kb 2 --latency-ms 0-10
dns_start
cd "$TW_DIR" || fail "no work directory"
cluster_start_workers
# The supervisor's children: two workers and the server.
children=$(pgrep -P $WPID | tr '\n' ' ')
[ "$(echo $children | wc -w)" -eq 3 ] || fail "expected 2 workers and nats-server under the supervisor, found: $(ps -o pid=,args= -p "$(echo $children | tr ' ' ,)" 2>/dev/null)"
ps -o args= -p "$(echo $children | tr ' ' ,)" | grep -q '^nats-server' || fail "no nats-server among the supervisor's children"
for p in $children; do
	track_pid "$p"
done
kill -9 $WPID
killed_ms=$(date +%s%3N)
wait $WPID 2>/dev/null
t0=$(date +%s)
alive() {
	_a=
	for _p in $children; do
		kill -0 "$_p" 2>/dev/null && ps -o stat= -p "$_p" 2>/dev/null | grep -qv Z && _a="$_a $_p"
	done
	echo $_a
}
i=0
while [ -n "$(alive)" ]; do
	[ $i -lt 100 ] || fail "10 s after kill -9 of the supervisor, still running: $(ps -o pid=,args= -p "$(alive | tr ' ' ,)")"
	sleep 0.1
	i=$((i + 1))
done
stopped=$(wc -l <requests.tsv)
pass "kill -9 of the supervisor ended its 2 workers and nats-server within $(($(date +%s) - t0)) s ($stopped requests)"

cluster_resume_workers w
tw_stop
cluster_requested
dups=$(uniq -d requested.txt | wc -l)
# The bound of a node killed (doc/cluster.md), for both workers: what they
# had in flight (16 connections each) and what they finished without its
# done record stored yet, allowed here as every request that ended in the
# last 500 ms before the kill (the server's own times).
recent=$(awk -F'\t' -v k="$killed_ms" '$2 >= k - 500 && $2 <= k' requests.tsv | wc -l)
bound=$((32 + recent))
[ "$dups" -le "$bound" ] || fail "$dups pages requested twice after the kill and resume, over the bound $bound"
pass "resumed to the end: every reachable page requested, $dups twice (bound $bound)"
