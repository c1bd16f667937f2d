# Helpers of the tests of how tern reaches sites (tests/crawl/crawl_headers.sh,
# tests/crawl/crawl_proxy.sh, tests/crawl/crawl_auth.sh): a small static site served by
# Debian's nginx on a loopback port, its access log naming the request
# headers those tests look for. Sourced after tests/lib.sh and
# bench/nginx.sh (ngx_ports).
#
#   acc_site DIR                 writes DIR/web: / links to /a.html,
#                                /private/p.html and /private/q.html
#   acc_nginx DIR [DIRECTIVES]   starts nginx on ACC_PORT serving DIR/web,
#                                DIRECTIVES added to its server block; the
#                                access log ACC_LOG has one line a request:
#                                uri, status, Accept-Language, From, X-A,
#                                X-Private, Authorization, tab-separated

acc_site() {
	mkdir -p "$1/web/private"
	printf '<html><body><a href="/a.html">a</a> <a href="/private/p.html">p</a> <a href="/private/q.html">q</a></body></html>\n' \
		>"$1/web/index.html"
	printf '<html><body>page a</body></html>\n' >"$1/web/a.html"
	printf '<html><body>private p</body></html>\n' >"$1/web/private/p.html"
	printf '<html><body>private q</body></html>\n' >"$1/web/private/q.html"
	printf 'User-agent: *\nAllow: /\n' >"$1/web/robots.txt"
}

acc_nginx() {
	_d=$1
	ngx_ports 1
	ACC_PORT=$NGX_BASE
	mkdir -p "$_d/nginx"
	ACC_LOG=$_d/nginx/access.tsv
	: >"$ACC_LOG"
	{
		echo "daemon off;"
		echo "worker_processes 1;"
		echo "user $(id -un) $(id -gn);"
		echo "pid $_d/nginx/nginx.pid;"
		echo "error_log $_d/nginx/error.log warn;"
		echo "events { worker_connections 64; }"
		echo "http {"
		echo "	types { text/html html; text/plain txt; }"
		echo "	log_format acc '\$request_uri\t\$status\t\$http_accept_language\t\$http_from\t\$http_x_a\t\$http_x_private\t\$http_authorization';"
		# The readiness probe is not logged: its line could land after
		# the log is emptied.
		echo "	map \$request_uri \$acc_logged { /ready-probe 0; default 1; }"
		echo "	access_log $ACC_LOG acc if=\$acc_logged;"
		echo "	client_body_temp_path $_d/nginx/tmp;"
		echo "	server {"
		echo "		listen 127.0.0.1:$ACC_PORT;"
		echo "		root $_d/web;"
		echo "		$2"
		echo "	}"
		echo "}"
	} >"$_d/nginx/nginx.conf"
	nginx -p "$_d/nginx" -c "$_d/nginx/nginx.conf" -e "$_d/nginx/error.log" >"$_d/nginx/out.txt" 2>&1 &
	ACC_NGX_PID=$!
	track_pid "$ACC_NGX_PID"
	_i=0
	while ! curl -s -o /dev/null "http://127.0.0.1:$ACC_PORT/ready-probe"; do
		kill -0 "$ACC_NGX_PID" 2>/dev/null || fail "nginx did not start: $(cat "$_d/nginx/out.txt" "$_d/nginx/error.log" 2>/dev/null | tail -5)"
		[ $_i -lt 100 ] || fail "nginx did not answer on port $ACC_PORT"
		sleep 0.1
		_i=$((_i + 1))
	done
	: >"$ACC_LOG"
}

# acc_requests JOBDIR: the WARC request records of the job, one JSON line
# each (tests/crawl/warc_requests.mjs).
acc_requests() {
	(cd "$top_srcdir/tests/crawl" && node warc_requests.mjs "$1") ||
		fail "warcio could not read the request records of $1"
}
