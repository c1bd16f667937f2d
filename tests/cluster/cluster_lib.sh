# Helpers shared by the cluster_*.sh tests (source after tests/lib.sh):
# cluster nodes crawling the test web over a nats-server started by the
# test, and checks read from the server's request log and the nodes'
# crawl.logs. The test web's hosts share one registered domain (web.test),
# so nodes partition by queue (host and port).

# cluster_node NAME [tern crawl ARGS...]: starts node NAME (job directory
# $TW_DIR/NAME, output in NAME.out) in crawl id $CLUSTER_ID on $NATS_URL.
# Sets NODE_PID and NODE_PID_NAME. Partitions are compacted every
# $CLUSTER_COMPACT_KIB (16 by default: the test webs are small, and every
# test crosses compactions that way).
cluster_node() {
	_name=$1
	shift
	"$TERN" crawl -j "$TW_DIR/$_name" --cluster "$NATS_URL" --crawl-id "${CLUSTER_ID:-t}" \
		--set cluster.partition-by=queue --set cluster.partitions="${CLUSTER_PARTITIONS:-16}" \
		--set cluster.lease-seconds="${CLUSTER_LEASE:-4}" \
		--set cluster.compact-kib="${CLUSTER_COMPACT_KIB:-16}" \
		--set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
		--set politeness.min-delay-ms="${CLUSTER_MIN_DELAY:-100}" --set politeness.delay-factor=0 \
		--set politeness.respect-crawl-delay-up-to-seconds=0 \
		--set crawl.max-hops=500 --set crawl.max-connections=32 "$@" \
		>"$TW_DIR/$_name.out" 2>&1 &
	NODE_PID=$!
	eval "NODE_PID_$_name=$NODE_PID"
	track_pid "$NODE_PID"
}

# cluster_wait NAME [SECONDS]: waits for node NAME to exit (default 120 s);
# fails unless it exited 0 without a sanitizer report. A node that never
# ends fails the test with the last distinct lines of its log.
cluster_wait() {
	eval "_p=\$NODE_PID_$1"
	_i=0
	while kill -0 "$_p" 2>/dev/null && ps -o stat= -p "$_p" 2>/dev/null | grep -qv Z; do
		[ $_i -lt $((${2:-120} * 10)) ] || fail "node $1 still running after ${2:-120} s (the crawl did not end): $(tail -3 "$TW_DIR/$1.out")
$(tail -200 "$TW_DIR/$1/logs/tern.log" 2>/dev/null | cut -c26- | uniq -c | tail -5)"
		sleep 0.1
		_i=$((_i + 1))
	done
	wait "$_p"
	_rc=$?
	grep -q Sanitizer "$TW_DIR/$1.out" && fail "node $1: sanitizer report: $(grep -A5 Sanitizer "$TW_DIR/$1.out" | head -20)"
	[ "$_rc" -eq 0 ] || fail "node $1 exited $_rc: $(tail -5 "$TW_DIR/$1.out")"
}

# cluster_held NAME: how many partitions node NAME holds now (its cluster
# report), or -1 when it cannot say (not yet running).
cluster_held() {
	"$TERN" report "$TW_DIR/$1" cluster --json 2>/dev/null |
		node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
			try { console.log(JSON.parse(s).this_node.partitions_held); } catch (e) { console.log(-1); } })'
}

# cluster_each_holds N A B: waits (up to 30 s) until nodes A and B hold N
# partitions each: joining nodes settle their shares only once the fetches
# of what they give up have ended.
cluster_each_holds() {
	_i=0
	until [ "$(cluster_held "$2")" = "$1" ] && [ "$(cluster_held "$3")" = "$1" ]; do
		[ $_i -lt 300 ] || fail "the nodes did not hold $1 partitions each in 30 s ($2 $(cluster_held "$2"), $3 $(cluster_held "$3"))"
		sleep 0.1
		_i=$((_i + 1))
	done
}

# cluster_left NAME: waits (up to 30 s) for node NAME, told to leave by a
# signal, to exit; fails on a sanitizer report. Its exit status is not
# judged: a node given up while paused may be ending either way.
cluster_left() {
	eval "_p=\$NODE_PID_$1"
	_i=0
	while kill -0 "$_p" 2>/dev/null && ps -o stat= -p "$_p" | grep -qv Z; do
		[ $_i -lt 300 ] || fail "$1 still running 30 s after it was told to leave"
		sleep 0.1
		_i=$((_i + 1))
	done
	grep -q Sanitizer "$TW_DIR/$1.out" && fail "$1: sanitizer report: $(grep -A5 Sanitizer "$TW_DIR/$1.out" | head -20)"
	return 0
}

