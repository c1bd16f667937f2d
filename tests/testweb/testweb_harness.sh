#!/bin/sh
# The harness around the test web: HTTPS with a throwaway CA and session
# resumption (and --no-tls-resume), the stall port, dnsmasq answering the
# web's names with NXDOMAIN for the rest, the dead DNS server, per-host
# scripts, and cleanup stopping everything by pid even when a test fails.
. "$top_srcdir/tests/lib.sh"
need_cmd curl openssl node dnsmasq

tw_ca_make
tw_start --tls --hosts 12 --pages 4 --script h2.web.test=refuse-first:2 \
	--script h3.web.test=fail-5xx:2 --script h4.web.test=retry-after:1 \
	--script h5.web.test=robots-5xx --script h6.web.test=slow:300 \
	--script h7.web.test=reset-pages:2
D=$TW_DIR

# HTTPS: verified against the CA, absolute links say https and the TLS port.
u=https://h1.web.test:$TW_TLS_PORT/
r=$(tw_curl --cacert "$TW_CA_FILE" -o "$D/page" -w '%{http_code} %{ssl_verify_result}' "$u")
[ "$r" = "200 0" ] || fail "https: $r"
grep -q "https://h[0-9]*.web.test:$TW_TLS_PORT/" "$D/page" || fail "https page has no https absolute links"
tw_curl --cacert "$TW_CA_FILE" -o /dev/null "https://h1.web.test:$TW_TLS_PORT/_mis/reset"
[ $? -eq 56 ] || fail "reset over TLS"
r=$(tw_curl --cacert "$TW_CA_FILE" -o /dev/null -w '%{http_code} %{size_download}' "https://h1.web.test:$TW_TLS_PORT/_mis/big?kb=2000")
[ "$r" = "200 2048000" ] || fail "big body over TLS: $r"
pass "https with the throwaway CA"

# Session resumption: the second handshake resumes the first session.
tls() {
	printf 'GET / HTTP/1.1\r\nHost: h1.web.test\r\nConnection: close\r\n\r\n' |
		openssl s_client -connect "127.0.0.1:$1" -servername h1.web.test -CAfile "$TW_CA_FILE" \
		-verify_return_error -ign_eof "$2" "$D/sess" >"$D/s_client" 2>&1 || fail "s_client: $(cat "$D/s_client")"
	grep -q '^HTTP/1.1 200' "$D/s_client" || fail "no response over s_client"
	sed -n 's/^\(New\|Reused\), .*/\1/p' "$D/s_client"
}
[ "$(tls "$TW_TLS_PORT" -sess_out)" = New ] || fail "first handshake not new"
[ "$(tls "$TW_TLS_PORT" -sess_in)" = Reused ] || fail "second handshake not resumed"
pass "TLS session resumption"

# The stall port accepts and says nothing: a TLS handshake times out.
r=$(tw_curl -m 1 --cacert "$TW_CA_FILE" -o /dev/null -w '%{http_code} %{time_connect}' "https://h1.web.test:$TW_STALL_PORT/")
[ "$?" -eq 0 ] && fail "stall port answered"
case $r in "000 0.0"*) ;; *) fail "stall port: $r (connect should succeed, then time out)" ;; esac
tw_curl -m 1 -o /dev/null "https://h1.web.test:$TW_STALL_PORT/"
[ $? -eq 28 ] || fail "stall port did not time out"
pass "stall port"

# Scripts.
st() { tw_curl -o /dev/null -w '%{http_code}' "$@"; }
r="$(st "$(tw_url 2 /)") $(st "$(tw_url 2 /)") $(st "$(tw_url 2 /)")"
[ "$r" = "000 000 200" ] || fail "refuse-first:2 gave $r"
r="$(st "$(tw_url 3 /robots.txt)") $(st "$(tw_url 3 /)") $(st "$(tw_url 3 /)") $(st "$(tw_url 3 /)")"
[ "$r" = "200 503 503 200" ] || fail "fail-5xx:2 gave $r"
tw_curl -D - -o /dev/null "$(tw_url 4 /)" | grep -q '^Retry-After: 2' || fail "retry-after has no Retry-After"
[ "$(st "$(tw_url 4 /)")" = 200 ] || fail "retry-after:1 did not recover"
r="$(st "$(tw_url 5 /robots.txt)") $(st "$(tw_url 5 /robots.txt)") $(st "$(tw_url 5 /)")"
[ "$r" = "500 500 200" ] || fail "robots-5xx gave $r"
r="$(st "$(tw_url 7 /robots.txt)") $(st "$(tw_url 7 /)") $(st "$(tw_url 7 /)") $(st "$(tw_url 7 /)")"
[ "$r" = "200 000 000 200" ] || fail "reset-pages:2 gave $r"
t=$(tw_curl -o /dev/null -w '%{time_starttransfer}' "$(tw_url 6 /)")
awk -v t="$t" 'BEGIN { exit !(t >= 0.29) }' || fail "slow:300 answered in $t s"
pass "per-host scripts"

# A second server without resumption.
tw_stop
tw_start --tls --hosts 2 --pages 2 --no-tls-resume
[ "$(tls "$TW_TLS_PORT" -sess_out)" = New ] || fail "first handshake not new"
[ "$(tls "$TW_TLS_PORT" -sess_in)" = New ] || fail "resumed despite --no-tls-resume"
pass "--no-tls-resume"

# DNS: the web's names and extra names resolve to loopback, others get
# NXDOMAIN quickly; the dead server never answers.
DNS_HOSTS=12
dns_start extra.example
dns_dead_start
node -e '
const { Resolver } = require("dns");
const [server, dead] = process.argv.slice(1);
const q = (srv, name, timeout) => new Promise((res) => {
  const r = new Resolver({ timeout, tries: 1 });
  r.setServers([srv]);
  const t = Date.now();
  r.resolve4(name, (e, a) => res({ v: e ? e.code : a.join(","), ms: Date.now() - t }));
});
(async () => {
  const want = { "h0.web.test": "127.0.0.1", "h11.web.test": "127.0.0.1", "extra.example": "127.0.0.1",
    "h12.web.test": "ENOTFOUND", "nothere.test": "ENOTFOUND", "example.com": "ENOTFOUND" };
  for (const [n, v] of Object.entries(want)) {
    const r = await q(server, n, 2000);
    if (r.v !== v || r.ms > 500) { console.error(n, r); process.exit(1); }
  }
  const r = await q(dead, "h0.web.test", 300);
  if (r.v !== "ETIMEOUT") { console.error("dead server answered", r); process.exit(1); }
})();' "$DNS_SERVER" "$DNS_DEAD_SERVER" || fail "DNS answers"
pass "dnsmasq on $DNS_SERVER and a dead server on $DNS_DEAD_SERVER"

# cleanup stops everything by pid when a test fails half-way.
cat >"$D/child.sh" <<EOF2
. "$top_srcdir/tests/lib.sh"
TW_DIR=$D/child
mkdir -p \$TW_DIR
tw_start --hosts 2
dns_start
dns_dead_start
echo "\$TW_PID \$DNS_PID \$DNS_DEAD_PID" >"$D/child.pids"
fail "on purpose"
EOF2
top_srcdir=$top_srcdir top_builddir=$top_builddir sh "$D/child.sh" 2>/dev/null && fail "child test passed"
pids=$(cat "$D/child.pids")
[ -n "$pids" ] || fail "child started nothing"
for p in $pids; do
	kill -0 "$p" 2>/dev/null && fail "pid $p survived its test's failure"
done
rm -rf "$D/child"
pass "cleanup after a failing test stopped $pids"
tw_stop
