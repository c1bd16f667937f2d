# Shell harness for tern's integration tests and benchmarks. Source it from a
# POSIX sh script (dash is fine):
#
#     . "$top_srcdir/tests/lib.sh"
#     tw_start --hosts 10 --pages 50
#     dns_start
#     "$TERN" fetch --set dns.servers=$DNS_SERVER http://h0.web.test:$TW_PORT/
#     pass "fetched"
#
# Everything started here is stopped by pid from an EXIT/INT/TERM trap, on
# failure too. A script that needs its own cleanup registers it with
# `on_cleanup 'command'` (or tracks a background pid with `track_pid PID`)
# instead of replacing the trap. No fixed ports: the test web binds port 0
# and dnsmasq tries random high ports until one binds.
# Exit codes follow automake: 0 pass, 1 fail, 77 skip.

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
# libnats's own leaks at exit (tests/lsan.supp says which and why).
LSAN_OPTIONS="suppressions=$top_srcdir/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
TW_BIN=${TW_BIN:-$top_builddir/tests/testweb/testweb}

# dnsmasq and nats-server live in /usr/sbin, outside a user's PATH.
case ":$PATH:" in
*:/usr/sbin:*) ;;
*) PATH=$PATH:/usr/sbin:/sbin; export PATH ;;
esac

# A proxy in the caller's environment would route every test through it
# (tern reads these as curl does, tern.conf(5)): the tests that want a
# proxy start their own.
unset http_proxy https_proxy HTTPS_PROXY no_proxy NO_PROXY

_lib_pids=""
_lib_hooks=""
_lib_failed=0
TW_DIR=""

# Prints a message and fails the test (the trap stops what was started).
fail() {
	echo "FAIL: $*" >&2
	_lib_failed=1
	exit 1
}

pass() {
	echo "ok: $*"
}

# Skips the test (exit 77) when a command it needs is missing. scripts/check
# fails on a skip unless tests/skips-allowed.txt gives the reason it may.
need_cmd() {
	for _c in "$@"; do
		command -v "$_c" >/dev/null 2>&1 || { echo "SKIP: $_c not installed" >&2; exit 77; }
	done
}

# Registers a background pid to be stopped by cleanup.
track_pid() {
	_lib_pids="$_lib_pids $1"
}

# Registers a command for cleanup to run (before pids are stopped).
on_cleanup() {
	_lib_hooks="$_lib_hooks
$1"
}

# Stops one pid: TERM, up to 5 s of grace, then KILL; reaps it if our child.
stop_pid() {
	_p=$1
	kill -0 "$_p" 2>/dev/null || { wait "$_p" 2>/dev/null; return 0; }
	kill -TERM "$_p" 2>/dev/null
	_i=0
	while kill -0 "$_p" 2>/dev/null && [ $_i -lt 50 ]; do
		# A zombie child answers kill -0: wait reaps it once it has exited.
		if ! ps -o stat= -p "$_p" 2>/dev/null | grep -qv Z; then
			break
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -0 "$_p" 2>/dev/null && ps -o stat= -p "$_p" 2>/dev/null | grep -qv Z && kill -KILL "$_p" 2>/dev/null
	wait "$_p" 2>/dev/null
	return 0
}

