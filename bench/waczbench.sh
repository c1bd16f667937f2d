#!/bin/sh
# Speed and memory of `tern wacz` on a job of about SIZE_MB of WARCs:
#
#     bench/waczbench.sh [SIZE_MB]        # default 1000
#     BENCH_BUILD=DIR bench/waczbench.sh  # a configured build (-O2, no sanitizers)
#     ZIP64=1 bench/waczbench.sh 300      # also a package past 4 GiB (below)
#
# Builds tern optimised without sanitizers (build/bench, as bench/run does),
# crawls the test web (large pages, gzip-encoded as servers send them, so
# the WARC is about the bytes received) until crawl.max-bytes = SIZE_MB,
# then packages the job under /usr/bin/time -v, the WARCs in the page cache
# (they were just written): twice into the job's own file system, and once
# into /dev/shm (memory), which leaves out the cost of writing the package
# to disk. MB/s is WARC bytes over wall seconds, RSS the peak. The package
# is then checked with unzip -t. With ZIP64=1, the job's WARCs are also
# concatenated (a WARC is a series of gzip members, so the result is a
# valid WARC) into one file past 4 GiB, packaged, and the package checked
# with unzip -t and zipinfo: libzip must have written ZIP64 sizes and
# offsets. Needs dnsmasq and GNU time (scripts/deps --bench); ZIP64 needs
# about 2 x 4.3 GB of disk. Everything started is stopped by pid.
top=$(cd "$(dirname "$0")/.." && pwd)
size_mb=${1:-1000}
jobs=$(nproc 2>/dev/null || echo 2)
[ -x /usr/bin/time ] || { echo "waczbench: /usr/bin/time missing: scripts/deps --bench" >&2; exit 1; }
[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi) || exit 1
bdir=${BENCH_BUILD:-$top/build/bench}
mkdir -p "$bdir"
if [ ! -f "$bdir/Makefile" ]; then
	(cd "$bdir" && "$top/configure" -q CFLAGS="-O2 -g") || exit 1
fi
make -C "$bdir" -j"$jobs" src/tern tests/testweb/testweb >"$bdir/make.out" 2>&1 ||
	{ tail -30 "$bdir/make.out"; exit 1; }

top_srcdir=$top
top_builddir=$bdir
TERN=$bdir/src/tern
TW_NO_MANIFEST=1
. "$top/tests/lib.sh"

# 50 hosts x 400 pages of ~256 KB (about 80 KB gzip'd): 20,000 pages,
# more than any SIZE_MB up to 1,500 needs.
tw_start --hosts 50 --pages 400 --links 8 --cross 0.1 --kb 256
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
t0=$(date +%s)
"$TERN" crawl -j "$job" -s seeds.txt --set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=0 \
	--set politeness.delay-factor=0 --set politeness.respect-crawl-delay-up-to-seconds=0 \
	--set crawl.max-connections=64 --set crawl.max-bytes=$((size_mb * 1000000)) \
	--set crawl.max-hops=1000 >crawl.out 2>&1 || fail "crawl: $(tail -5 crawl.out)"
tw_stop
t1=$(date +%s)
warc_bytes=$(cat "$job"/warcs/*.warc.gz | wc -c)
nwarcs=$(ls "$job"/warcs/*.warc.gz | wc -l)
echo "waczbench: job of $nwarcs WARC files, $((warc_bytes / 1000000)) MB, crawled in $((t1 - t0)) s"

shm=/dev/shm/waczbench.$$.wacz
on_cleanup "rm -f $shm"
for run in disk disk shm; do
	out=$TW_DIR/job.wacz
	[ $run = shm ] && out=$shm
	rm -f "$out"
	/usr/bin/time -v "$TERN" wacz "$job" -o "$out" >wacz.out 2>time.out ||
		fail "tern wacz: $(cat wacz.out time.out)"
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' time.out |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' time.out)
	user=$(sed -n 's/.*User time (seconds): //p' time.out)
	sys=$(sed -n 's/.*System time (seconds): //p' time.out)
	awk -v b="$warc_bytes" -v w="$wall" -v r="$rss" -v u="$user" -v s="$sys" -v n="$run" 'BEGIN {
		printf "waczbench: into %s: %.0f MB of WARCs packaged in %.2f s wall (%.2f user, %.2f sys): %.0f MB/s, peak RSS %.1f MB\n",
			n, b / 1e6, w, u, s, b / 1e6 / w, r / 1024 }'
done
cat wacz.out
unzip -tq "$TW_DIR/job.wacz" >unzip.out 2>&1 || fail "unzip -t: $(tail -3 unzip.out)"
echo "waczbench: $(cat unzip.out)"

[ -n "${ZIP64:-}" ] || exit 0
mkdir -p big/warcs
n=0
while [ "$(cat big/warcs/*.warc.gz 2>/dev/null | wc -c)" -le 4400000000 ]; do
	cat "$job"/warcs/*.warc.gz >>big/warcs/BIG.warc.gz
	n=$((n + 1))
done
big_bytes=$(wc -c <big/warcs/BIG.warc.gz)
/usr/bin/time -v "$TERN" wacz big -o "$TW_DIR/big.wacz" >wacz.out 2>time.out || fail "tern wacz: $(cat wacz.out time.out)"
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' time.out |
	awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
awk -v b="$big_bytes" -v w="$wall" -v r="$(sed -n 's/.*Maximum resident set size (kbytes): //p' time.out)" \
	-v u="$(sed -n 's/.*User time (seconds): //p' time.out)" -v s="$(sed -n 's/.*System time (seconds): //p' time.out)" 'BEGIN {
	printf "waczbench: ZIP64: one %.0f MB WARC packaged in %.2f s wall (%.2f user, %.2f sys): %.0f MB/s, peak RSS %.1f MB\n",
		b / 1e6, w, u, s, b / 1e6 / w, r / 1024 }'
unzip -tq "$TW_DIR/big.wacz" >unzip.out 2>&1 || fail "unzip -t of the ZIP64 package: $(tail -3 unzip.out)"
zipinfo "$TW_DIR/big.wacz" "archive/BIG.warc.gz" | grep -q " $big_bytes .* stor .* archive/BIG.warc.gz\$" ||
	fail "zipinfo does not show the WARC's $big_bytes bytes stored: $(zipinfo "$TW_DIR/big.wacz" | head -5)"
echo "waczbench: ZIP64: $(cat unzip.out); zipinfo: archive/BIG.warc.gz stored, $big_bytes bytes"
rm -rf big "$TW_DIR/big.wacz"
