#!/bin/sh
# The request headers of tern.conf(5) (fetch.accept-language, fetch.from,
# fetch.extra-headers, the last two per SURT prefix through an [override]
# section) arrive at a server nobody here wrote (Debian's nginx logs them)
# on every request, robots.txt's too, and are in the WARC request records
# as npm warcio reads them. A header that would break the exchange is
# refused at start, naming the file and line.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
. "$top_srcdir/tests/crawl/access_lib.sh"
need_cmd nginx curl node
tw_dir
acc_site "$TW_DIR"
acc_nginx "$TW_DIR"

cat >"$TW_DIR/tern.conf" <<CONF
[fetch]
accept-language = da, en-gb;q=0.8, en;q=0.7
from = archive@example.org
extra-headers = X-A: global one | X-Private: no | Accept: text/html

[override "127.0.0.1:$ACC_PORT)/private/"]
fetch.extra-headers = X-A: private | X-Private: yes
fetch.accept-language = fr
CONF
"$TERN" crawl --local -c "$TW_DIR/tern.conf" -j "$TW_DIR/job" "http://127.0.0.1:$ACC_PORT/" \
	>"$TW_DIR/crawl.out" 2>&1 || fail "tern crawl exited $?: $(cat "$TW_DIR/crawl.out")"
grep -q Sanitizer "$TW_DIR/crawl.out" && fail "sanitizer report: $(cat "$TW_DIR/crawl.out")"
tab=$(printf '\t')
for u in /robots.txt / /a.html; do
	grep -qx "$u${tab}200${tab}da, en-gb;q=0.8, en;q=0.7${tab}archive@example.org${tab}global one${tab}no${tab}-" "$ACC_LOG" ||
		fail "$u: headers not as set: $(grep "^$u$tab" "$ACC_LOG")"
done
for u in /private/p.html /private/q.html; do
	grep -qx "$u${tab}200${tab}fr${tab}archive@example.org${tab}private${tab}yes${tab}-" "$ACC_LOG" ||
		fail "$u: override headers not as set: $(grep "^$u$tab" "$ACC_LOG")"
done
[ "$(wc -l <"$ACC_LOG")" -eq 5 ] || fail "expected 5 requests: $(cat "$ACC_LOG")"
pass "Accept-Language, From and extra headers reach nginx, overridden under /private/"

acc_requests "$TW_DIR/job" | grep '"type":"request"' >"$TW_DIR/requests.jsonl"
[ "$(wc -l <"$TW_DIR/requests.jsonl")" -eq 5 ] || fail "expected 5 request records: $(cat "$TW_DIR/requests.jsonl")"
node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
for (const r of lines) {
	const priv = r.uri.includes("/private/");
	const want = ["Accept-Language: " + (priv ? "fr" : "da, en-gb;q=0.8, en;q=0.7"),
		"From: archive@example.org", "X-A: " + (priv ? "private" : "global one"),
		"X-Private: " + (priv ? "yes" : "no")];
	for (const w of want)
		if (!r.head.split("\r\n").includes(w)) { console.error(r.uri + ": no " + w + " in\n" + r.head); process.exit(1); }
	if (!r.head.endsWith("\r\n\r\n")) { console.error(r.uri + ": head not ended"); process.exit(1); }
	// The Accept of extra-headers replaces tern'"'"'s own; the override does not set one.
	const accept = r.head.split("\r\n").filter((l) => /^accept:/i.test(l));
	if (accept.length !== 1 || (!priv && accept[0] !== "Accept: text/html")) {
		console.error(r.uri + ": Accept lines " + JSON.stringify(accept)); process.exit(1); }
}' "$TW_DIR/requests.jsonl" || fail "request records"
pass "the WARC request records hold the headers sent, one Accept"

# The same settings in a --workers crawl: each worker reads them from the
# same -c FILE, and the one that holds the host sends them.
need_cmd nats-server
: >"$ACC_LOG"
"$TERN" crawl --workers 2 --local -c "$TW_DIR/tern.conf" -j "$TW_DIR/jobw" "http://127.0.0.1:$ACC_PORT/" \
	>"$TW_DIR/crawlw.out" 2>&1 || fail "tern crawl --workers exited $?: $(cat "$TW_DIR/crawlw.out")"
for u in /robots.txt / /a.html; do
	grep -qx "$u${tab}200${tab}da, en-gb;q=0.8, en;q=0.7${tab}archive@example.org${tab}global one${tab}no${tab}-" "$ACC_LOG" ||
		fail "--workers: $u: headers not as set: $(grep "^$u$tab" "$ACC_LOG")"
done
for u in /private/p.html /private/q.html; do
	grep -qx "$u${tab}200${tab}fr${tab}archive@example.org${tab}private${tab}yes${tab}-" "$ACC_LOG" ||
		fail "--workers: $u: override headers not as set: $(grep "^$u$tab" "$ACC_LOG")"
done
pass "the headers and their override in a --workers crawl"

printf '[fetch]\nextra-headers = X-A: 1 | Host: evil.example\n' >"$TW_DIR/bad.conf"
"$TERN" crawl -c "$TW_DIR/bad.conf" -j "$TW_DIR/bad" "http://127.0.0.1:$ACC_PORT/" >"$TW_DIR/bad.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a Host header: exit $rc, expected 2: $(cat "$TW_DIR/bad.out")"
grep -q "bad.conf:2: fetch.extra-headers: Host cannot be set" "$TW_DIR/bad.out" ||
	fail "a Host header not explained: $(cat "$TW_DIR/bad.out")"
"$TERN" crawl -j "$TW_DIR/bad2" --set 'fetch.accept-language=en
X-Evil: 1' "http://127.0.0.1:$ACC_PORT/" >"$TW_DIR/bad2.out" 2>&1
[ $? -eq 2 ] || fail "a CR/LF value accepted: $(cat "$TW_DIR/bad2.out")"
grep -q "control characters" "$TW_DIR/bad2.out" || fail "LF not explained: $(cat "$TW_DIR/bad2.out")"
pass "a Host header and a line break are refused at start, with the reason"
