#!/bin/sh
# What needs addresses a loopback-only test cannot have, in a network
# namespace of its own (unshare -rn: root, or unprivileged user
# namespaces) where nginx listens on a public address (1.2.3.4) and on
# the default ports 80 and 443 of 127.0.0.1 (its temporary directories
# are the test's: the system's may belong to a user the namespace does not
# map):
#   - a public seed's redirect to a private address makes a seed (the
#     scope grows) but not an exemption from the address guard: the target
#     is refused -7 err:private-address, tern.log says the new seed is
#     judged as any link, seeds.txt marks it "guarded" (tern(1), SEEDS);
#   - on default ports, robots.txt URIs have no port in crawl.log, WARC
#     targets and the CDXJ index, and after http -> https (in scope: SURT
#     prefixes take http and https alike) each robots.txt is asked once.
. "$top_srcdir/tests/lib.sh"
if [ -z "$TERN_TEST_NETNS" ]; then
	need_cmd unshare
	if ! unshare -rn true 2>/dev/null; then
		echo "SKIP: no network namespace (unshare -rn needs root or user namespaces)" >&2
		exit 77
	fi
	TERN_TEST_NETNS=1 exec unshare -rn sh "$0" "$@"
fi
need_cmd nginx openssl ip curl
ip link set lo up || fail "ip link set lo up"
ip addr add 1.2.3.4/32 dev lo || fail "ip addr add 1.2.3.4/32"
tw_dir
cd "$TW_DIR" || fail "no work directory"
tw_ca_make

"$top_builddir/tests/testweb/testweb" --write-dir "$TW_DIR/gen" --port-base 80 --hosts 1 \
	--pages 8 --kb 1 --links 4 --manifest "$TW_DIR/gen.tsv" >gen.out 2>&1 ||
	fail "testweb --write-dir: $(cat gen.out)"
mkdir -p site ngx
cp -r gen/80/. site/
find site -name '*.html' -exec sed -i "s|http://127\.0\.0\.1:80|https://upg.web.test|g" {} +
grep -rq "https://upg.web.test/" site || fail "no absolute link left in the site"

