#!/bin/sh
# bench/cpucompare.sh HOSTS PAGES REPS TERN_A TERN_B: CPU time (user+sys)
# per request of two tern programs crawling the same nginx web (as
# bench/callgrind.sh: gzip off, WARC off, C=64, bench/run's settings), run
# alternately REPS times each so that a shared machine's load falls on both
# alike. Prints each run and the medians in ms per request (nginx's access
# log: pages and robots.txt). Wall-clock figures are left out on purpose.
# PERF=DIR records each run with perf (cpu-clock samples, so it works in a
# VM without hardware counters) into DIR/A.N.data and DIR/B.N.data; the CPU
# times then include perf's own.
set -u
KEEP_TMP=${KEEP_TMP:-}
[ $# -eq 5 ] || { echo "usage: bench/cpucompare.sh HOSTS PAGES REPS TERN_A TERN_B" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
hosts=$1 pages=$2 reps=$3 a=$4 b=$5
top_srcdir=$top
top_builddir=${BENCH_BUILD:-$top/build/bench}	# its tests/testweb/testweb writes the web
. "$top/tests/lib.sh"
. "$top/bench/nginx.sh"
command -v nginx >/dev/null || fail "nginx is not installed"
[ -x /usr/bin/time ] || fail "/usr/bin/time is not installed"
[ -z "${PERF:-}" ] || command -v perf >/dev/null || fail "PERF is set and perf is not installed (apt-get install linux-perf)"
ulimit -n 65536 2>/dev/null || true
tw_dir
W=$TW_DIR
ngx_web "$W/ngx" "$hosts" "$pages" 14 20
ngx_start "$W/ngx" off
: >"$W/rows"
i=1
while [ $i -le "$reps" ]; do
	for t in A B; do
		prog=$a
		[ $t = B ] && prog=$b
		rm -rf "$W/job"
		: >"$NGX_LOG"
		rec=
		[ -n "${PERF:-}" ] && mkdir -p "$PERF" && rec="perf record -q -e cpu-clock -F 4999 -o $PERF/$t.$i.data --"
		# shellcheck disable=SC2086
		/usr/bin/time -f '%U %S' -o "$W/time" $rec "$prog" crawl -j "$W/job" -s "$W/ngx/seeds.txt" \
			$TERN_MATCHED --set crawl.max-connections=64 --set warc.enabled=false >"$W/out" 2>&1 ||
			fail "$prog: $(tail -3 "$W/out")"
		n=$(wc -l <"$NGX_LOG")
		[ "$n" -gt 0 ] || fail "$prog: nginx logged no request: $(tail -3 "$W/out")"
		awk -v t=$t -v n="$n" '{ printf "%s %d requests, %.2f s CPU, %.4f ms a request\n", t, n, $1 + $2, ($1 + $2) * 1000 / n }' "$W/time" |
			tee -a "$W/rows"
	done
	i=$((i + 1))
done
ngx_stop
for t in A B; do
	awk -v t=$t '$1 == t { print $(NF - 3) }' "$W/rows" | sort -n |
		awk -v t=$t '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s median %.4f ms a request (%d runs)\n", t, m, NR }'
done