# cluster_requested: the page URLs the test web served (robots.txt aside),
# one per request, sorted, into $TW_DIR/requested.txt; the manifest's
# reachable pages into allowed.txt.
cluster_requested() {
	awk -F'\t' -v p="$TW_PORT" '$4 != "/robots.txt" { print "http://" $3 ":" p $4 }' \
		"$TW_DIR/requests.tsv" | sort >"$TW_DIR/requested.txt"
	awk -F'\t' '$2 == "allowed" { print $1 }' "$TW_DIR/manifest.tsv" | sort >"$TW_DIR/allowed.txt"
	[ -s "$TW_DIR/allowed.txt" ] || fail "empty manifest"
	_missing=$(sort -u "$TW_DIR/requested.txt" | comm -23 "$TW_DIR/allowed.txt" - | wc -l)
	[ "$_missing" -eq 0 ] || fail "$_missing reachable pages never requested: $(sort -u "$TW_DIR/requested.txt" | comm -23 "$TW_DIR/allowed.txt" - | head -3)"
	_extra=$(sort -u "$TW_DIR/requested.txt" | comm -13 "$TW_DIR/allowed.txt" - | wc -l)
	[ "$_extra" -eq 0 ] || fail "$_extra requested pages not in the manifest"
}

# cluster_no_overlap [SLACK_MS]: per host, from the server's own log, every
# request starts after the previous one ended (never two in flight at once,
# whichever node sent them), and at least min-delay minus SLACK_MS later
# (default 20 ms: the server stamps from its loop, late on a loaded box).
cluster_no_overlap() {
	sort -t "$(printf '\t')" -k3,3 -k1,1n "$TW_DIR/requests.tsv" | awk -F'\t' \
		-v d=$((${CLUSTER_MIN_DELAY:-100} - ${1:-20})) '
		$3 == h && $1 - e < d { printf "%s: gap %.1f ms before %s\n", $3, $1 - e, $4; bad++ }
		{ h = $3; e = $2 }
		END { exit bad > 0 }' >"$TW_DIR/gaps.txt" ||
		fail "a host had two requests in flight or too close: $(head -5 "$TW_DIR/gaps.txt")"
}

# cluster_hosts NAME: the hosts node NAME fetched pages from (its crawl.log),
# one a line, sorted.
cluster_hosts() {
	awk '$2 != "1" && $4 !~ /^dns:/ { sub(/^[a-z]+:\/\//, "", $4); sub(/[:\/].*/, "", $4); print $4 }' \
		"$TW_DIR/$1/logs/crawl.log" | sort -u
}

# cluster_resume_workers DIR: `tern resume DIR` of a two-worker job, run to
# its end (180 s at most); fails on a non-zero exit, a sanitizer report of
# a worker, or no summary.
cluster_resume_workers() {
	"$TERN" resume "$1" >resume.out 2>&1 &
	_rpid=$!
	track_pid $_rpid
	_i=0
	while kill -0 $_rpid 2>/dev/null; do
		[ $_i -lt 1800 ] || fail "tern resume still running after 180 s: $(cat resume.out)"
		sleep 0.1
		_i=$((_i + 1))
	done
	wait $_rpid
	_rc=$?
	[ $_rc -eq 0 ] || fail "tern resume exited $_rc: $(cat resume.out) $(tail -5 "$1/w0.out" "$1/w1.out")"
	grep -q Sanitizer "$1/w0.out" "$1/w1.out" &&
		fail "sanitizer report: $(grep -A5 Sanitizer "$1/w0.out" "$1/w1.out" | head -20)"
	grep -q "workers: .* pages" resume.out || fail "no summary: $(cat resume.out)"
}

# cluster_start_workers: `tern crawl --workers 2` of the test web into
# $TW_DIR/w (output in w.out, pid in WPID), returned once the workers have
# logged 300 pages (60 s at most).
cluster_start_workers() {
	"$TERN" crawl --workers 2 -j "$TW_DIR/w" -s "$TW_DIR/seeds.txt" \
		--set cluster.partition-by=queue --set cluster.partitions=16 --set cluster.lease-seconds=4 \
		--set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
		--set politeness.min-delay-ms=100 --set politeness.delay-factor=0 \
		--set politeness.respect-crawl-delay-up-to-seconds=0 --set crawl.max-hops=500 \
		--set crawl.max-connections=16 >w.out 2>&1 &
	WPID=$!
	track_pid $WPID
	_i=0
	while _n=$(cat w/w0/logs/crawl.log w/w1/logs/crawl.log 2>/dev/null | grep -c ' http'); [ "${_n:-0}" -lt 300 ]; do
		[ $_i -lt 600 ] || fail "the workers fetched fewer than 300 pages in 60 s: $(cat w.out)"
		kill -0 $WPID || fail "tern --workers exited: $(cat w.out)"
		sleep 0.1
		_i=$((_i + 1))
	done
}
