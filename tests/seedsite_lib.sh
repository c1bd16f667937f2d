# Sourced by the seed redirect tests (after tests/lib.sh and bench/nginx.sh):
# nginx serving a site the way public sites are served, names from a hosts
# file (CARES_HOSTS, exported). seedsite_start writes one host of 12 pages
# (the test web's --write-dir) and serves it on two loopback ports, P and T:
#   http://web.test:P/...      301 to http://www.web.test:P/... (bare -> www),
#                              but /go to http://tls.web.test:P/ (a chain)
#   http://www.web.test:P/     the site, its links naming www.web.test:P, and
#                              /mr.html, a meta refresh to https://tls.web.test:T/
#   http://tls.web.test:P/...  301 to https://tls.web.test:T/... (http -> https)
#   https://tls.web.test:T/    the site, its links naming tls.web.test:T
# nginx logs "scheme host port uri status" to $TW_DIR/ngx/access.tsv.

# allowed ORIGIN: the robots-allowed URLs of the site under ORIGIN.
allowed() {
	sed -n "s|^http://127\.0\.0\.1:$P\([^	]*\)	allowed.*|$1\1|p" "$TW_DIR/gen.tsv" | sort -u
}

seedsite_start() {
	need_cmd nginx openssl curl
	tw_dir
	tw_ca_make
	ngx_ports 2
	P=$NGX_BASE
	T=$((NGX_BASE + 1))
	"$top_builddir/tests/testweb/testweb" --write-dir "$TW_DIR/gen" --port-base "$P" --hosts 1 \
		--pages 12 --kb 2 --links 6 --manifest "$TW_DIR/gen.tsv" >"$TW_DIR/gen.out" 2>&1 ||
		fail "testweb --write-dir: $(cat "$TW_DIR/gen.out")"
	mkdir -p "$TW_DIR/site-www" "$TW_DIR/site-tls" "$TW_DIR/ngx"
	cp -r "$TW_DIR/gen/$P/." "$TW_DIR/site-www/"
	cp -r "$TW_DIR/gen/$P/." "$TW_DIR/site-tls/"
	find "$TW_DIR/site-www" -name '*.html' -exec sed -i "s|http://127\.0\.0\.1:$P|http://www.web.test:$P|g" {} +
	find "$TW_DIR/site-tls" -name '*.html' -exec sed -i "s|http://127\.0\.0\.1:$P|https://tls.web.test:$T|g" {} +
	# A page whose meta refresh leaves for the https site.
	echo "<html><head><meta http-equiv=\"refresh\" content=\"0; url=https://tls.web.test:$T/\"></head></html>" \
		>"$TW_DIR/site-www/mr.html"
	[ "$(allowed x | wc -l)" -ge 12 ] || fail "manifest too small: $(cat "$TW_DIR/gen.tsv")"
	_r='location ~ ^/r/0$ { return 301 /; } location ~ ^/r/([0-9]+)$ { return 301 /p/$1.html; }'
	{
		echo "daemon off;"
		echo "worker_processes 1;"
		echo "user $(id -un) $(id -gn);"
		echo "pid $TW_DIR/ngx/nginx.pid;"
		echo "error_log $TW_DIR/ngx/error.log warn;"
		echo "events { worker_connections 256; }"
		echo "http {"
		echo "	types { text/html html; text/css css; image/png png; text/plain txt; }"
		echo "	default_type application/octet-stream;"
		echo "	log_format t '\$scheme	\$host	\$server_port	\$request_uri	\$status';"
		echo "	access_log $TW_DIR/ngx/access.tsv t;"
		echo "	client_body_temp_path $TW_DIR/ngx/body; proxy_temp_path $TW_DIR/ngx/proxy;"
		echo "	fastcgi_temp_path $TW_DIR/ngx/fastcgi; uwsgi_temp_path $TW_DIR/ngx/uwsgi;"
		echo "	scgi_temp_path $TW_DIR/ngx/scgi;"
		echo "	server { listen 127.0.0.1:$P default_server; server_name web.test;"
		echo "		location = /go { return 301 http://tls.web.test:$P/; }"
		echo "		location / { return 301 http://www.web.test:$P\$request_uri; } }"
		echo "	server { listen 127.0.0.1:$P; server_name www.web.test; root $TW_DIR/site-www; $_r }"
		echo "	server { listen 127.0.0.1:$P; server_name tls.web.test;"
		echo "		return 301 https://tls.web.test:$T\$request_uri; }"
		echo "	server { listen 127.0.0.1:$T ssl; server_name tls.web.test; root $TW_DIR/site-tls;"
		echo "		ssl_certificate $TW_CERT; ssl_certificate_key $TW_KEY; $_r }"
		echo "}"
	} >"$TW_DIR/ngx/nginx.conf"
	nginx -p "$TW_DIR/ngx" -c "$TW_DIR/ngx/nginx.conf" -e "$TW_DIR/ngx/error.log" \
		>"$TW_DIR/ngx/out.txt" 2>&1 &
	track_pid $!
	_i=0
	until curl -s -o /dev/null --connect-to "::127.0.0.1:" "http://www.web.test:$P/robots.txt"; do
		[ $_i -lt 100 ] || fail "nginx did not start: $(cat "$TW_DIR/ngx/out.txt" "$TW_DIR/ngx/error.log")"
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "127.0.0.1 web.test www.web.test tls.web.test" >"$TW_DIR/hosts"
	CARES_HOSTS=$TW_DIR/hosts
	export CARES_HOSTS
}
