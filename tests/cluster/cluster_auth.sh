#!/bin/sh
# An authenticated cluster (doc/cluster.md, "Who can steer a crawl"): a
# nats-server that requires TLS with client certificates (made here with
# openssl under the test CA) and users, each allowed only the crawl's own
# subjects and JetStream API subjects (the permissions doc/cluster.md
# gives). Two nodes, one with a user and password in the URL, one with an
# nkey seed file, crawl the test web through it to the end, every page
# once. A wrong password, a missing CA and a plain nats:// URL are each
# refused (exit 2, a message saying what to fix, no crawl started), and
# the password is never shown: not on the terminal, in tern.log, in
# `tern report cluster`, on the console's settings page, nor in a
# tern.conf readable by others (0600). A
# token server is joined with the token in the URL.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cluster/cluster_lib.sh"
need_cmd dnsmasq nats-server openssl node

tw_start --hosts 20 --pages 5 --links 4 --kb 2 --latency-ms 0-5
dns_start
tw_ca_make
cd "$TW_DIR" || fail "no work directory"
ca=$TW_DIR/ca
# A client certificate under the same CA, for mutual TLS.
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
	-keyout "$ca/client.key" -out "$ca/client.csr" -subj "/CN=tern node" >>"$ca/log" 2>&1 ||
	fail "openssl client key: $(cat "$ca/log")"
printf '%s\n' "basicConstraints=CA:FALSE" "extendedKeyUsage=clientAuth" \
	"keyUsage=critical,digitalSignature" >"$ca/client.cnf"
openssl x509 -req -in "$ca/client.csr" -CA "$ca/ca.pem" -CAkey "$ca/ca.key" -CAcreateserial \
	-out "$ca/client.pem" -days 2 -extfile "$ca/client.cnf" >>"$ca/log" 2>&1 ||
	fail "openssl client sign: $(cat "$ca/log")"
pub=$(node "$top_srcdir/tests/cluster/nkey.mjs" "$TW_DIR/node1.nk") || fail "no nkey"

CLUSTER_ID=auth
pw='s3cret-Pw'
# The permissions doc/cluster.md gives, for the crawl id "auth".
perms='permissions: {
    publish: [ "tern.auth.>", "tern-ctl.auth", "$JS.API.INFO",
      "$JS.API.STREAM.*.tern-auth", "$JS.API.STREAM.MSG.GET.tern-auth",
      "$JS.API.STREAM.*.KV_tern-auth-owners", "$JS.API.STREAM.*.KV_tern-auth-nodes",
      "$JS.API.STREAM.*.KV_tern-auth-meta",
      "$JS.API.STREAM.MSG.GET.KV_tern-auth-owners", "$JS.API.STREAM.MSG.GET.KV_tern-auth-nodes",
      "$JS.API.STREAM.MSG.GET.KV_tern-auth-meta",
      "$JS.API.DIRECT.GET.KV_tern-auth-owners.>", "$JS.API.DIRECT.GET.KV_tern-auth-nodes.>",
      "$JS.API.DIRECT.GET.KV_tern-auth-meta.>",
      "$JS.API.CONSUMER.*.tern-auth", "$JS.API.CONSUMER.*.tern-auth.>",
      "$JS.API.CONSUMER.*.*.tern-auth.>",
      "$JS.API.CONSUMER.*.KV_tern-auth-owners", "$JS.API.CONSUMER.*.KV_tern-auth-owners.>",
      "$JS.API.CONSUMER.*.KV_tern-auth-nodes", "$JS.API.CONSUMER.*.KV_tern-auth-nodes.>",
      "$JS.API.CONSUMER.*.KV_tern-auth-meta", "$JS.API.CONSUMER.*.KV_tern-auth-meta.>",
      "$KV.tern-auth-owners.>", "$KV.tern-auth-nodes.>", "$KV.tern-auth-meta.>",
      "$JS.ACK.tern-auth.>", "$JS.FC.tern-auth.>", "_INBOX.>" ]
    subscribe: [ "tern.auth.>", "tern-ctl.auth", "_INBOX.>" ]
  }'
