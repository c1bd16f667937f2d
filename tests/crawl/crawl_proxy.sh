#!/bin/sh
# Crawls through a real proxy, Debian's tinyproxy, started here on a
# loopback port with its own configuration (tern.conf(5), fetch.http-proxy,
# fetch.https-proxy; tern(1), PROXIES):
#   - http: requests in absolute form, recorded so in the WARC, with no
#     WARC-IP-Address on the responses (the proxy's address is not the
#     origin's);
#   - https: CONNECT, TLS to the origin inside the tunnel, verified against
#     the origin's name (a name the certificate lacks fails as without a
#     proxy), requests recorded in origin form, the CONNECT nowhere;
#   - credentials (tinyproxy's BasicAuth) from the environment's http_proxy
#     and from fetch.credentials-file; wrong or missing ones end with
#     err:proxy-auth;
#     a proxy that is not listening ends with err:proxy-connect, naming it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
. "$top_srcdir/tests/crawl/access_lib.sh"
need_cmd nginx curl node tinyproxy
tw_dir
acc_site "$TW_DIR"
tw_ca_make
# The same site over https on a second port (the test CA's certificate
# names 127.0.0.1, not localhost).
ngx_ports 1
TLS_PORT=$NGX_BASE
acc_nginx "$TW_DIR" "listen 127.0.0.1:$TLS_PORT ssl; ssl_certificate $TW_CERT; ssl_certificate_key $TW_KEY;"

# tp_start NAME [DIRECTIVE]...: tinyproxy on a free port (TP_PORT), its log
# in $TW_DIR/NAME.log.
tp_start() {
	_tpn=$1
	shift
	ngx_ports 1
	TP_PORT=$NGX_BASE
	{
		echo "Port $TP_PORT"
		echo "Listen 127.0.0.1"
		echo "Timeout 30"
		echo "MaxClients 20"
		echo "Allow 127.0.0.1"
		echo "LogFile \"$TW_DIR/$_tpn.log\""
		echo "LogLevel Connect"
		echo "PidFile \"$TW_DIR/$_tpn.pid\""
		echo "DisableViaHeader Yes"
		for _d in "$@"; do echo "$_d"; done
	} >"$TW_DIR/$_tpn.conf"
	tinyproxy -d -c "$TW_DIR/$_tpn.conf" >"$TW_DIR/$_tpn.out" 2>&1 &
	TP_PID=$!
	track_pid "$TP_PID"
	_i=0
	while ! curl -s -o /dev/null -x "http://127.0.0.1:$TP_PORT" "http://127.0.0.1:$ACC_PORT/robots.txt"; do
		kill -0 "$TP_PID" 2>/dev/null || fail "tinyproxy did not start: $(cat "$TW_DIR/$_tpn.out" "$TW_DIR/$_tpn.log" 2>/dev/null | tail -5)"
		[ $_i -lt 100 ] || fail "tinyproxy did not answer on port $TP_PORT"
		sleep 0.1
		_i=$((_i + 1))
	done
}

# crawl NAME SEED [--set K=V]...: a --local crawl into job NAME, which
# exits with WANT_RC (0 unless set: 1 when every seed fails).
crawl() {
	_j=$1 _s=$2
	shift 2
	"$TERN" crawl --local -j "$TW_DIR/$_j" --set crawl.max-pages=8 "$@" "$_s" \
		>"$TW_DIR/$_j.out" 2>&1
	_rc=$?
	[ "$_rc" = "${WANT_RC:-0}" ] || fail "tern crawl $_j exited $_rc: $(cat "$TW_DIR/$_j.out")"
	grep -q Sanitizer "$TW_DIR/$_j.out" && fail "sanitizer report: $(cat "$TW_DIR/$_j.out")"
	LOG=$TW_DIR/$_j/logs/crawl.log
}

tp_start open
H=http://127.0.0.1:$ACC_PORT
crawl http "$H/" --set "fetch.http-proxy=http://127.0.0.1:$TP_PORT"
for u in /robots.txt / /a.html /private/p.html /private/q.html; do
	awk -v u="$H$u" '$4 == u && $2 == 200' "$LOG" | grep -q . || fail "http: $u not fetched: $(cat "$LOG")"
done
# Five requests of the crawl and tp_start's own of robots.txt.
grep -c "Request .*: GET $H/" "$TW_DIR/open.log" | grep -qx 6 || fail "http: not through the proxy: $(cat "$TW_DIR/open.log")"
acc_requests "$TW_DIR/http" >"$TW_DIR/http.jsonl"
node -e '
const recs = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const req = recs.filter((r) => r.type === "request"), resp = recs.filter((r) => r.type === "response");
if (req.length !== 5 || resp.length !== 5) { console.error("records: " + recs.length); process.exit(1); }
for (const r of req)
	if (!r.head.startsWith("GET " + r.uri + " HTTP/1.1\r\n") || /Proxy-Authorization/i.test(r.head)) {
		console.error("request as recorded: " + r.head); process.exit(1); }
for (const r of resp)
	if (r.ip !== null) { console.error("WARC-IP-Address through a proxy: " + r.ip); process.exit(1); }
' "$TW_DIR/http.jsonl" || fail "http: WARC records"
pass "http through tinyproxy: absolute form, recorded as sent, no WARC-IP-Address"

