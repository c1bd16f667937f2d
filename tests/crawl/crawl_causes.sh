#!/bin/sh
# A crawl that cannot fetch says why, as a person running it sees it: the
# first failure of each kind for a host on the terminal (stderr) and in
# logs/tern.log with what happens next, crawl.log's Heritrix status with
# the cause in its annotations (err:WORD), the end summary's count by
# cause naming the settings that change it, and reports/stats.json's
# failures_by_cause. A crawl whose every seed failed for good ends with
# exit status 1, soon with small retry settings.
#   refused   nothing listens on the seed's port         -2 / -61, connect
#   tls       https with a self-signed certificate      -61, tls-verify:self-signed
#   robots5xx robots.txt answers 500                     -9998, robots-unavailable
#   disallow  the seed is disallowed by robots.txt       -9998, robots-disallowed
#   nxdomain  a name the DNS server does not know        -6 (dns: -1), dns-nxdomain,
#             at once: the answer is final, not retried
#   dnsdead   a DNS server that never answers            -6 after retries, dns-timeout
#   notfound  the seed answers 404                       404, counted as http
#   private   hosts that resolve to 127.0.0.1, not allowed -7, private-address
#   mixed     one good seed and one refused              exit 0, connect counted
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq
need_cmd node
need_cmd openssl
need_cmd script

# A certificate that signs itself (no CA), for the names of the test web.
tw_dir
ss=$TW_DIR/selfsigned
mkdir -p "$ss"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
	-keyout "$ss/key.pem" -out "$ss/cert.pem" -days 2 -subj "/CN=web.test" \
	-addext "subjectAltName=DNS:*.web.test,DNS:web.test,IP:127.0.0.1" >"$ss/log" 2>&1 ||
	fail "openssl self-signed: $(cat "$ss/log")"
TW_CERT=$ss/cert.pem TW_KEY=$ss/key.pem
tw_start --tls --hosts 3 --pages 4 --links 2 --kb 1 --cross 0.5 --script h1.web.test=robots-5xx
dns_start
cd "$TW_DIR" || fail "no work directory"
closed=$(node -e 'const s = require("net").createServer();
	s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')

# crawl NAME SEED...: a crawl with small retry settings; its exit status in
# NAME.rc, stdout (the summary) in NAME.out, stderr (the terminal) in NAME.err.
crawl() {
	_n=$1
	shift
	"$TERN" crawl -j "$_n" --set dns.servers="$DNS_SERVER" \
		--set fetch.allow-private-addresses=true \
		--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
		--set frontier.max-retries=2 --set frontier.retry-delay-seconds=1 \
		"$@" >"$_n.out" 2>"$_n.err"
	echo $? >"$_n.rc"
}

# expect NAME RC TERMINAL-ERE CRAWLLOG-ERE CAUSE SETTING: the exit status,
# a terminal line and the same line in tern.log, a crawl.log line, the
# summary's count of CAUSE naming SETTING, and stats.json's count.
expect() {
	_n=$1 _rc=$2 _term=$3 _cl=$4 _cause=$5 _set=$6
	[ "$(cat "$_n.rc")" = "$_rc" ] ||
		fail "$_n: exit $(cat "$_n.rc"), wanted $_rc: $(cat "$_n.out" "$_n.err")"
	grep -q Sanitizer "$_n.err" && fail "$_n: sanitizer report: $(cat "$_n.err")"
	grep -Eq "^tern: $_term" "$_n.err" || fail "$_n: terminal lacks /$_term/: $(cat "$_n.err")"
	_line=$(grep -E "^tern: $_term" "$_n.err" | head -1 | sed 's/^tern: //')
	grep -qF "$_line" "$_n/logs/tern.log" || fail "$_n: tern.log lacks '$_line': $(cat "$_n/logs/tern.log")"
	grep -Eq "$_cl" "$_n/logs/crawl.log" || fail "$_n: crawl.log lacks /$_cl/: $(cat "$_n/logs/crawl.log")"
	grep -Eq "^tern: +$_cause +1 .*see .*$_set" "$_n.out" ||
		fail "$_n: summary lacks '$_cause 1 ... $_set': $(cat "$_n.out")"
	node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1]));
		if (j.failures_by_cause[process.argv[2]] !== 1) {
			console.error(JSON.stringify(j.failures_by_cause)); process.exit(1);
		}' "$_n/reports/stats.json" "$_cause" || fail "$_n: stats.json failures_by_cause.$_cause is not 1"
	if [ "$_rc" = 1 ]; then
		grep -q "every seed failed for good" "$_n.out" || fail "$_n: the end does not say why: $(cat "$_n.out")"
	fi
}

