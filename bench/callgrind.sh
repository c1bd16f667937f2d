#!/bin/sh
# bench/callgrind.sh [HOSTS PAGES [TERN]]: instructions per page of one
# tern crawl of the nginx web (bench/nginx.sh: gzip off, ~14 KB pages, 20
# links a page, WARC off, C=64, bench/run's matched settings), counted by
# valgrind's callgrind. Instruction counts do not depend on how loaded the
# machine is, so this compares two builds where wall-clock figures cannot.
# Prints the total, the SHA-1 part (all of libcrypto's instructions: under
# valgrind OpenSSL takes its generic SHA-1 code, not the SHA-NI code that
# runs natively, so that part says nothing about the real cost) and the
# instructions per request (nginx's access log: pages and robots.txt) with
# and without it; keeps callgrind.out in build/callgrind/ for
# callgrind_annotate. Defaults: 50 hosts x 100 pages, build/bench/src/tern
# (bench/run's optimised build). WARC=true crawls with WARCs on: the counts
# are then the loop's thread alone (callgrind --separate-threads), without
# the threads that build the records (archive/warcpool.c).
set -u
KEEP_TMP=${KEEP_TMP:-}
top=$(cd "$(dirname "$0")/.." && pwd)
hosts=${1:-50}
pages=${2:-100}
TERN=${3:-$top/build/bench/src/tern}
WARC=${WARC:-false}
top_srcdir=$top
top_builddir=${BENCH_BUILD:-$top/build/bench}	# its tests/testweb/testweb writes the web
. "$top/tests/lib.sh"
. "$top/bench/nginx.sh"
command -v valgrind >/dev/null || fail "valgrind is not installed"
command -v nginx >/dev/null || fail "nginx is not installed"
[ -x "$TERN" ] || fail "$TERN: no such program (build it: make -C build/bench src/tern tests/testweb/testweb)"
ulimit -n 65536 2>/dev/null || true
tw_dir
W=$TW_DIR
ngx_web "$W/ngx" "$hosts" "$pages" 14 20
ngx_start "$W/ngx" off
out=$top/build/callgrind
mkdir -p "$out"
cg=$out/callgrind.out.$(basename "$TERN").$(date +%Y%m%d-%H%M%S)
# shellcheck disable=SC2086
sep=no
[ "$WARC" = true ] && sep=yes
valgrind --tool=callgrind --separate-threads=$sep --callgrind-out-file="$cg" "$TERN" crawl -j "$W/job" -s "$W/ngx/seeds.txt" \
	$TERN_MATCHED --set crawl.max-connections=64 --set warc.enabled="$WARC" \
	>"$W/crawl.out" 2>"$W/valgrind.out" ||
	fail "tern under callgrind: $(tail -5 "$W/valgrind.out")"
ngx_stop
# The loop's thread is the first.
[ $sep = yes ] && cg=$cg-01
lines=$(wc -l <"$W/job/logs/crawl.log")
requests=$(wc -l <"$NGX_LOG")
[ "$requests" -gt 0 ] || fail "nginx logged no request: $(tail -3 "$W/crawl.out")"
total=$(callgrind_annotate --inclusive=no "$cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
sha=$(callgrind_annotate --inclusive=no --threshold=100 "$cg" 2>/dev/null |
	awk 'tolower($0) ~ /sha1|libcrypto/ { v = $1; gsub(",", "", v); s += v } END { printf "%.0f\n", s }')
echo "crawl.log lines $lines, nginx requests $requests"
awk -v t="$total" -v s="$sha" -v n="$requests" 'BEGIN {
	printf "Ir total %.0f, SHA-1 %.0f; per request %.0f, without SHA-1 %.0f\n", t, s, t / n, (t - s) / n }'
echo "profile: $cg"
