#!/bin/sh
# A continuous crawl in a cluster (doc/cluster.md, "Continuous crawls"):
# two nodes revisit the test web's unchanging pages every 1-2 s; once every
# page has been visited twice a third joins and takes partitions over (the
# others drop their queued and waiting URIs), and once every page has been
# visited twice again, one node (n1 or n2, whichever visited more) is
# killed with -9 and never restarted. Its partitions' revisit
# schedules and fetch histories were in the stream (done records carrying
# each URI's frontier record, compacted into snapshots every 4 KiB), so:
#   - every URI the dead node ever visited is visited again by a survivor
#     after the kill (none dropped out of the cycle);
#   - each unchanging page that sends validators answers 304 to a
#     survivor's first visit of it after the kill: its history came along
#     (without it the survivor would send no validators and get a 200);
#   - per host, no two requests are in flight at once, whichever node sent
#     them, and none closer than the politeness delay (the server's log);
#   - the survivors rebuilt the dead node's partitions with URIs waiting
#     for their revisits, and `tern ctl stop` on one stops both, cleanly;
#   - their stores then hold each URI of the crawl exactly once, queued or
#     waiting (none lost with the dead node, none left behind by a
#     partition given up).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server

TW_NO_MANIFEST=1
tw_start --hosts 8 --pages 2 --change-periods 0
dns_start
nats_start
cd "$TW_DIR" || fail "no work directory"
for h in 0 1 2 3 4 5 6 7; do
	tw_url $h /v/
done >seeds
CLUSTER_ID=cont
CLUSTER_COMPACT_KIB=4
set -- --set crawl.mode=continuous \
	--set revisit.initial-interval-seconds=1 \
	--set revisit.min-interval-seconds=1 \
	--set revisit.max-interval-seconds=2
cluster_node n0 -s "$TW_DIR/seeds" "$@"
cluster_node n1 "$@"

# The /v/ index of each host and its 8 unchanging pages (4 kinds x 2).
want=$((8 * 9))
# visited_twice: how many page URLs the server served twice or more since
# line $from of its log.
from=1
visited_twice() {
	tail -n +$from requests.tsv |
		awk -F'\t' '$4 ~ /^\/v\// { n[$3 $4]++ } END { for (u in n) if (n[u] >= 2) c++; print c + 0 }'
}
# wait_twice: until every page was visited twice (by the nodes given).
wait_twice() {
	_i=0
	while [ "$(visited_twice)" -lt $want ]; do
		[ $_i -lt 400 ] || fail "only $(visited_twice) of $want pages visited twice in 40 s"
		for n in "$@"; do
			eval "kill -0 \$NODE_PID_$n" 2>/dev/null || fail "$n exited: $(tail -3 $n.out)"
		done
		sleep 0.1
		_i=$((_i + 1))
	done
}
wait_twice n0 n1
pass "every one of the $want pages visited twice by n0 and n1"
# n2 joins: n0 and n1 give it partitions, whose queued and waiting URIs
# leave their stores (n2 rebuilds them from the stream). Then a full
# cycle more, with n2 visiting.
from=$(($(wc -l <requests.tsv) + 1))
cluster_node n2 "$@"
wait_twice n0 n1 n2
# Whatever n2 visits was in n0's or n1's store, which gave it up.
if grep -q ' http' n2/logs/crawl.log; then
	grep -q "queued or waiting URIs dropped" n0/logs/tern.log n1/logs/tern.log ||
		fail "n2 visits, but n0 and n1 dropped nothing they gave it: $(grep -h 'cluster:' n2/logs/tern.log | tail -3)"
fi
pass "n2 joined; every page visited twice again"
# The victim: whichever of n1 and n2 visited more (8 hosts over 16
# partitions: a node may hold none of them); n0 and the other survive.
c1=$(grep -c ' http' n1/logs/crawl.log)
c2=$(grep -c ' http' n2/logs/crawl.log)
if [ "$c1" -ge "$c2" ]; then V=n1 S=n2; else V=n2 S=n1; fi
awk '$4 ~ /^http/ && $4 !~ /robots\.txt$/ { print $4 }' $V/logs/crawl.log | sort -u >dead_uris.txt
[ -s dead_uris.txt ] || fail "neither n1 nor n2 visited anything"

eval "kill -9 \$NODE_PID_$V"
killed=$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)
eval "wait \$NODE_PID_$V" 2>/dev/null
pass "$V killed with -9 after visiting $(wc -l <dead_uris.txt) URIs"

# after: the URIs the survivors visited (logged) after the kill.
after() {
	cat n0/logs/crawl.log $S/logs/crawl.log |
		awk -v k="$killed" '$1 > k && $4 ~ /^http/ { print $4 }' | sort -u >after.txt
	comm -23 dead_uris.txt after.txt | wc -l
}
i=0
while [ "$(after)" -gt 0 ]; do
	[ $i -lt 300 ] || fail "$(after) of $V's URIs not visited again 30 s after its death: $(comm -23 dead_uris.txt after.txt | head -3)"
	sleep 0.1
	i=$((i + 1))
done
pass "every URI $V visited was visited again by a survivor after its death"
# A full cycle more, so that the visits checked below are the survivors'.
sleep 2

"$TERN" ctl n0 stop >ctl.out 2>&1 || fail "tern ctl stop: $(cat ctl.out)"
cluster_wait n0 30
cluster_wait $S 30
tw_stop

# Each URI is in exactly one survivor's store (queued or waiting for its
# revisit): none lost with the victim, none left behind by a partition
# given up.
total=$(cat n0/logs/crawl.log n1/logs/crawl.log n2/logs/crawl.log |
	awk '$4 ~ /^http/ && $4 !~ /robots\.txt$/ { print $4 }' | sort -u | wc -l)
held=0
for n in n0 $S; do
	"$TERN" report $n frontier >$n.report 2>&1 || fail "tern report $n: $(tail -3 $n.report)"
	q=$(sed -n 's/^ queued URIs: \([0-9]*\).*/\1/p' $n.report)
	w=$(sed -n 's/^ waiting for a revisit: \([0-9]*\).*/\1/p' $n.report)
	held=$((held + ${q:-0} + ${w:-0}))
done
[ "$held" -eq "$total" ] || fail "the survivors' stores hold $held URIs for $total distinct ones: $(cat n0.report $S.report | grep -E 'queued|waiting')"
pass "the survivors' stores hold each of the $total URIs once"

# The first visit after the kill of each of the victim's unchanging pages
# with validators: a 304.
for u in $(grep -E '/v/0/(both|etag|lastmod)/' dead_uris.txt); do
	st=$(cat n0/logs/crawl.log $S/logs/crawl.log | sort |
		awk -v k="$killed" -v u="$u" '$1 > k && $4 == u { print $2; exit }')
	[ "$st" = 304 ] || fail "$u: the first visit after $V's death got ${st:-nothing}, not 304 (its fetch history did not travel)"
done
pass "the survivors' first visits of $V's pages with validators were answered 304: their histories travelled"

cluster_no_overlap
pass "no host had two requests in flight at once, nor closer than the politeness delay"

grep -h "waiting for their revisits" n0/logs/tern.log $S/logs/tern.log |
	grep -qv " 0 waiting for their revisits" ||
	fail "no replay re-created a waiting revisit: $(grep -h 'log replayed' n0/logs/tern.log $S/logs/tern.log | tail -3)"
grep -qh "log compacted" n0/logs/tern.log n1/logs/tern.log n2/logs/tern.log ||
	fail "no partition was compacted"
pass "the survivors rebuilt $V's partitions with their revisits, across compactions"
