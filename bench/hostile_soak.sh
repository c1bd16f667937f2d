#!/bin/sh
# The long soak against mutated answers: tests/crawl/crawl_soak.sh with PAGES pages
# (default 20000, a few minutes), on the sanitizer build that scripts/check
# uses (build/check: ASan and UBSan, leaks at exit), so that a crash, a leak
# or a sanitizer report in any of the rarer paths fails it:
#
#     bench/hostile_soak.sh [PAGES]
#     BENCH_BUILD=DIR bench/hostile_soak.sh   # another configured build
#
# Prints the test's line (pages, crawl.log lines, failures, peak RSS) and
# the time it took. The RSS bound is SOAK_RSS_MB (400 by default: under
# ASan 2 x 10000 pages peaked at 149 MB, the seen set and the store's
# memtables filling; a plain build held 2 x 4000 in 24 MB). Everything started is stopped by pid (tests/lib.sh).
top=$(cd "$(dirname "$0")/.." && pwd)
pages=${1:-20000}
build=${BENCH_BUILD:-$top/build/check}
[ -x "$build/src/tern" ] || { echo "hostile_soak: no tern in $build (build it first: doc/HACKING.md)" >&2; exit 1; }
t0=$(date +%s)
HOSTILE_MUT_PAGES=$pages SOAK_RSS_MB=${SOAK_RSS_MB:-400} top_srcdir=$top top_builddir=$build TERN=$build/src/tern \
	sh "$top/tests/crawl/crawl_soak.sh"
rc=$?
echo "hostile_soak: $pages pages in $(($(date +%s) - t0)) s, exit $rc"
exit $rc
