#!/bin/sh
# How long the crawl's loop stalls while GET /report/queues is answered (a
# benchmark, not a test; see bench/README.md and doc/performance.md).
#   bench/reportstall.sh [QUEUES [REPS]]          defaults 100000 and 3
#   TERN_BEFORE=PATH bench/reportstall.sh ...     also times another tern binary
#   BENCH_BUILD=DIR bench/reportstall.sh          a configured build to use
#   REPORT=hosts bench/reportstall.sh LINES ...   GET /report/hosts over a
#                                                 crawl.log of LINES lines instead
#   REPORT=frontier bench/reportstall.sh ...      GET /report/frontier (text)
#
# A crawl paused at start holding QUEUES queues (one seed per host of the
# test web). While `GET /report/queues` loads, GET /status is asked over
# and over on the control socket (by tests/ops/ctl_raw.mjs's `probe`, one
# request at a time): the longest /status answer is the longest the loop
# went without serving its sockets (plus one round trip). Printed per
# binary and repetition: the report's time, its bytes, the longest and the
# median /status answer while it loaded, and how many /status answers came
# meanwhile. Nothing is asserted.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
nq=${1:-100000}
reps=${2:-3}
bdir=${BENCH_BUILD:-$top/build/check}
[ -x "$bdir/src/tern" ] || { echo "reportstall: no $bdir/src/tern (build first, or set BENCH_BUILD)"; exit 1; }
set +u
top_srcdir=$top
top_builddir=$bdir
TERN=$bdir/src/tern
. "$top/tests/lib.sh"
need_cmd dnsmasq node

tw_start --hosts 4 --pages 10 --kb 1 --links 2 --cross 0
dns_start
cd "$TW_DIR" || exit 1
seeds=$TW_DIR/seeds-many.txt
if [ "${REPORT:-queues}" = hosts ]; then
	awk -v p="$TW_PORT" 'BEGIN { for (i = 0; i < 100; i++) printf "http://h%d.web.test:%d/\n", i, p }' >"$seeds"
else
	awk -v n="$nq" -v p="$TW_PORT" 'BEGIN { for (i = 0; i < n; i++) printf "http://h%d.web.test:%d/\n", i, p }' >"$seeds"
fi

# one NAME BINARY REP: a paused crawl with the queues, the report timed
# while /status is probed.
one() {
	job=$TW_DIR/job-$1-$3
	"$2" crawl -j "$job" -s "$seeds" --set crawl.pause-at-start=true \
		--set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true >"$job.out" 2>&1 &
	pid=$!
	track_pid $pid
	i=0
	until "$2" ctl "$job" status 2>/dev/null | grep -q '"state": "PAUSED"'; do
		kill -0 $pid 2>/dev/null || fail "crawl exited: $(tail -3 "$job.out")"
		[ $i -lt 6000 ] || fail "seeds not loaded after 600 s"
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	if [ "${REPORT:-queues}" = hosts ]; then
		# LINES lines of 1,000 hosts appended to the paused crawl's log.
		awk -v n="$nq" 'BEGIN { for (i = 0; i < n; i++)
			printf "2026-01-01T00:00:00.000Z   200      14000 http://x%d.example/p%08d - - text/html #001 20260101000000000+1 sha1:BVEAJXYRDNQMHWDLCQBTYWWWSTTPGAMW - -\n", i % 1000, i }' >>"$job/logs/crawl.log"
		node "$top/bench/reportstall.mjs" "$job/control.sock" /report/hosts | sed "s/^/$1 $3 /"
	else
		node "$top/bench/reportstall.mjs" "$job/control.sock" "/report/${REPORT:-queues}" |
			sed "s/^/$1 $3 /"
	fi
	"$2" ctl "$job" stop >/dev/null
	wait $pid
	rm -rf "$job"
}

echo "# binary rep queues report-ms report-bytes status-max-ms status-median-ms status-answers"
r=1
while [ $r -le "$reps" ]; do
	[ -n "${TERN_BEFORE:-}" ] && one before "$TERN_BEFORE" $r
	one after "$TERN" $r
	r=$((r + 1))
done