cat >ngx/nginx.conf <<EOF
daemon off;
worker_processes 1;
user $(id -un) $(id -gn);
pid $TW_DIR/ngx/nginx.pid;
error_log $TW_DIR/ngx/error.log warn;
events { worker_connections 256; }
http {
	types { text/html html; text/css css; image/png png; text/plain txt; }
	default_type application/octet-stream;
	log_format t '\$scheme	\$host	\$server_port	\$request_uri	\$status';
	access_log $TW_DIR/ngx/access.tsv t;
	client_body_temp_path $TW_DIR/ngx/body; proxy_temp_path $TW_DIR/ngx/proxy;
	fastcgi_temp_path $TW_DIR/ngx/fastcgi; uwsgi_temp_path $TW_DIR/ngx/uwsgi;
	scgi_temp_path $TW_DIR/ngx/scgi;
	server { listen 1.2.3.4:80; server_name public.web.test;
		return 301 http://private.web.test\$request_uri; }
	server { listen 127.0.0.1:80; server_name private.web.test; root $TW_DIR/site; }
	server { listen 127.0.0.1:80; server_name upg.web.test;
		return 301 https://upg.web.test\$request_uri; }
	server { listen 127.0.0.1:443 ssl; server_name upg.web.test; root $TW_DIR/site;
		ssl_certificate $TW_CERT; ssl_certificate_key $TW_KEY;
		location ~ ^/r/0$ { return 301 /; }
		location ~ ^/r/([0-9]+)$ { return 301 /p/\$1.html; } }
}
EOF
nginx -p "$TW_DIR/ngx" -c "$TW_DIR/ngx/nginx.conf" -e "$TW_DIR/ngx/error.log" >ngx/out.txt 2>&1 &
track_pid $!
_i=0
until curl -s -o /dev/null "http://1.2.3.4/robots.txt"; do
	[ $_i -lt 100 ] || fail "nginx did not start: $(cat ngx/out.txt ngx/error.log)"
	sleep 0.1
	_i=$((_i + 1))
done
printf '%s\n' "1.2.3.4 public.web.test" "127.0.0.1 private.web.test upg.web.test" >hosts
CARES_HOSTS=$TW_DIR/hosts
export CARES_HOSTS

"$TERN" crawl --local -j pub "http://public.web.test/" >pub.out 2>&1
rc=$?
grep -q Sanitizer pub.out && fail "pub: sanitizer report: $(cat pub.out)"
[ $rc = 1 ] || fail "pub: exit $rc, wanted 1 (no page answered): $(cat pub.out)"
grep -Eq "^[^ ]+ +301 +[0-9]+ http://public\.web\.test/ - - .* ([^ ]*,)?seedRedirect(,[^ ]*)?$" \
	pub/logs/crawl.log || fail "pub: the seed's line: $(cat pub/logs/crawl.log)"
grep -Eq "^[^ ]+ +-7 +- http://private\.web\.test/ R http://public\.web\.test/ .* err:private-address$" \
	pub/logs/crawl.log || fail "pub: the target was not refused: $(cat pub/logs/crawl.log)"
grep -q "seed http://public\.web\.test/ redirects to http://private\.web\.test/, made a seed that the address guard judges as any link" \
	pub/logs/tern.log || fail "pub: tern.log: $(cat pub/logs/tern.log)"
grep -qx "http://private\.web\.test/ R http://public\.web\.test/ guarded" pub/seeds.txt ||
	fail "pub: seeds.txt: $(cat pub/seeds.txt)"
grep -q "	private\.web\.test	" ngx/access.tsv && fail "pub: the private address was asked: $(cat ngx/access.tsv)"
pass "a public seed's redirect to a private address: a seed, still refused -7"

: >ngx/access.tsv
"$TERN" crawl --local --set fetch.ca-file="$TW_CA_FILE" -j upg "http://upg.web.test/" >upg.out 2>&1 ||
	fail "upg: tern crawl exited $?: $(cat upg.out)"
grep -q Sanitizer upg.out && fail "upg: sanitizer report: $(cat upg.out)"
awk '$2 > 0 { print $4 }' upg/logs/crawl.log | sort -u >upg.fetched
sed -n 's|^http://127\.0\.0\.1:80\([^	]*\)	allowed.*|https://upg.web.test\1|p' gen.tsv | sort -u >upg.allowed
[ "$(wc -l <upg.allowed)" -ge 8 ] || fail "manifest too small"
m=$(comm -23 upg.allowed upg.fetched)
[ -z "$m" ] || fail "upg: pages not fetched: $(echo "$m" | head -3); $(cat upg/logs/crawl.log)"
grep -q seedRedirect upg/logs/crawl.log && fail "upg: an in-scope redirect made a seed"
for u in http://upg.web.test/robots.txt https://upg.web.test/robots.txt; do
	n=$(awk -v u="$u" '$4 == u' upg/logs/crawl.log | wc -l)
	[ "$n" = 1 ] || fail "upg: $n crawl.log lines for $u: $(grep robots upg/logs/crawl.log)"
done
grep -E ":(80|443)/" upg/logs/crawl.log && fail "upg: a default port in crawl.log"
zcat upg/warcs/*.warc.gz | grep -a "^WARC-Target-URI:" >targets.txt
grep -q "^WARC-Target-URI: https://upg\.web\.test/robots\.txt" targets.txt ||
	fail "upg: no WARC record of the https robots.txt: $(cat targets.txt)"
grep -E ":(80|443)/" targets.txt && fail "upg: a default port in a WARC target"
"$TERN" warc-index upg >index.cdxj 2>index.err || fail "upg: warc-index: $(cat index.err)"
grep -q "^test,web,upg)/robots.txt " index.cdxj || fail "upg: index: $(cat index.cdxj)"
grep -E '"url": "https?://[^/"]*:(80|443)/' index.cdxj && fail "upg: a default port in the CDXJ index"
n=$(grep -c "^https	upg\.web\.test	443	/robots\.txt	" ngx/access.tsv)
[ "$n" = 1 ] || fail "upg: the https robots.txt asked $n times: $(grep robots ngx/access.tsv)"
pass "default ports: robots.txt URIs without them everywhere, each asked once after http -> https"