mkdir -p nats-auth/store nats-auth/ports
cat >nats-auth.conf <<CONF
listen: 127.0.0.1:-1
server_name: tern-auth
ports_file_dir: "$TW_DIR/nats-auth/ports"
jetstream { store_dir: "$TW_DIR/nats-auth/store" }
tls {
  cert_file: "$ca/server.pem"
  key_file: "$ca/server.key"
  ca_file: "$ca/ca.pem"
  verify: true
  timeout: 3
}
authorization {
  users: [
    { user: crawler, password: "$pw", $perms }
    { nkey: $pub, $perms }
  ]
}
CONF
nats-server -c nats-auth.conf >nats-auth.log 2>&1 &
NATS_PID=$!
track_pid "$NATS_PID"
i=0
while [ -z "$(cat nats-auth/ports/*.ports 2>/dev/null)" ]; do
	kill -0 "$NATS_PID" 2>/dev/null || fail "nats-server exited: $(tail -5 nats-auth.log)"
	[ $i -lt 100 ] || fail "nats-server not ready after 10 s"
	sleep 0.1
	i=$((i + 1))
done
port=$(sed -n 's/.*"nats":\["[^"]*:\([0-9]*\)".*/\1/p' nats-auth/ports/*.ports)
[ -n "$port" ] || fail "no port: $(cat nats-auth/ports/*.ports)"
tls="--set cluster.tls-ca-file=$ca/ca.pem --set cluster.tls-cert-file=$ca/client.pem --set cluster.tls-key-file=$ca/client.key"

# refused NAME WANT-TEXT URL ARGS...: node NAME exits 2 saying WANT-TEXT,
# never prints the URL's password, and fetched nothing.
refused() {
	_n=$1 _w=$2
	shift 2
	NATS_URL=$1
	shift
	cluster_node "$_n" -s "$TW_DIR/seeds.txt" "$@"
	eval "_p=\$NODE_PID_$_n"
	wait "$_p"
	_rc=$?
	[ $_rc -eq 2 ] || fail "$_n: exit $_rc, want 2: $(cat "$_n.out")"
	grep -q "$_w" "$_n.out" || fail "$_n: no '$_w' in: $(cat "$_n.out")"
	grep -q Sanitizer "$_n.out" && fail "$_n: sanitizer report: $(grep -A5 Sanitizer "$_n.out" | head)"
	grep -rq -e "$pw" -e wrong-pw "$_n.out" "$_n/logs" 2>/dev/null && fail "$_n: a password shown: $(cat "$_n.out")"
	[ ! -s "$_n/logs/crawl.log" ] || fail "$_n fetched: $(head -3 "$_n/logs/crawl.log")"
}
# shellcheck disable=SC2086
refused wrongpw "cannot reach NATS at nats://crawler:\*\*\*@127.0.0.1:$port: .*refused this node's credentials" \
	"nats://crawler:wrong-pw@127.0.0.1:$port" $tls
pass "a wrong password: exit 2, the server's refusal, the password hidden"
refused plain "the server requires TLS" "nats://crawler:$pw@127.0.0.1:$port"
pass "plain nats:// to a TLS-only server: exit 2, 'the server requires TLS'"
refused noca "TLS failed" "nats://crawler:$pw@127.0.0.1:$port" \
	--set cluster.tls-cert-file="$ca/client.pem" --set cluster.tls-key-file="$ca/client.key"
pass "without the CA: exit 2, 'TLS failed'"
refused nokey "cluster.nkey-file: $TW_DIR/nope.nk" "nats://127.0.0.1:$port" $tls \
	--set cluster.nkey-file="$TW_DIR/nope.nk"
pass "a missing nkey file: exit 2 naming the key and the file"
CLUSTER_ID=other refused other "the server refused this node a subject of crawl 'other' (Permissions Violation" \
	"nats://crawler:$pw@127.0.0.1:$port" $tls
pass "a crawl id outside the user's permissions: exit 2 naming the refused subject"

# The crawl: n0 with a user and password, n1 with its nkey seed.
before=$(wc -l <nats-auth.log)
# shellcheck disable=SC2086
NATS_URL="nats://crawler:$pw@127.0.0.1:$port" cluster_node n0 -s "$TW_DIR/seeds.txt" $tls
# shellcheck disable=SC2086
NATS_URL="nats://127.0.0.1:$port" cluster_node n1 $tls --set cluster.nkey-file="$TW_DIR/node1.nk"
cluster_wait n0
cluster_wait n1
cluster_requested
tail -n +$((before + 1)) nats-auth.log >crawl-nats.log
grep -q Violation crawl-nats.log && fail "the permissions refused a node: $(grep Violation crawl-nats.log | head -3)"
for n in n0 n1; do
	grep -q "the crawl is over" $n/logs/tern.log || fail "$n did not see the end: $(tail -3 $n/logs/tern.log)"
	[ -s $n/logs/crawl.log ] || fail "$n fetched nothing"
done
pass "two nodes (a password, an nkey) crawled every page once over mutual TLS"
grep -rq "$pw" n0.out n0/logs n1.out n1/logs && fail "the password is shown: $(grep -rl "$pw" n0.out n0/logs n1.out n1/logs)"
[ "$(stat -c %a n0/tern.conf)" = 600 ] || fail "n0/tern.conf (a password in its URL): mode $(stat -c %a n0/tern.conf)"
grep -q "$pw" n0/tern.conf || fail "n0/tern.conf lost the password it needs for a resume"
# shellcheck disable=SC2086
"$TERN" report n0 cluster >report.txt 2>&1 || fail "tern report cluster: $(cat report.txt)"
grep -q "crawler:\*\*\*@127.0.0.1:$port" report.txt || fail "report: no hidden URL: $(head -5 report.txt)"
grep -q "$pw" report.txt && fail "report shows the password"
# The console's settings page (the job served offline) shows the URL
# hidden and not editable.
"$TERN" console n0 --listen 127.0.0.1:0 >offline.out 2>offline.err &
off=$!
track_pid $off
i=0
until grep -q '^http://' offline.out; do
	kill -0 $off 2>/dev/null || fail "offline console exited: $(cat offline.out offline.err)"
	[ $i -lt 100 ] || fail "offline console printed no URL"
	sleep 0.1
	i=$((i + 1))
done
ourl=$(head -1 offline.out)
curl -s -H "Authorization: Bearer ${ourl##*token=}" "${ourl%%/console/*}/console/settings" >settings.html
grep -q "name=\"cluster.url\" value=\"nats://crawler:\*\*\*@127.0.0.1:$port\" disabled" settings.html ||
	fail "settings page: $(grep -o '<input[^>]*cluster.url[^>]*>' settings.html)"
grep -q "$pw" settings.html && fail "the settings page shows the password"
stop_pid $off
pass "the password is in no log, report or output, and tern.conf holding it is mode 0600"

# A token: another server, the token in the URL.
mkdir -p nats-tok/ports
nats-server -js -sd "$TW_DIR/nats-tok/store" -a 127.0.0.1 -p -1 --auth 't0ken-xyz' \
	--ports_file_dir "$TW_DIR/nats-tok/ports" >nats-tok.log 2>&1 &
tok_pid=$!
track_pid "$tok_pid"
i=0
while [ -z "$(cat nats-tok/ports/*.ports 2>/dev/null)" ]; do
	[ $i -lt 100 ] || fail "token nats-server not ready after 10 s: $(tail -3 nats-tok.log)"
	sleep 0.1
	i=$((i + 1))
done
tport=$(sed -n 's/.*"nats":\["[^"]*:\([0-9]*\)".*/\1/p' nats-tok/ports/*.ports)
refused badtok "refused this node's credentials" "nats://bad-token@127.0.0.1:$tport"
grep -q "bad-token" badtok.out && fail "the token is shown: $(cat badtok.out)"
CLUSTER_ID=tok NATS_URL="nats://t0ken-xyz@127.0.0.1:$tport" cluster_node t0 -s "$TW_DIR/seeds.txt"
cluster_wait t0
grep -q "the crawl is over" t0/logs/tern.log || fail "t0 did not see the end"
grep -rq "t0ken-xyz" t0.out t0/logs && fail "the token is shown"
pass "a token in the URL joins; a wrong one is refused; neither is shown"
