# Helpers shared by the policy_*.sh and ctl_*.sh tests (source after
# tests/lib.sh): a crawl against the test web with politeness out of the way
# unless a test sets it, and the control socket polled for states.

# policy_crawl JOB [tern crawl ARGS...]: runs tern crawl in the background
# with the test DNS, no robots Crawl-delay, zero politeness delay and one
# connection (later --set arguments win). Sets CRAWL_PID; output in JOB.out.
policy_crawl() {
	_job=$1
	shift
	"$TERN" crawl -j "$_job" --set dns.servers="$DNS_SERVER" \
		--set fetch.allow-private-addresses=true \
		--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
		--set politeness.respect-crawl-delay-up-to-seconds=0 \
		--set crawl.max-connections=1 --set crawl.max-hops=100 "$@" >"$_job.out" 2>&1 &
	CRAWL_PID=$!
	track_pid "$CRAWL_PID"
}

# policy_wait_exit [WANT]: waits for the crawl (60 s at most) and checks its
# exit status (default 0) and that no sanitizer complained.
policy_wait_exit() {
	_want=${1:-0}
	_i=0
	while kill -0 "$CRAWL_PID" 2>/dev/null; do
		[ $_i -lt 600 ] || fail "crawl still running after 60 s: $(tail -5 "$_job.out")"
		sleep 0.1
		_i=$((_i + 1))
	done
	wait "$CRAWL_PID"
	_rc=$?
	[ "$_rc" -eq "$_want" ] || fail "tern crawl exited $_rc, expected $_want: $(cat "$_job.out")"
	grep -q Sanitizer "$_job.out" && fail "sanitizer report: $(cat "$_job.out")"
	return 0
}

# policy_wait_sock JOB: waits until the crawl's control socket answers.
policy_wait_sock() {
	_i=0
	until "$TERN" ctl "$1" status >/dev/null 2>&1; do
		kill -0 "$CRAWL_PID" 2>/dev/null || fail "crawl exited early: $(cat "$1.out")"
		[ $_i -lt 300 ] || fail "no control socket in $1 after 30 s"
		sleep 0.1
		_i=$((_i + 1))
	done
}

# policy_state JOB: the crawl's state word from GET /status.
policy_state() {
	"$TERN" ctl "$1" status 2>/dev/null | sed -n 's/^ *"state": "\([A-Z]*\)".*/\1/p'
}

# policy_wait_state JOB STATE [EXTRA-GREP]: polls /status (30 s at most)
# until the state is STATE (and the status JSON matches EXTRA-GREP).
policy_wait_state() {
	_i=0
	while :; do
		_s=$("$TERN" ctl "$1" status 2>/dev/null)
		if echo "$_s" | grep -q "\"state\": \"$2\""; then
			[ -z "$3" ] || echo "$_s" | grep -q "$3" && return 0
		fi
		kill -0 "$CRAWL_PID" 2>/dev/null || fail "crawl exited while waiting for $2: $(cat "$1.out")"
		[ $_i -lt 300 ] || fail "state not $2 ${3:+($3) }after 30 s: $_s"
		sleep 0.1
		_i=$((_i + 1))
	done
}

# policy_pages: the test web's requests other than robots.txt, in the order
# they started, as "host path" lines.
policy_pages() {
	sort -t "$(printf '\t')" -k1,1n "$TW_DIR/requests.tsv" |
		awk -F'\t' '$4 != "/robots.txt" { print $3, $4 }'
}

# policy_violations CRAWL.LOG [PRECFILE]: with one connection, crawl.log's
# order is the frontier's emission order. Counts pairs that break the queue
# order the URI precedence promises: u emitted before v from the same host,
# both NORMAL (hop path ending in L, or seeds), v already queued when u went
# out (its via finished before u), and v's precedence strictly better. The
# precedence is 1 + the number of L hops, or, with PRECFILE ("URI VALUE"
# lines), 1 + VALUE for listed URIs and 1 otherwise.
policy_violations() {
	awk -v pf="${2:-}" '
	BEGIN { if (pf != "") while ((getline l < pf) > 0) { split(l, a, " "); pre[a[1]] = a[2] } }
	$4 ~ /^dns:/ || $4 ~ /\/robots\.txt$/ { next }
	{
		n++; uri[n] = $4; hops = $5; via = $6
		if (!($4 in line)) line[$4] = n
		h = $4; sub(/^[a-z]+:\/\//, "", h); sub(/\/.*/, "", h); host[n] = h
		normal[n] = (hops == "-" || hops ~ /L$/)
		if (pf != "") p[n] = ($4 in pre) ? 1 + pre[$4] : 1
		else { t = hops; p[n] = 1 + gsub(/L/, "", t) }
		disc[n] = (via == "-") ? 0 : ((via in line) ? line[via] : 0)
	}
	END {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (normal[i] && normal[j] && host[i] == host[j] && p[j] < p[i] && disc[j] < i) bad++
		print bad + 0
	}' "$1"
}
