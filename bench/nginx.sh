# Sourced by bench/run (after tests/lib.sh): the nginx workloads' static web
# and Debian's nginx serving it, so that tern is measured against a server
# the project did not write.
#
#   ngx_web DIR HOSTS PAGES KB LINKS   writes the web (tests/testweb
#                                      --write-dir) for NGX_BASE, a block of
#                                      HOSTS free loopback ports
#   ngx_start DIR GZIP                 starts nginx (GZIP: off or static);
#                                      NGX_TLS=h2 or http1.1 serves https
#                                      instead, with NGX_CERT and NGX_KEY,
#                                      HTTP/2 offered by ALPN or not
#   ngx_stop                           stops it by pid
#
# One port per host (127.0.0.1:NGX_BASE+I is host I), so no name is resolved
# by anyone. The ports come from below the kernel's ephemeral range, so a
# client's own sockets never take one. gzip "static": every text file has a
# level-6 .gz copy served by gzip_static, as a tuned static site does; nginx
# compressing each 14 KB page per request would make its one worker, not the
# crawlers, the thing measured. Pages are counted from nginx's access log
# (NGX_LOG), written as the test web's request log (start, end, host, path,
# status, bytes, connection; "host" is the port), so bench/run's counting
# works on either.

# The matched settings of every tern crawl in the benches (expanded
# unquoted): no politeness delay, Crawl-delay not honoured (wget2 and
# Scrapy ignore it), robots obeyed, no hop limit (as wget2 -l0 and Scrapy's
# DEPTH_LIMIT=0), loopback addresses allowed. Connections and WARC are each
# bench's own.
TERN_MATCHED="--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=0
	--set politeness.delay-factor=0 --set politeness.max-delay-ms=0
	--set politeness.respect-crawl-delay-up-to-seconds=0 --set robots.policy=obey
	--set crawl.max-hops=10000"

# A random block of n ports, none of them listening, below the ephemeral
# range.
ngx_ports() {
	_n=$1
	_lo=$(awk '{ print $1 }' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
	_try=0
	while [ $_try -lt 20 ]; do
		NGX_BASE=$((10000 + $(od -An -N2 -tu2 /dev/urandom) % (_lo - 10000 - _n)))
		if ! ss -ltnH 2>/dev/null | awk -v a="$NGX_BASE" -v b="$((NGX_BASE + _n - 1))" '{ p = $4; sub(/.*:/, "", p); if (p + 0 >= a && p + 0 <= b) f = 1 } END { exit !f }'; then
			return 0
		fi
		_try=$((_try + 1))
	done
	fail "no free block of $_n ports below $_lo"
}

ngx_web() { # DIR HOSTS PAGES KB LINKS
	ngx_ports "$2"
	rm -rf "$1" && mkdir -p "$1"
	"$top_builddir/tests/testweb/testweb" --write-dir "$1/web" --port-base "$NGX_BASE" --gzip-files \
		--hosts "$2" --pages "$3" --kb "$4" --links "$5" \
		--manifest "$1/manifest.tsv" --seeds-file "$1/seeds.txt" >"$1.out" 2>&1 ||
		fail "testweb --write-dir: $(cat "$1.out")"
	NGX_HOSTS=$2
	# Coverage keys "PORT PATH" of the robots-allowed URLs.
	awk -F'\t' '$2 == "allowed" { u = $1; sub(/^http:\/\/127\.0\.0\.1:/, "", u); p = u; sub(/^[0-9]*/, "", p);
		h = u; sub(/\/.*/, "", h); print h " " p }' "$1/manifest.tsv" >"$1/allowed.txt"
}

ngx_start() { # DIR GZIP
	_d=$1
	mkdir -p "$_d/nginx"
	: >"$_d/nginx/access.tsv"
	{
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
		echo "	log_format tsv '\$msec\t\$msec\t\$server_port\t\$request_uri\t\$status\t\$body_bytes_sent\t\$connection\t\$sent_http_content_encoding\t\$server_protocol';"
		echo "	access_log $_d/nginx/access.tsv tsv;"
		if [ "$2" = static ]; then
			echo "	gzip_static on; gzip on; gzip_comp_level 1; gzip_types text/css text/plain;"
		else
			echo "	gzip off;"
		fi
		echo "	server {"
		# nginx 1.22 (Debian 12) turns HTTP/2 on with the listen
		# directive's parameter; 1.25 has "http2 on;" instead.
		case "${NGX_TLS:-}" in
		h2) _l=" ssl http2" ;;
		http1.1) _l=" ssl" ;;
		*) _l="" ;;
		esac
		awk -v b="$NGX_BASE" -v n="$NGX_HOSTS" -v l="$_l" 'BEGIN { for (i = 0; i < n; i++) printf "\t\tlisten 127.0.0.1:%d%s;\n", b + i, l }'
		if [ -n "$_l" ]; then
			echo "		ssl_certificate $NGX_CERT; ssl_certificate_key $NGX_KEY;"
		fi
		echo "		root $_d/web/\$server_port;"
		echo "		location ~ ^/r/0\$ { return 301 /; }"
		echo "		location ~ ^/r/([0-9]+)\$ { return 301 /p/\$1.html; }"
		echo "	}"
		echo "}"
	} >"$_d/nginx/nginx.conf"
	nginx -p "$_d/nginx" -c "$_d/nginx/nginx.conf" -e "$_d/nginx/error.log" >"$_d/nginx/out.txt" 2>&1 &
	NGX_PID=$!
	track_pid "$NGX_PID"
	# Ready when the last port answers.
	_i=0
	while [ $_i -lt 100 ]; do
		kill -0 "$NGX_PID" 2>/dev/null || fail "nginx did not start: $(cat "$_d/nginx/out.txt" "$_d/nginx/error.log" 2>/dev/null | tail -5)"
		curl -sk -o /dev/null "http${NGX_TLS:+s}://127.0.0.1:$((NGX_BASE + NGX_HOSTS - 1))/robots.txt" && break
		sleep 0.1
		_i=$((_i + 1))
	done
	[ $_i -lt 100 ] || fail "nginx did not answer on port $((NGX_BASE + NGX_HOSTS - 1))"
	: >"$_d/nginx/access.tsv"
	NGX_LOG=$_d/nginx/access.tsv
}

# CPU ticks of nginx's master and worker.
ngx_cpu() {
	for _p in $NGX_PID $(cat "/proc/$NGX_PID/task/$NGX_PID/children" 2>/dev/null); do
		awk '{ print $14 + $15 }' "/proc/$_p/stat" 2>/dev/null
	done | awk '{ s += $1 } END { printf "%d\n", s }'
}

ngx_stop() {
	[ -n "${NGX_PID:-}" ] && stop_pid "$NGX_PID"
	NGX_PID=""
}