S=https://127.0.0.1:$TLS_PORT
crawl https "$S/" --set "fetch.https-proxy=http://127.0.0.1:$TP_PORT" --set "fetch.ca-file=$TW_CA_FILE"
n=$(awk -v s="$S/" 'index($4, s) == 1 && $2 == 200' "$LOG" | wc -l)
[ "$n" -eq 5 ] || fail "https: $n pages fetched: $(cat "$LOG")"
grep -q "CONNECT 127.0.0.1:$TLS_PORT" "$TW_DIR/open.log" || fail "https: no CONNECT at the proxy: $(tail -5 "$TW_DIR/open.log")"
acc_requests "$TW_DIR/https" >"$TW_DIR/https.jsonl"
node -e '
const recs = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const req = recs.filter((r) => r.type === "request");
if (req.length !== 5) { console.error("request records: " + req.length); process.exit(1); }
for (const r of req)
	if (!/^GET \/[^ ]* HTTP\/1\.1\r\n/.test(r.head) || /CONNECT/.test(r.head)) {
		console.error("request as recorded: " + r.head); process.exit(1); }
' "$TW_DIR/https.jsonl" || fail "https: WARC records"
pass "https through tinyproxy: CONNECT, TLS in the tunnel, origin-form records"

# localhost is not in the test certificate: verification still runs
# against the origin's name inside the tunnel.
OUT=$("$TERN" fetch --set "fetch.https-proxy=http://127.0.0.1:$TP_PORT" --set "fetch.ca-file=$TW_CA_FILE" \
	"https://localhost:$TLS_PORT/" 2>&1)
echo "$OUT" | grep -q "annotations: err:tls-verify:name-mismatch" ||
	fail "https: name not verified in the tunnel: $OUT"
pass "the origin's certificate is checked against its name through the tunnel"
# A proxy named by a host name is looked up by tern's resolver (localhost:
# the loopback address, tern(1) ENVIRONMENT).
OUT=$("$TERN" fetch --set "fetch.http-proxy=http://localhost:$TP_PORT" "$H/a.html" 2>&1)
echo "$OUT" | grep -q "^status: 200" || fail "a proxy named localhost: $OUT"
grep -q "Request .*: GET $H/a.html" "$TW_DIR/open.log" || fail "not through the proxy named localhost"
pass "a proxy given by name is resolved"
stop_pid "$TP_PID"

tp_start auth "BasicAuth tern s3cret"
http_proxy=http://tern:s3cret@127.0.0.1:$TP_PORT crawl env "$H/"
awk -v u="$H/private/q.html" '$4 == u && $2 == 200' "$LOG" | grep -q . || fail "env credentials: $(cat "$LOG")"
pass "proxy credentials from http_proxy"
umask 077
printf 'proxy 127.0.0.1:%s * tern "s3cret"\n' "$TP_PORT" >"$TW_DIR/creds"
crawl file "$S/" --set "fetch.https-proxy=http://127.0.0.1:$TP_PORT" --set "fetch.ca-file=$TW_CA_FILE" \
	--set "fetch.credentials-file=$TW_DIR/creds"
awk -v s="$S/" 'index($4, s) == 1 && $2 == 200' "$LOG" | grep -q . || fail "file credentials: $(cat "$LOG")"
grep -q s3cret "$TW_DIR/file/tern.conf" "$TW_DIR/file/logs/"* "$TW_DIR/file.out" && fail "the password was written to the job"
pass "proxy credentials from fetch.credentials-file, in no file of the job"
# No credentials: a 407 for an http URI is the proxy's. (tinyproxy answers
# wrong ones with a 401 and WWW-Authenticate, which for an http URI cannot
# be told from the origin's; to CONNECT only the proxy answers.)
WANT_RC=1 http_proxy=http://127.0.0.1:$TP_PORT crawl wrong "$H/" --set frontier.max-retries=1
grep -q "err:proxy-auth" "$LOG" || fail "no credentials (http): $(cat "$LOG")"
WANT_RC=1 https_proxy=http://tern:wrong@127.0.0.1:$TP_PORT crawl wrong-tls "$S/" --set "fetch.ca-file=$TW_CA_FILE" \
	--set frontier.max-retries=1
grep -q "err:proxy-auth" "$LOG" || fail "wrong credentials (CONNECT): $(cat "$LOG")"
OUT=$(https_proxy=http://tern:wrong@127.0.0.1:$TP_PORT "$TERN" fetch --set "fetch.ca-file=$TW_CA_FILE" "$S/" 2>&1)
echo "$OUT" | grep -q "error: proxy 127.0.0.1:$TP_PORT answered CONNECT with 401: its credentials were refused" ||
	fail "407 not explained: $OUT"
pass "wrong proxy credentials: err:proxy-auth, the proxy named"
stop_pid "$TP_PID"

OUT=$("$TERN" fetch --set "fetch.http-proxy=http://127.0.0.1:$TP_PORT" "$H/" 2>&1)
echo "$OUT" | grep -q "error: proxy 127.0.0.1:$TP_PORT: connect: connection refused" ||
	fail "a proxy not listening: $OUT"
echo "$OUT" | grep -q "annotations: err:proxy-connect" || fail "no err:proxy-connect: $OUT"
OUT=$("$TERN" fetch --set "fetch.http-proxy=http://127.0.0.1:$TP_PORT" --set "fetch.no-proxy=127.0.0.1" "$H/" 2>&1)
echo "$OUT" | grep -q "^status: 200" || fail "fetch.no-proxy not obeyed: $OUT"
pass "a proxy not listening is named (err:proxy-connect); fetch.no-proxy goes direct"

chmod 644 "$TW_DIR/creds"
"$TERN" crawl -j "$TW_DIR/open-creds" --set "fetch.credentials-file=$TW_DIR/creds" "$H/" >"$TW_DIR/open-creds.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a credentials file open to others: exit $rc: $(cat "$TW_DIR/open-creds.out")"
grep -q "holds passwords but is open to others (mode 0644): chmod 600 it" "$TW_DIR/open-creds.out" ||
	fail "mode not explained: $(cat "$TW_DIR/open-creds.out")"
pass "a credentials file readable by others is refused at start"