cleanup() {
	_rc=$?
	trap - EXIT INT TERM
	if [ -n "$_lib_hooks" ]; then
		eval "$_lib_hooks" || true
	fi
	for _p in $_lib_pids; do
		stop_pid "$_p"
	done
	_lib_pids=""
	if [ -n "$TW_DIR" ] && [ -d "$TW_DIR" ]; then
		if [ "$_rc" -ne 0 ] && [ "$_rc" -ne 77 ] || [ "$_lib_failed" -ne 0 ] || [ -n "$KEEP_TMP" ]; then
			echo "test files kept in $TW_DIR" >&2
		else
			rm -rf "$TW_DIR"
		fi
	fi
	return "$_rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The per-test work directory (created on first use).
tw_dir() {
	if [ -z "$TW_DIR" ]; then
		TW_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tern-test.XXXXXX") || fail "mktemp"
		# dnsmasq drops root to nobody and must still read its hosts file.
		chmod 755 "$TW_DIR"
	fi
}

# A throwaway CA and a server certificate for *.web.test, web.test and
# 127.0.0.1: sets TW_CA_FILE, TW_CERT, TW_KEY.
tw_ca_make() {
	need_cmd openssl
	tw_dir
	_ca=$TW_DIR/ca
	mkdir -p "$_ca"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$_ca/ca.key" -out "$_ca/ca.pem" -days 2 -subj "/CN=tern test CA" \
		-addext "basicConstraints=critical,CA:TRUE" \
		-addext "keyUsage=critical,keyCertSign,cRLSign" >"$_ca/log" 2>&1 || fail "openssl CA: $(cat "$_ca/log")"
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$_ca/server.key" -out "$_ca/server.csr" -subj "/CN=web.test" >>"$_ca/log" 2>&1 ||
		fail "openssl server key: $(cat "$_ca/log")"
	printf '%s\n' "subjectAltName=DNS:*.web.test,DNS:web.test,IP:127.0.0.1" \
		"basicConstraints=CA:FALSE" "extendedKeyUsage=serverAuth" \
		"keyUsage=critical,digitalSignature" >"$_ca/ext.cnf"
	openssl x509 -req -in "$_ca/server.csr" -CA "$_ca/ca.pem" -CAkey "$_ca/ca.key" \
		-CAcreateserial -out "$_ca/server.pem" -days 2 -extfile "$_ca/ext.cnf" >>"$_ca/log" 2>&1 ||
		fail "openssl sign: $(cat "$_ca/log")"
	TW_CA_FILE=$_ca/ca.pem
	TW_CERT=$_ca/server.pem
	TW_KEY=$_ca/server.key
}

# Starts the test web. `--tls` (first argument) adds the HTTPS port (making
# the CA if tw_ca_make was not called); other arguments go to testweb.
# Sets TW_PORT TW_TLS_PORT TW_STALL_PORT TW_PID TW_HOSTS, and leaves
# $TW_DIR/requests.tsv, $TW_DIR/manifest.tsv, $TW_DIR/seeds.txt.
tw_start() {
	tw_dir
	[ -x "$TW_BIN" ] || fail "testweb not built: $TW_BIN (run make)"
	_tls=""
	if [ "$1" = "--tls" ]; then
		shift
		[ -n "$TW_CERT" ] || tw_ca_make
		_tls="--tls-cert $TW_CERT --tls-key $TW_KEY"
	fi
	TW_HOSTS=10
	_prev=""
	for _a in "$@"; do
		[ "$_prev" = "--hosts" ] && TW_HOSTS=$_a
		_prev=$_a
	done
	rm -f "$TW_DIR/ready"
	# The manifest of a million-page web takes seconds: benchmarks that do
	# not need it set TW_NO_MANIFEST=1.
	_man="--manifest $TW_DIR/manifest.tsv"
	[ -n "$TW_NO_MANIFEST" ] && _man=""
	# shellcheck disable=SC2086
	"$TW_BIN" --ready-file "$TW_DIR/ready" --request-log "$TW_DIR/requests.tsv" \
		$_man --seeds-file "$TW_DIR/seeds.txt" \
		$_tls "$@" >"$TW_DIR/testweb.log" 2>&1 &
	TW_PID=$!
	track_pid "$TW_PID"
	_i=0
	while [ ! -f "$TW_DIR/ready" ]; do
		kill -0 "$TW_PID" 2>/dev/null || fail "testweb exited: $(cat "$TW_DIR/testweb.log")"
		[ $_i -lt $((${TW_START_TIMEOUT:-60} * 10)) ] || fail "testweb not ready after $((_i / 10)) s"
		sleep 0.1
		_i=$((_i + 1))
	done
	_r=$(cat "$TW_DIR/ready")
	TW_PORT=$(echo "$_r" | sed -n 's/.*http=\([0-9]*\).*/\1/p')
	TW_TLS_PORT=$(echo "$_r" | sed -n 's/.*https=\([0-9]*\).*/\1/p')
	TW_STALL_PORT=$(echo "$_r" | sed -n 's/.*stall=\([0-9]*\).*/\1/p')
	[ -n "$TW_PORT" ] || fail "bad ready file: $_r"
	export TW_DIR TW_PORT TW_TLS_PORT TW_STALL_PORT TW_PID TW_HOSTS
}

# Stops the test web and waits for it, so its logs are complete; fails if
# it reported a sanitizer error (a leak at exit included).
tw_stop() {
	[ -n "$TW_PID" ] && stop_pid "$TW_PID"
	TW_PID=""
	if grep -q "Sanitizer" "$TW_DIR/testweb.log" 2>/dev/null; then
		cat "$TW_DIR/testweb.log" >&2
		fail "testweb reported a sanitizer error"
	fi
}

# tw_url I PATH: the URL of PATH on host hI over HTTP.
# tw_most_in_flight: the most requests the test web had open at once (from
# the request log, in $TW_DIR).
tw_most_in_flight() {
	awk -F'\t' '{ print $1, 1; print $2, 0 }' "$TW_DIR/requests.tsv" | sort -k1,1n -k2,2n |
		awk '$2 == 1 { n++; if (n > m) m = n; next } { n-- } END { print m + 0 }'
}

# tw_check_once: every page the manifest allows was requested exactly once
# (robots.txt aside), and nothing else was.
tw_check_once() {
	awk -F'\t' -v p="$TW_PORT" '$4 != "/robots.txt" { print "http://" $3 ":" p $4 }' \
		"$TW_DIR/requests.tsv" | sort >"$TW_DIR/requested.txt"
	awk -F'\t' '$2 == "allowed" { print $1 }' "$TW_DIR/manifest.tsv" | sort >"$TW_DIR/allowed.txt"
	[ -z "$(uniq -d "$TW_DIR/requested.txt")" ] ||
		fail "requested twice: $(uniq -d "$TW_DIR/requested.txt" | head -3)"
	cmp -s "$TW_DIR/requested.txt" "$TW_DIR/allowed.txt" ||
		fail "requests differ from the manifest: $(diff "$TW_DIR/allowed.txt" "$TW_DIR/requested.txt" | head -5)"
}

# tw_gaps HOST: the server's view of a queue's politeness and retry timing,
# from the request log: for each request to HOST after the first, in the
# order they started, one line "GAP_MS PREV_PATH PREV_STATUS PATH PREV_NTH",
# where GAP_MS (whole milliseconds, rounded down) runs from the end of the
# previous response (or the moment its connection closed) to the start of
# this request, and PREV_NTH says which request of its connection the
# previous one was (1: a new connection; a client may replay a request that
# failed on a reused connection at once). The server stamps its end before
# the client has the last byte and its start after the client sent the
# request, so a gap here is never shorter than the one the client waited.
tw_gaps() {
	sort -t "$(printf '\t')" -k1,1n "$TW_DIR/requests.tsv" |
		awk -F'\t' -v h="$1" 'function floor(x) { return x >= 0 || x == int(x) ? int(x) : int(x) - 1 }
			{ nth[$7]++ } $3 != h { next }
			seen { printf "%d %s %s %s %d\n", floor($1 - e), p, s, $4, pn }
			{ seen = 1; e = $2; p = $4; s = $5; pn = nth[$7] }'
}

tw_url() {
	echo "http://h$1.web.test:$TW_PORT$2"
}

# curl pointed at the test web whatever the host name, no DNS needed.
tw_curl() {
	curl --connect-to ::127.0.0.1: -s "$@"
}

_lib_random_port() {
	_n=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	echo $((20000 + _n % 40000))
}

# Starts dnsmasq on a free loopback UDP port answering h0..h{N-1}.web.test
# (N = TW_HOSTS, or DNS_HOSTS) and any extra names given as arguments with
# 127.0.0.1; every other name gets NXDOMAIN. Sets DNS_PORT DNS_PID DNS_SERVER.
dns_start() {
	need_cmd dnsmasq
	tw_dir
	_n=${DNS_HOSTS:-${TW_HOSTS:-10}}
	_h=$TW_DIR/hosts
	: >"$_h"
	_i=0
	while [ $_i -lt "$_n" ]; do
		echo "127.0.0.1 h$_i.web.test" >>"$_h"
		_i=$((_i + 1))
	done
	for _name in "$@"; do
		echo "127.0.0.1 $_name" >>"$_h"
	done
	chmod 644 "$_h"
	_try=0
	while [ $_try -lt 20 ]; do
		_try=$((_try + 1))
		DNS_PORT=$(_lib_random_port)
		rm -f "$TW_DIR/dnsmasq.pid" "$TW_DIR/dnsmasq.log"
		dnsmasq --keep-in-foreground --no-resolv --no-hosts -C /dev/null \
			--addn-hosts="$_h" --local=/test/ --local=/#/ --bind-interfaces \
			--listen-address=127.0.0.1 --port="$DNS_PORT" --pid-file="$TW_DIR/dnsmasq.pid" \
			--user="$(id -un)" --log-facility="$TW_DIR/dnsmasq.log" ${DNS_LOG_QUERIES:+--log-queries} \
			>"$TW_DIR/dnsmasq.out" 2>&1 &
		DNS_PID=$!
		_i=0
		while [ $_i -lt 50 ]; do
			kill -0 "$DNS_PID" 2>/dev/null || break
			grep -q "read $_h" "$TW_DIR/dnsmasq.log" 2>/dev/null && break
			sleep 0.1
			_i=$((_i + 1))
		done
		if kill -0 "$DNS_PID" 2>/dev/null && grep -q "read $_h" "$TW_DIR/dnsmasq.log" 2>/dev/null; then
			track_pid "$DNS_PID"
			DNS_SERVER=127.0.0.1:$DNS_PORT
			export DNS_PORT DNS_PID DNS_SERVER
			return 0
		fi
		stop_pid "$DNS_PID"
		grep -q "in use" "$TW_DIR/dnsmasq.out" "$TW_DIR/dnsmasq.log" 2>/dev/null ||
			fail "dnsmasq did not start: $(cat "$TW_DIR/dnsmasq.out" "$TW_DIR/dnsmasq.log" 2>/dev/null)"
	done
	fail "dnsmasq: no free port after 20 tries"
}

# A DNS server address that never answers (a bound UDP socket nobody reads),
# for timeout tests. Sets DNS_DEAD_SERVER and DNS_DEAD_PID.
dns_dead_start() {
	need_cmd node
	tw_dir
	rm -f "$TW_DIR/deaddns.port"
	node -e '
		const s = require("dgram").createSocket("udp4");
		s.bind(0, "127.0.0.1", () => {
			require("fs").writeFileSync(process.argv[1] + ".tmp", String(s.address().port));
			require("fs").renameSync(process.argv[1] + ".tmp", process.argv[1]);
		});' "$TW_DIR/deaddns.port" &
	DNS_DEAD_PID=$!
	track_pid "$DNS_DEAD_PID"
	_i=0
	while [ ! -f "$TW_DIR/deaddns.port" ]; do
		kill -0 "$DNS_DEAD_PID" 2>/dev/null || fail "dead DNS helper exited"
		[ $_i -lt 100 ] || fail "dead DNS helper not ready"
		sleep 0.1
		_i=$((_i + 1))
	done
	DNS_DEAD_SERVER=127.0.0.1:$(cat "$TW_DIR/deaddns.port")
	export DNS_DEAD_SERVER DNS_DEAD_PID
}

# warc_captured_uris FILE...: the target URIs of the response and revisit
# records in WARC files (missing files skipped), sorted and unique.
warc_captured_uris() {
	for _w in "$@"; do
		[ -f "$_w" ] || continue
		gzip -dc "$_w" 2>/dev/null | awk '
			/^WARC\/1\.[01]\r?$/ { inhead = 1; type = ""; next }
			inhead && /^\r?$/ { inhead = 0; next }
			inhead && /^WARC-Type:/ { type = $2; sub(/\r$/, "", type) }
			inhead && /^WARC-Target-URI:/ && (type == "response" || type == "revisit") { u = $2; sub(/\r$/, "", u); print u }'
	done | sort -u
}

# warc_revisit_uris WARC...: the target URIs of the revisit records, sorted.
warc_revisit_uris() {
	for _w in "$@"; do
		[ -f "$_w" ] || continue
		gzip -dc "$_w" 2>/dev/null | awk '
			/^WARC\/1\.[01]\r?$/ { inhead = 1; type = ""; next }
			inhead && /^\r?$/ { inhead = 0; next }
			inhead && /^WARC-Type:/ { type = $2; sub(/\r$/, "", type) }
			inhead && /^WARC-Target-URI:/ && type == "revisit" { u = $2; sub(/\r$/, "", u); print u }'
	done | sort
}

# nats_start [NAME]: nats-server with JetStream on an ephemeral loopback port,
# its store in $TW_DIR/nats-NAME (default "0"), its log in nats-NAME.log.
# Sets NATS_URL NATS_PORT NATS_PID (and NATS_PID_NAME for that name).
# NATS_PORT=N set by the caller reuses that port (a restart: nats_restart).
nats_start() {
	need_cmd nats-server
	tw_dir
	_nn=${1:-0}
	_nd=$TW_DIR/nats-$_nn
	mkdir -p "$_nd/store" "$_nd/ports"
	rm -f "$_nd/ports"/*
	nats-server -js -sd "$_nd/store" -a 127.0.0.1 -p "${NATS_PORT:--1}" -n "tern-test-$_nn" \
		--ports_file_dir "$_nd/ports" >"$TW_DIR/nats-$_nn.log" 2>&1 &
	NATS_PID=$!
	track_pid "$NATS_PID"
	_i=0
	while [ -z "$(cat "$_nd/ports"/*.ports 2>/dev/null)" ]; do
		kill -0 "$NATS_PID" 2>/dev/null || fail "nats-server exited: $(tail -5 "$TW_DIR/nats-$_nn.log")"
		[ $_i -lt 100 ] || fail "nats-server not ready after 10 s"
		sleep 0.1
		_i=$((_i + 1))
	done
	NATS_URL=$(sed -n 's/.*"nats":\["\([^"]*\)".*/\1/p' "$_nd/ports"/*.ports)
	NATS_PORT=${NATS_URL##*:}
	eval "NATS_PID_$_nn=$NATS_PID"
	export NATS_URL NATS_PORT NATS_PID
}

# nats_stop [NAME]: stops that server (TERM, as an operator would).
nats_stop() {
	eval "_np=\${NATS_PID_${1:-0}:-}"
	[ -n "$_np" ] && stop_pid "$_np"
}

# nats_restart [NAME] [PAUSE]: stops it, waits PAUSE seconds (default 1), and
# starts it again on the same port with the same store.
nats_restart() {
	_nr=${1:-0}
	nats_stop "$_nr"
	sleep "${2:-1}"
	NATS_PORT=$NATS_PORT nats_start "$_nr"
}

# nats_cluster_start N: N nats-servers with JetStream routed into one cluster
# on loopback (a replicated stream needs 3). Client ports are ephemeral;
# route ports are random and tried again if taken. Sets NATS_URL to the
# comma-separated client URLs, NATS_PIDS, and NATS_PID_CK for server K (0..N-1,
# named tern-cK); with NATS_MONITOR=1 each also serves its monitoring pages
# on an ephemeral port (nats_cluster_leader reads them).
nats_cluster_start() {
	need_cmd nats-server
	tw_dir
	_nc=$1
	_try=0
	while [ $_try -lt 5 ]; do
		_try=$((_try + 1))
		_routes="" _rports=""
		_k=0
		while [ $_k -lt "$_nc" ]; do
			_rp=$(_lib_random_port)
			_rports="$_rports $_rp"
			_routes="$_routes${_routes:+,}nats-route://127.0.0.1:$_rp"
			_k=$((_k + 1))
		done
		NATS_PIDS="" NATS_URL=""
		_k=0
		for _rp in $_rports; do
			_nd=$TW_DIR/natsc-$_k
			mkdir -p "$_nd/store" "$_nd/ports"
			rm -f "$_nd/ports"/*
			nats-server -js -sd "$_nd/store" -a 127.0.0.1 -p -1 -n "tern-c$_k" \
				${NATS_MONITOR:+-m -1} --cluster_name tern-test --cluster "nats://127.0.0.1:$_rp" --routes "$_routes" \
				--ports_file_dir "$_nd/ports" >"$TW_DIR/natsc-$_k.log" 2>&1 &
			track_pid $!
			NATS_PIDS="$NATS_PIDS $!"
			eval "NATS_PID_C$_k=$!"
			_k=$((_k + 1))
		done
		_ok=1
		_k=0
		for _p in $NATS_PIDS; do
			_i=0
			while [ -z "$(cat "$TW_DIR/natsc-$_k/ports"/*.ports 2>/dev/null)" ]; do
				kill -0 "$_p" 2>/dev/null || { _ok=0; break; }
				[ $_i -lt 100 ] || { _ok=0; break; }
				sleep 0.1
				_i=$((_i + 1))
			done
			[ $_ok -eq 1 ] || break
			NATS_URL="$NATS_URL${NATS_URL:+,}$(sed -n 's/.*"nats":\["\([^"]*\)".*/\1/p' "$TW_DIR/natsc-$_k/ports"/*.ports)"
			_k=$((_k + 1))
		done
		if [ $_ok -eq 1 ]; then
			# JetStream answers once the servers have a meta leader.
			_i=0
			until grep -q "JetStream cluster new metadata leader\|Self is new JetStream cluster metadata leader" \
				"$TW_DIR"/natsc-*.log 2>/dev/null; do
				[ $_i -lt 200 ] || fail "nats cluster: no metadata leader after 20 s"
				sleep 0.1
				_i=$((_i + 1))
			done
			export NATS_URL NATS_PIDS
			return 0
		fi
		for _p in $NATS_PIDS; do stop_pid "$_p"; done
		grep -q "address already in use" "$TW_DIR"/natsc-*.log ||
			fail "nats cluster did not start: $(tail -3 "$TW_DIR"/natsc-*.log)"
	done
	fail "nats cluster: no free route ports after 5 tries"
}

# nats_cluster_leader STREAM: K of the server tern-cK that leads STREAM (or
# the cluster's metadata with STREAM "meta"), as the servers of
# nats_cluster_start (with NATS_MONITOR=1) report it on their monitoring
# pages; empty if none does.
nats_cluster_leader() {
	need_cmd curl node
	for _pf in "$TW_DIR"/natsc-*/ports/*.ports; do
		_mu=$(sed -n 's/.*"monitoring":\["\([^"]*\)".*/\1/p' "$_pf")
		[ -n "$_mu" ] || continue
		curl -s -m 5 "$_mu/jsz?accounts=true&streams=true" >"$_pf.jsz" 2>/dev/null
	done
	node -e '
		const fs = require("fs"), want = process.argv[1];
		for (const f of process.argv.slice(2)) {
			let j;
			try { j = JSON.parse(fs.readFileSync(f, "utf8")); } catch (e) { continue; }
			if (want === "meta" && j.meta_cluster && j.meta_cluster.leader) {
				console.log(j.meta_cluster.leader.replace(/^tern-c/, ""));
				process.exit(0);
			}
			for (const a of j.account_details || [])
				for (const s of a.stream_detail || [])
					if (s.name === want && s.cluster && s.cluster.leader) {
						console.log(s.cluster.leader.replace(/^tern-c/, ""));
						process.exit(0);
					}
		}' "$1" "$TW_DIR"/natsc-*/ports/*.jsz 2>/dev/null
}
