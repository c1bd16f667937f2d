#!/bin/sh
# HTTP/2 against HTTP/1.1 over TLS on the same nginx web: pages/s and CPU
# per page of tern crawls with fetch.http2=true (ALPN picks h2) and false
# (HTTP/1.1), alternating, REPS times each.
#
#   bench/h2bench.sh [HOSTS] [PAGES] [REPS]     # default 50 100 3, ~2 min
#   BUILD=build/rel bench/h2bench.sh            # the build to measure (no sanitizers)
#
# The web is tests/testweb's, written as files (14 KB pages, 6 links,
# gzip_static) for HOSTS loopback ports served by Debian's nginx (one
# worker) with TLS and http2 on the listen line; every host is named
# h0.web.test (dnsmasq) on its own port, so each port is a queue with its
# own connection. Crawls have the benches' matched settings (bench/nginx.sh:
# no politeness delay), WARC writing on, 100 connections. Printed per run:
# protocol as nginx logged it, pages, wall seconds, pages/s, tern's CPU
# seconds (user + system) and CPU ms per page, nginx's CPU ms per page,
# connections nginx saw; then the medians.
set -e
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build/rel}
top_builddir=$top_srcdir/$BUILD
TERN=$top_builddir/src/tern
[ -x "$TERN" ] || { echo "no $TERN: build without sanitizers first (BUILD=...)" >&2; exit 2; }
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
need_cmd nginx dnsmasq curl /usr/bin/time
HOSTS=${1:-50}
PAGES=${2:-100}
REPS=${3:-3}
tw_dir
tw_ca_make
DNS_HOSTS=1 dns_start
ngx_web "$TW_DIR/site" "$HOSTS" "$PAGES" 14 6
find "$TW_DIR/site/web" -type f -name '*.html' -exec sed -i "s|http://127\.0\.0\.1:|https://h0.web.test:|g" {} +
find "$TW_DIR/site/web" -type f -name '*.html' -exec sh -c 'for f; do gzip -6 -n -c "$f" >"$f.gz"; done' _ {} +
sed "s|http://127\.0\.0\.1:|https://h0.web.test:|" "$TW_DIR/site/seeds.txt" >"$TW_DIR/seeds.txt"
NGX_CERT=$TW_CERT NGX_KEY=$TW_KEY NGX_TLS=h2
export NGX_CERT NGX_KEY NGX_TLS
ngx_start "$TW_DIR/site" static
HZ=$(getconf CLK_TCK)

printf 'run\tprotocol\tpages\twall_s\tpages_s\ttern_cpu_s\ttern_cpu_ms_page\tnginx_cpu_ms_page\tconnections\n'
: >"$TW_DIR/rows"
r=0
while [ $r -lt "$REPS" ]; do
	for h2 in true false; do
		job=$TW_DIR/job-$h2-$r
		: >"$NGX_LOG"
		c0=$(ngx_cpu)
		/usr/bin/time -f '%e %U %S' -o "$TW_DIR/time" "$TERN" crawl -j "$job" $TERN_MATCHED \
			--set "dns.servers=$DNS_SERVER" --set "fetch.ca-file=$TW_CA_FILE" \
			--set crawl.max-connections=100 --set warc.enabled=true --set "fetch.http2=$h2" \
			-s "$TW_DIR/seeds.txt" >"$job.out" 2>&1 || fail "tern crawl: $(tail -5 "$job.out")"
		c1=$(ngx_cpu)
		pages=$(awk '$2 > 0 && $4 !~ /^dns:/' "$job/logs/crawl.log" | wc -l)
		proto=$(awk -F'\t' '{ print $9 }' "$NGX_LOG" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
		conns=$(awk -F'\t' '{ print $7 }' "$NGX_LOG" | sort -u | wc -l)
		read -r wall u s <"$TW_DIR/time"
		awk -v run="$r" -v p="$proto" -v n="$pages" -v w="$wall" -v u="$u" -v s="$s" \
			-v ng="$((c1 - c0))" -v hz="$HZ" -v c="$conns" 'BEGIN {
			printf "%d\t%s\t%d\t%.2f\t%.0f\t%.2f\t%.3f\t%.3f\t%d\n", run, p, n, w, n / w,
				u + s, (u + s) * 1000 / n, ng * 1000 / hz / n, c }' | tee -a "$TW_DIR/rows"
		[ -n "${KEEP_JOBS:-}" ] || rm -rf "$job"
	done
	r=$((r + 1))
done
echo "medians:"
for p in HTTP/2.0 HTTP/1.1; do
	awk -F'\t' -v p="$p" '$2 == p' "$TW_DIR/rows" | sort -t'	' -k5,5n | awk -F'\t' '
		{ a[NR] = $0 } END { if (NR) print a[int((NR + 1) / 2)] }'
done
