#!/bin/sh
# A robots.txt Crawl-delay travels with a partition (doc/cluster.md,
# "Partitions and leases"): two nodes crawl a test web whose every seventh
# host asks for 12 s between requests; a moment after the node holding h0
# fetched a page there it is told to leave, and the other takes h0's
# partition over. From the server's own log, no host that asked for 12 s
# was sent two requests closer than that, the first request of the new
# owner included (its robots.txt: it holds no verdict for h0 yet). Before
# the delays travelled in the heartbeats, the new owner waited only the
# configured 100 ms after its claim, which came 4-6 s after the other
# node's last request there (its heartbeat's expiry).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server

tw_start --hosts 14 --pages 4 --links 3 --kb 1 --crawl-delay 12
dns_start
nats_start
cd "$TW_DIR" || fail "no work directory"
CLUSTER_ID=delay
cluster_node n0 -s "$TW_DIR/seeds.txt" --set politeness.respect-crawl-delay-up-to-seconds=30
cluster_node n1 --set politeness.respect-crawl-delay-up-to-seconds=30

# Whichever node fetched a page of h0 (after its robots.txt): wait for it,
# let a heartbeat or two carry the delay, then make that node leave.
h0=http://h0.web.test:$TW_PORT/
i=0
owner=""
while [ -z "$owner" ]; do
	for n in n0 n1; do
		c=$(awk -v u="$h0" 'index($4, u) == 1 && $4 !~ /robots\.txt$/' "$n/logs/crawl.log" 2>/dev/null | wc -l)
		[ "${c:-0}" -ge 1 ] && owner=$n
	done
	[ $i -lt 400 ] || fail "no node fetched a page of h0 in 40 s"
	sleep 0.1
	i=$((i + 1))
done
other=n1
[ "$owner" = n1 ] && other=n0
sleep 1.5
robots() { awk -F'\t' '$3 ~ /^h0\./ && $4 == "/robots.txt"' requests.tsv | wc -l; }
k=$(robots)
eval "kill -TERM \$NODE_PID_$owner"
cluster_left "$owner"
# Once the other node has fetched h0's robots.txt (the hand-over's first
# request there), it is told to leave too: the rest would only take time.
i=0
until [ "$(robots)" -gt "$k" ]; do
	[ $i -lt 600 ] || fail "$other did not fetch h0's robots.txt in 60 s after the hand-over"
	sleep 0.1
	i=$((i + 1))
done
eval "kill -TERM \$NODE_PID_$other"
cluster_left "$other"
# Every request to a host asking for 12 s came at least 12 s after the
# previous one ended (less 100 ms: the server stamps from its loop).
sort -t "$(printf '\t')" -k3,3 -k1,1n requests.tsv | awk -F'\t' '
	$3 ~ /^h(0|7)\.web\.test/ && $3 == h && $1 - e < 11900 { printf "%s: %.0f ms before %s\n", $3, $1 - e, $4; bad++ }
	{ h = $3; e = $2 }
	END { exit bad > 0 }' >gaps.txt ||
	fail "a host asking for Crawl-delay: 12 was sent requests closer than that: $(head -3 gaps.txt)"
gap=$(awk -F'\t' '$3 ~ /^h0\./ && $4 == "/robots.txt" { g = ($1 - e) / 1000 } $3 ~ /^h0\./ { e = $2 } END { printf "%.1f", g }' requests.tsv)
pass "h0 and h7 kept 12 s between requests across the hand-over ($owner to $other; $gap s before the new owner's robots.txt)"