crawl refused "http://127.0.0.1:$closed/"
expect refused 1 "127\.0\.0\.1:$closed: connection refused \(seed http://127\.0\.0\.1:$closed/\); attempt 2 of 2 at [0-9:]{8}, in 1 s" \
	"^.{24} +-61 +- http://127\.0\.0\.1:$closed/ .* 2t,err:connection-refused$" connect frontier.max-retries
grep -q "gave up after 2 attempts" refused.err || fail "refused: the end of the retries is not said: $(cat refused.err)"
[ "$(grep -c ' -2 .*/robots.txt .*err:connection-refused$' refused/logs/crawl.log)" -eq 2 ] ||
	fail "refused: robots.txt attempts without their cause: $(cat refused/logs/crawl.log)"

# On a terminal the line first clears the live status line, which comes
# back at its next refresh (script(1) gives the crawl a pty).
script -qfec "$TERN crawl -j pty --set frontier.max-retries=2 --set frontier.retry-delay-seconds=2 \
	http://127.0.0.1:$closed/" pty.out >/dev/null
tr '\r\033' 'RE' <pty.out >pty.txt
grep -q "RE\[Ktern: 127\.0\.0\.1:$closed: connection refused (seed" pty.txt ||
	fail "pty: the failure line does not clear the status line first: $(cat pty.txt)"
sed -n "/tern: 127\.0\.0\.1:$closed: connection refused/,\$p" pty.txt | grep -q 'RE\[K[0-9]' ||
	fail "pty: no status line after the failure line: $(cat pty.txt)"

crawl tls "https://h0.web.test:$TW_TLS_PORT/"
expect tls 1 "h0\.web\.test:$TW_TLS_PORT: certificate verify failed \(self-signed\) \(seed [^)]*\); attempt 2 of 2 at .*see fetch\.tls-verify, fetch\.ca-file" \
	" -61 +- https://h0\.web\.test:$TW_TLS_PORT/ .* 2t,err:tls-verify:self-signed$" tls fetch.ca-file

crawl robots5xx "http://h1.web.test:$TW_PORT/"
expect robots5xx 1 "h1\.web\.test:$TW_PORT: robots\.txt answered a server error .*\(seed http://h1\.web\.test:$TW_PORT/\); not fetched; see robots\.on-server-error" \
	" -9998 +- http://h1\.web\.test:$TW_PORT/ .* err:robots-unavailable$" robots robots.on-server-error
grep -q ' 500 .*/robots.txt ' robots5xx/logs/crawl.log || fail "robots5xx: robots.txt's 500 not logged"

crawl disallow "http://h0.web.test:$TW_PORT/p/private/1.html"
expect disallow 1 "h0\.web\.test:$TW_PORT: robots\.txt disallows it \(seed [^)]*\); not fetched; see robots\.policy" \
	" -9998 +- http://h0\.web\.test:$TW_PORT/p/private/1\.html .* err:robots-disallowed$" robots robots.policy

crawl nxdomain "http://nosuch.web.test:$TW_PORT/"
expect nxdomain 1 "nosuch\.web\.test: name does not exist \(NXDOMAIN\) \(seed [^)]*\); not fetched; see dns\.servers" \
	" -6 +- http://nosuch\.web\.test:$TW_PORT/ .* - err:dns-nxdomain$" dns dns.servers
grep -Eq ' -1 +- dns:nosuch\.web\.test .* err:dns-nxdomain$' nxdomain/logs/crawl.log ||
	fail "nxdomain: the dns: line lacks its cause: $(cat nxdomain/logs/crawl.log)"

