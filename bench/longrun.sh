#!/bin/sh
# bench/longrun.sh [SECONDS [HOSTS PAGES [TERN]]]: a continuous crawl that
# keeps revisiting the same URIs for a long time, to show that its memory
# and its store's disk stay flat once every URI has been seen: Debian's
# nginx serves HOSTS x PAGES static pages (bench/nginx.sh, one port a host,
# 4 KB pages), tern crawls them with crawl.mode=continuous and revisit
# intervals shrunk to seconds (revisit.initial-, min- and max-interval-
# seconds), so that each URI is visited again every 10-20 s and hundreds of
# times in an hour; nginx answers the conditional revisits with 304, which
# are archived as revisit records (WARCs on, rotated at 100 MB).
#
# Every 10 s it samples the crawl: pages so far, the process's resident and
# peak memory, the store's size on disk (state/) and the WARCs' (warcs/),
# into build/longrun/longrun.tsv, plotted by bench/longrun.gp into
# build/longrun/longrun.png. Defaults: 3600 s, 100 hosts x 1000 pages
# (100,000 URIs), build/bench/src/tern. NICE=N runs tern and nginx under
# nice (default 0).
set -u
KEEP_TMP=${KEEP_TMP:-}
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-3600}
hosts=${2:-100}
pages=${3:-1000}
TERN=${4:-$top/build/bench/src/tern}
NICE=${NICE:-0}
top_srcdir=$top
top_builddir=${BENCH_BUILD:-$top/build/bench}
. "$top/tests/lib.sh"
. "$top/bench/nginx.sh"
command -v nginx >/dev/null || fail "nginx is not installed (scripts/deps --bench)"
[ -x "$TERN" ] || fail "$TERN: no such program (make -C build/bench src/tern tests/testweb/testweb)"
ulimit -n 65536 2>/dev/null || true
out=$top/build/longrun
mkdir -p "$out"
tw_dir
W=$TW_DIR
ngx_web "$W/ngx" "$hosts" "$pages" 4 20
ngx_start "$W/ngx" off
[ "$NICE" -gt 0 ] && renice -n "$NICE" -p "$NGX_PID" $(cat "/proc/$NGX_PID/task/$NGX_PID/children" 2>/dev/null) >/dev/null
job=$W/job
# shellcheck disable=SC2086
nice -n "$NICE" "$TERN" crawl -j "$job" -s "$W/ngx/seeds.txt" $TERN_MATCHED \
	--set crawl.mode=continuous --set crawl.sitemaps=false \
	--set crawl.max-connections=64 --set crawl.max-time-seconds="$secs" \
	--set revisit.initial-interval-seconds=10 --set revisit.min-interval-seconds=10 \
	--set revisit.max-interval-seconds=20 --set warc.max-size-bytes=100000000 \
	>"$W/crawl.out" 2>&1 &
pid=$!
track_pid "$pid"
tsv=$out/longrun.tsv
printf 'seconds\tpages\trss_kb\thwm_kb\tstate_bytes\twarc_bytes\n' >"$tsv"
t0=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
	sleep 10
	kill -0 "$pid" 2>/dev/null || break
	now=$(($(date +%s) - t0))
	st=$(curl -s --max-time 5 --unix-socket "$job/control.sock" http://localhost/status 2>/dev/null)
	p=$(printf '%s' "$st" | sed -n 's/.*"pages": *\([0-9]*\).*/\1/p')
	# A crawl that is stopping no longer answers: its last figures stand.
	[ -n "$p" ] || continue
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	sb=$(du -sb "$job/state" 2>/dev/null | awk '{ print $1 }')
	wb=$(du -sb "$job/warcs" 2>/dev/null | awk '{ print $1 }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$now" "${p:-0}" "${rss:-0}" "${hwm:-0}" "${sb:-0}" "${wb:-0}" >>"$tsv"
done
wait "$pid"
rc=$?
ngx_stop
[ "$rc" -eq 0 ] || fail "tern exited $rc: $(tail -5 "$W/crawl.out")"
tail -3 "$W/crawl.out"
# The flat part: from the first minute after every URI was visited once.
awk -F'\t' -v n="$((hosts * pages))" 'NR > 1 && $2 > 0 {
	if (!start && $2 >= 2 * n) { start = 1; r0 = $3; s0 = $5 }
	if (start) { r1 = $3; s1 = $5; last = $2 }
} END {
	if (!start) { print "never visited every URI twice"; exit 1 }
	printf "after the second round (%d pages in all): RSS %d -> %d kB, store %d -> %d bytes\n", last, r0, r1, s0, s1
}' "$tsv"
command -v gnuplot >/dev/null && gnuplot -e "tsv='$tsv'; png='$out/longrun.png'" "$top/bench/longrun.gp" &&
	echo "plot: $out/longrun.png"
echo "samples: $tsv"
