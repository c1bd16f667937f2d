#!/bin/sh
# What each fetch.accept-encoding costs (doc/performance.md, "Content
# codings"): the same static web served by Debian's nginx as identity,
# gzip, br and zstd, crawled by tern asking for each; bytes on the wire and
# in the WARCs per page, and tern's CPU per page.
#
#   bench/encodings.sh [HOSTS PAGES KB LINKS]    (default 10 500 14 20)
#
# Every text file of the web (tests/testweb --write-dir, ~14 KB pages as in
# bench/run's nginx workloads) is precompressed as a tuned static site
# does: gzip -6 (the generator's), brotli -q 11, zstd -19. nginx serves
# the .gz copies with gzip_static and the .br ones with brotli_static
# (Debian's libnginx-mod-http-brotli-static); Debian 12 has no zstd module
# for nginx, so zstd is a second tree of zstd files under the plain names,
# sent with a fixed Content-Encoding: zstd (as a server that ignores
# Accept-Encoding does). Compressing per request is left out on purpose:
# it would measure nginx, not the crawler.
#
# Each coding is crawled BENCH_REPS times (3) without WARCs (CPU) and once
# with them (WARC bytes); CPU is user+system of tern from /usr/bin/time,
# its median reported. Uses an optimised build (build/bench, or
# BENCH_BUILD), as bench/run does. Writes bench/results/encodings.tsv and
# prints the table.
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
hosts=${1:-10} pages=${2:-500} kb=${3:-14} links=${4:-20}
reps=${BENCH_REPS:-3}
for c in nginx brotli zstd curl ss; do
	command -v $c >/dev/null 2>&1 || { echo "bench/encodings.sh: $c missing (scripts/deps --bench)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench/encodings.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
BR_MOD=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so
[ -f $BR_MOD ] || { echo "bench/encodings.sh: $BR_MOD missing (apt-get install libnginx-mod-http-brotli-static)" >&2; exit 1; }

bdir=${BENCH_BUILD:-$top/build/bench}
if [ ! -f "$bdir/Makefile" ]; then
	mkdir -p "$bdir" && (cd "$bdir" && "$top/configure" -q CFLAGS="-O2 -g") || exit 1
fi
make -C "$bdir" -j"$(nproc 2>/dev/null || echo 2)" src/tern tests/testweb/testweb >"$bdir/make.out" 2>&1 ||
	{ echo "bench/encodings.sh: build failed: $bdir/make.out" >&2; exit 1; }
top_srcdir=$top top_builddir=$bdir TERN=$bdir/src/tern
export top_srcdir top_builddir TERN
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
# shellcheck source=bench/nginx.sh
. "$top/bench/nginx.sh"
tw_dir
W=$TW_DIR

echo "bench: writing the web: $hosts hosts x $pages pages of ~$kb KB, $links links a page"
ngx_web "$W/ngx" "$hosts" "$pages" "$kb" "$links"
# The text files are those the generator gave a .gz copy.
find "$W/ngx/web" -name '*.gz' | sed 's/\.gz$//' >"$W/text.txt"
echo "bench: brotli -q 11 and zstd -19 of $(wc -l <"$W/text.txt") files"
xargs -P "$(nproc 2>/dev/null || echo 2)" -n 200 brotli -q 11 -f -k <"$W/text.txt" ||
	fail "brotli failed"
cp -a "$W/ngx/web" "$W/ngx/webzst"
find "$W/ngx/webzst" \( -name '*.gz' -o -name '*.br' \) -delete
sed "s|^$W/ngx/web/|$W/ngx/webzst/|" "$W/text.txt" >"$W/textzst.txt"
while read -r f; do
	zstd -q -19 -f "$f" -o "$f.zst" && mv "$f.zst" "$f"
done <"$W/textzst.txt"

# enc_start CODING: nginx serving the web for that coding.
enc_start() {
	_d=$W/ngx
	mkdir -p "$_d/nginx"
	: >"$_d/nginx/access.tsv"
	{
		echo "load_module $BR_MOD;"
		echo "daemon off;"
		echo "worker_processes 1;"
		echo "user $(id -un) $(id -gn);"
		echo "pid $_d/nginx/nginx.pid;"
		echo "error_log $_d/nginx/error.log warn;"
		echo "events { worker_connections 8192; }"
		echo "http {"
		echo "	types { text/html html; text/css css; image/png png; text/plain txt; }"
		echo "	default_type application/octet-stream;"
		echo "	sendfile on; tcp_nopush on; tcp_nodelay on;"
		echo "	keepalive_timeout 65s;"
		echo "	log_format tsv '\$msec\t\$msec\t\$server_port\t\$request_uri\t\$status\t\$body_bytes_sent\t\$connection\t\$sent_http_content_encoding';"
		echo "	access_log $_d/nginx/access.tsv tsv;"
		echo "	gzip off;"
		[ "$1" = gzip ] && echo "	gzip_static on;"
		[ "$1" = br ] && echo "	brotli_static on;"
		echo "	server {"
		awk -v b="$NGX_BASE" -v n="$NGX_HOSTS" 'BEGIN { for (i = 0; i < n; i++) printf "\t\tlisten 127.0.0.1:%d;\n", b + i }'
		if [ "$1" = zstd ]; then
			echo "		root $_d/webzst/\$server_port;"
			echo "		location ~ (\\.(html|css|txt)|/)\$ { add_header Content-Encoding zstd; }"
		else
			echo "		root $_d/web/\$server_port;"
		fi
		echo "		location ~ ^/r/0\$ { return 301 /; }"
		echo "		location ~ ^/r/([0-9]+)\$ { return 301 /p/\$1.html; }"
		echo "	}"
		echo "}"
	} >"$_d/nginx/nginx.conf"
	nginx -p "$_d/nginx" -c "$_d/nginx/nginx.conf" -e "$_d/nginx/error.log" >"$_d/nginx/out.txt" 2>&1 &
	NGX_PID=$!
	track_pid "$NGX_PID"
	_i=0
	while [ $_i -lt 100 ]; do
		kill -0 "$NGX_PID" 2>/dev/null || fail "nginx did not start: $(tail -5 "$_d/nginx/error.log" "$_d/nginx/out.txt" 2>/dev/null)"
		curl -s -o /dev/null "http://127.0.0.1:$((NGX_BASE + NGX_HOSTS - 1))/robots.txt" && break
		sleep 0.1
		_i=$((_i + 1))
	done
	[ $_i -lt 100 ] || fail "nginx did not answer"
	NGX_LOG=$_d/nginx/access.tsv
}

# crawl CODING REP WARC: one crawl, a row to rows.tsv: coding rep warc
# pages wire_bytes cpu_s rss_kb warc_bytes decoded_annotations.
crawl() {
	: >"$NGX_LOG"
	rm -rf "$W/job"
	# shellcheck disable=SC2086
	/usr/bin/time -v -o "$W/time.txt" "$TERN" crawl -j "$W/job" -s "$W/ngx/seeds.txt" $TERN_MATCHED \
		--set crawl.max-connections=64 --set warc.enabled="$3" \
		--set fetch.accept-encoding="$1" >"$W/out.txt" 2>&1 || fail "tern exited $?: $(tail -3 "$W/out.txt")"
	sleep 0.2
	_pages=$(awk -F'\t' '$4 != "/robots.txt"' "$NGX_LOG" | wc -l)
	_wire=$(awk -F'\t' '{ s += $6 } END { printf "%d", s }' "$NGX_LOG")
	_enc=$(awk -F'\t' '$8 != "-" { n++ } END { printf "%d", n }' "$NGX_LOG")
	_cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$W/time.txt")
	_rss=$(awk -F': ' '/Maximum resident/ { print $2 }' "$W/time.txt")
	_warc=0
	[ "$3" = true ] && _warc=$(cat "$W"/job/warcs/*.warc.gz | wc -c)
	_bad=$(awk '$12 ~ /decode/' "$W/job/logs/crawl.log" | wc -l)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$_pages" "$_wire" "$_cpu" "$_rss" "$_warc" "$_bad" "$_enc" >>"$W/rows.tsv"
	printf '  %-8s rep %s warc %-5s: %6s pages (%s encoded), %10s body bytes, cpu %5.2f s, rss %6s KB, warc %s bytes, decode annotations %s\n' \
		"$1" "$2" "$3" "$_pages" "$_enc" "$_wire" "$_cpu" "$_rss" "$_warc" "$_bad"
}

: >"$W/rows.tsv"
for enc in identity gzip br zstd; do
	echo "bench: coding $enc"
	enc_start $enc
	r=1
	while [ $r -le "$reps" ]; do
		crawl $enc $r false
		r=$((r + 1))
	done
	crawl $enc 1 true
	ngx_stop
done
mkdir -p "$top/bench/results"
{
	printf '# bench/encodings.sh %s %s %s %s, %s, %s\n' "$hosts" "$pages" "$kb" "$links" "$(date -u +%Y-%m-%dT%H:%MZ)" "$(nginx -v 2>&1 | sed 's|.*/||')"
	printf 'coding\trep\twarc\tpages\twire_bytes\tcpu_s\trss_kb\twarc_bytes\tdecode_annotations\tencoded_responses\n'
	cat "$W/rows.tsv"
} >"$top/bench/results/encodings.tsv"
echo
echo "| accept-encoding | pages | body bytes on the wire per page | tern CPU per page (median of $reps) | WARC bytes per page | RSS |"
echo "|---|---|---|---|---|---|"
for enc in identity gzip br zstd; do
	awk -F'\t' -v e=$enc '$1 == e && $3 == "false" { c[++n] = $6 / $4 * 1000; p = $4; w = $5 / $4; r = $7 }
		$1 == e && $3 == "true" { wb = $8 / $4 }
		END { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t }
			printf "| %s | %d | %.0f | %.3f ms | %.0f | %d KB |\n", e, p, w, c[int((n + 1) / 2)], wb, r }' "$W/rows.tsv"
done
