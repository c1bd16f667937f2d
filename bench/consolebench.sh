#!/bin/sh
# What the operator console costs the crawl (a benchmark, not a test; see
# bench/README.md). Needs chromium and tests/node_modules (scripts/deps).
#   bench/consolebench.sh [SECONDS [REPS]]      defaults 20 and 3
#   BENCH_BUILD=DIR bench/consolebench.sh       a configured build (-O2, no sanitizers)
#
# 1. Cost when watched: the same crawl of the test web (200 hosts, no
#    politeness delay, 100 connections, console.listen set) for SECONDS,
#    REPS times each way, interleaved: nobody watching; the requests a
#    browser on the overview makes each second, sent by node (the console's
#    own cost); a headless chromium on the overview (its script polls
#    /console/api/live every second) reloading the page every second (on a
#    small machine the browser also takes CPU from the crawl). Per run:
#    pages, pages/s, and the crawl's CPU time per page (user+sys: steadier
#    than wall-clock rates on a shared machine).
# 2. Bounded work: a crawl paused at start holding 100,000 queues (one seed
#    per host); the queues page in key order, sorted by size (a walk over
#    every queue record, 2,000 a loop iteration), its second page, and the
#    longest GET /status answered while the sorted walk ran.
# Prints a table of rows; nothing is asserted.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-20}
reps=${2:-3}
jobs=$(nproc 2>/dev/null || echo 2)
[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi) || exit 1
bdir=${BENCH_BUILD:-$top/build/bench}
mkdir -p "$bdir"
if [ ! -f "$bdir/Makefile" ]; then
	(cd "$bdir" && "$top/configure" -q CFLAGS="-O2 -g") || exit 1
fi
echo "consolebench: building tern (optimised) in $bdir"
make -C "$bdir" -j"$jobs" src/tern tests/testweb/testweb >"$bdir/make.out" 2>&1 ||
	{ tail -30 "$bdir/make.out"; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "consolebench: needs /usr/bin/time (scripts/deps --bench)"; exit 1; }
set +u
top_srcdir=$top
top_builddir=$bdir
TERN=$bdir/src/tern
. "$top/tests/lib.sh"
need_cmd dnsmasq node
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || fail "no chromium (scripts/deps)"

tw_start --hosts 200 --pages 100000 --kb 4 --links 10 --cross 0.02
dns_start
cd "$TW_DIR" || exit 1

# run MODE REP: one crawl; prints "MODE REP pages pages/s cpu-ms/page loads".
run() {
	job=$TW_DIR/job-$1-$2
	/usr/bin/time -f '%e %U %S' -o "$job.time" "$TERN" crawl -j "$job" -s "$TW_DIR/seeds.txt" \
		--set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
		--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
		--set politeness.respect-crawl-delay-up-to-seconds=0 --set crawl.max-connections=100 \
		--set crawl.max-time-seconds="$secs" --set warc.enabled=false \
		--set checkpoint.on-shutdown=false --set console.listen=127.0.0.1:0 >"$job.out" 2>&1 &
	pid=$!
	track_pid $pid
	loads=0
	if [ "$1" != none ]; then
		i=0
		until url=$(sed -n 's/^tern: console: //p' "$job.out") && [ -n "$url" ]; do
			[ $i -lt 100 ] || fail "no console URL: $(cat "$job.out")"
			sleep 0.1
			i=$((i + 1))
		done
		what=watch
		[ "$1" = requests ] && what=requests
		loads=$(node "$top/bench/consolebench.mjs" $what "$url" "$secs" | sed -n 's/^loads=//p')
	fi
	wait $pid
	pages=$(sed -n 's/.* \([0-9]*\) pages (.*/\1/p' "$job.out" | head -1)
	read -r wall user sys <"$job.time"
	awk -v m="$1" -v r="$2" -v p="$pages" -v w="$wall" -v u="$user" -v s="$sys" -v l="$loads" \
		'BEGIN { printf "%-8s %3d %9d %9.1f %8.3f %6d\n", m, r, p, p / w, (u + s) * 1000 / p, l }'
	rm -rf "$job"
}

echo
echo "1. A crawl for $secs s: nobody watching, a browser's requests every second, a browser reloading the overview every second"
echo "mode     rep     pages   pages/s  cpu-ms/p  loads"
r=1
while [ $r -le "$reps" ]; do
	run none $r
	run requests $r
	run browser $r
	r=$((r + 1))
done

echo
echo "2. 100,000 queues (a crawl paused at start): the queues page"
seeds=$TW_DIR/seeds-100k.txt
awk -v p="$TW_PORT" 'BEGIN { for (i = 0; i < 100000; i++) printf "http://h%d.web.test:%d/\n", i, p }' >"$seeds"
job=$TW_DIR/job-queues
"$TERN" crawl -j "$job" -s "$seeds" --set crawl.pause-at-start=true --set console.listen=127.0.0.1:0 \
	--set frontier.hold-queues=true >"$job.out" 2>&1 &
pid=$!
track_pid $pid
i=0
until "$TERN" ctl "$job" status 2>/dev/null | grep -q '"state": "PAUSED"'; do
	kill -0 $pid 2>/dev/null || fail "crawl exited: $(cat "$job.out")"
	[ $i -lt 1200 ] || fail "seeds not loaded after 120 s"
	sleep 0.1
	i=$((i + 1))
done
"$TERN" ctl "$job" status | grep '"total"'
url=$("$TERN" console "$job")
node "$top/bench/consolebench.mjs" probe "$url" | tr ' ' '\n'
"$TERN" ctl "$job" stop >/dev/null
wait $pid