# A DNS server that never answers: the lookup times out.
dns_dead_start
crawl dnsdead --set dns.servers="$DNS_DEAD_SERVER" --set dns.timeout-ms=200 \
	--set dns.tries=1 "http://h0.web.test:$TW_PORT/"
expect dnsdead 1 "h0\.web\.test: no DNS answer in time \(seed [^)]*\); attempt 2 of 2 at .*see dns\.servers, dns\.timeout-ms" \
	" -6 +- http://h0\.web\.test:$TW_PORT/ .* 2t,err:dns-timeout$" dns dns.timeout-ms

# A seed that answers 404 is the server's answer: said (for a seed), counted
# as http, and with nothing else fetched the crawl failed.
crawl notfound "http://h2.web.test:$TW_PORT/p/missing-1.html"
[ "$(cat notfound.rc)" = 1 ] || fail "notfound: exit $(cat notfound.rc): $(cat notfound.out notfound.err)"
grep -q "^tern: h2\.web\.test:$TW_PORT: HTTP error status 404 (seed http://h2\.web\.test:$TW_PORT/p/missing-1\.html)$" notfound.err ||
	fail "notfound: terminal: $(cat notfound.err)"
grep -q "HTTP error status 404 (seed" notfound/logs/tern.log || fail "notfound: tern.log"
grep -Eq "^.{24} +404 .* http://h2\.web\.test:$TW_PORT/p/missing-1\.html - - text/html .* -$" notfound/logs/crawl.log ||
	fail "notfound: crawl.log: $(cat notfound/logs/crawl.log)"
grep -Eq "^tern: +http +1  HTTP 4xx/5xx answers" notfound.out || fail "notfound: summary: $(cat notfound.out)"
grep -q "every seed failed for good" notfound.out || fail "notfound: the end does not say why: $(cat notfound.out)"

# Private addresses refused: every test web host resolves to 127.0.0.1. The
# seed's own host is exempt (tern.conf(5), fetch.allow-private-addresses),
# its links to the other hosts of the test web (h2's pages link to h0; in
# scope through the SURT prefix of web.test) are not.
crawl private --set fetch.allow-private-addresses=false --set "crawl.scope=http://(test,web," \
	"http://h2.web.test:$TW_PORT/"
grep -q Sanitizer private.err && fail "private: sanitizer report: $(cat private.err)"
line=$(grep -E "^tern: h[0-9]\.web\.test:$TW_PORT: private, loopback or reserved address refused \(.*\); not fetched; see fetch\.allow-private-addresses$" private.err | head -1 | sed 's/^tern: //')
[ -n "$line" ] || fail "private: terminal lacks the refusal: $(cat private.err)"
grep -qF "$line" private/logs/tern.log || fail "private: tern.log lacks '$line'"
grep -Eq " -7 +- http://h[0-9]\.web\.test:$TW_PORT/.* err:private-address$" private/logs/crawl.log ||
	fail "private: crawl.log: $(cat private/logs/crawl.log)"
grep -Eq "^tern: +private +[1-9][0-9]* .*see fetch\.allow-private-addresses$" private.out ||
	fail "private: summary: $(cat private.out)"
node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1]));
	process.exit(j.failures_by_cause.private >= 1 ? 0 : 1)' private/reports/stats.json ||
	fail "private: stats.json: $(cat private/reports/stats.json)"

# One seed answers: the crawl did its work (exit 0), and still says and
# counts the other's failure.
crawl mixed "http://h2.web.test:$TW_PORT/" "http://127.0.0.1:$closed/"
expect mixed 0 "127\.0\.0\.1:$closed: connection refused" "err:connection-refused$" connect frontier.max-retries
grep -q "every seed failed" mixed.out && fail "mixed: said every seed failed: $(cat mixed.out)"
grep -q '^tern: crawl finished .*: [1-9][0-9]* pages' mixed.out || fail "mixed: no pages: $(cat mixed.out)"
tw_stop
pass "failures said on the terminal, in tern.log, crawl.log, the summary and stats.json"
