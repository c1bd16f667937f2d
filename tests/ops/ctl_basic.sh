#!/bin/sh
# The control socket against a running crawl (doc/formats.md, "Control socket"): mode
# 0600; status; pause reaches PAUSED and no request reaches the web until
# unpause; live reports in text and JSON; metrics; and hostile clients
# (malformed, oversized and never-finished requests, more connections than
# the cap) get 4xx/503 JSON errors while the crawl goes on; stop ends it
# with exit 0 and removes the socket.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq node curl

tw_start --hosts 4 --pages 400 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
sock=$job/control.sock
raw="node $top_srcdir/tests/ops/ctl_raw.mjs $sock"
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set politeness.min-delay-ms=100 \
	--set crawl.max-connections=4
policy_wait_sock "$job"
[ -S "$sock" ] || fail "no socket"
[ "$(stat -c %a "$sock")" = 600 ] || fail "socket mode $(stat -c %a "$sock")"
[ "$(policy_state "$job")" = RUNNING ] || fail "state: $("$TERN" ctl "$job" status)"

# Hostile requests: each gets its 4xx JSON error.
check() { # WANT-STATUS OUTPUT
	case $2 in "$1 {\"error\": "*) ;; *) fail "expected $1 with a JSON error, got: $2" ;; esac
}
check 400 "$($raw send '"GARBAGE\r\n\r\n"')"
check 400 "$($raw send '"GET /status HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"')"
check 431 "$($raw bighead 64)"
check 413 "$($raw bigbody 8)"
check 413 "$($raw send '"POST /settings HTTP/1.1\r\nContent-Length: 100000000\r\n\r\n"')"
check 414 "$($raw send "\"GET /$(head -c 3000 /dev/zero | tr '\0' a) HTTP/1.1\\r\\n\\r\\n\"")"
check 404 "$($raw send '"GET /nope HTTP/1.1\r\n\r\n"')"
check 405 "$($raw send '"GET /pause HTTP/1.1\r\n\r\n"')"
check 405 "$($raw send '"DELETE /status HTTP/1.1\r\n\r\n"')"
check 400 "$($raw send '"POST /settings HTTP/1.1\r\nContent-Length: 7\r\n\r\n{broken"')"
check 400 "$($raw send '"POST /settings HTTP/1.1\r\nContent-Length: 2\r\n\r\n[]"')"
check 400 "$($raw send '"POST /settings HTTP/1.1\r\nContent-Length: 16\r\n\r\n{\"no.such\": \"1\"}"')"
# Another user, once the socket's mode no longer keeps it out (root, or
# sudo, can make one): the server checks the peer's uid itself
# (SO_PEERCRED), 403.
as_nobody=
if [ "$(id -u)" = 0 ]; then
	as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
elif sudo -n true 2>/dev/null; then
	as_nobody="sudo -n setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ -n "$as_nobody" ] && command -v setpriv >/dev/null 2>&1; then
	chmod 666 "$sock"
	out=$($as_nobody curl -s --unix-socket "$sock" http://localhost/status 2>&1)
	chmod 600 "$sock"
	case $out in *"owner's user only"*) ;; *) fail "another user's request answered: $out" ;; esac
	pass "control socket: another uid refused (403) even with the mode opened"
else
	echo "note: no root or sudo: the peer uid check is not exercised here"
fi
check 400 "$($raw send '"POST /settings HTTP/1.1\r\nContent-Length: 30\r\n\r\n{\"crawl.max-pages\": [1, 2, 3]}"')"
check 400 "$($raw send '"GET /report/queues?state=sideways HTTP/1.1\r\n\r\n"')"
check 404 "$($raw send '"GET /report/nothing HTTP/1.1\r\n\r\n"')"
# A checkpoint through the socket, taken without stopping the crawl.
out=$($raw send '"POST /checkpoint HTTP/1.1\r\n\r\n"')
case $out in "200 {"*'"checkpoint": "cp'*) ;; *) fail "POST /checkpoint: $out" ;; esac
ls "$job"/checkpoints/cp*/valid >/dev/null 2>&1 || fail "no valid checkpoint after POST /checkpoint"
[ "$(policy_state "$job")" = RUNNING ] || fail "crawl not running after hostile requests"

# More connections than the cap, each sending half a request while the
# crawl keeps fetching: the extra ones get 503 at once, the others 408.
before=$(wc -l <"$TW_DIR/requests.tsv")
$raw flood 20 >flood.txt 2>flood.err &
flood=$!
track_pid $flood
sleep 3
after=$(wc -l <"$TW_DIR/requests.tsv")
[ "$after" -gt "$before" ] || fail "the crawl stalled while the socket was flooded ($before requests)"
wait $flood
# (A connection of an earlier request may still be closing: at most 16 are
# served, the rest refused, and every one gets an answer.)
tr ' ' '\n' <flood.txt | awk -F= '{ n[$1] = $2; t += $2 }
	END { exit !(t == 20 && n[408] + n[503] == 20 && n[408] <= 16 && n[408] >= 14) }' ||
	fail "flood answers: $(cat flood.txt flood.err)"

# Pause: PAUSED once nothing is in flight, and nothing is fetched meanwhile.
"$TERN" ctl "$job" pause >/dev/null || fail "pause failed"
policy_wait_state "$job" PAUSED '"in_flight": 0'
n1=$(wc -l <"$TW_DIR/requests.tsv")
sleep 1
[ "$(wc -l <"$TW_DIR/requests.tsv")" -eq "$n1" ] || fail "requests while paused"
"$TERN" ctl "$job" pause | grep -q '"note": "already paused"' || fail "second pause"

# Live reports.
"$TERN" report "$job" frontier >frontier.txt || fail "report frontier"
grep -q '^PAUSE - 4 URI queues: ' frontier.txt || fail "frontier: $(head -1 frontier.txt)"
"$TERN" report "$job" queues --json >queues.json || fail "report queues"
"$TERN" report "$job" frontier --json >frontier.json || fail "report frontier --json"
"$TERN" report "$job" stats --json >stats.json || fail "report stats"
"$TERN" report "$job" stats >stats.txt || fail "report stats as text"
grep -q '^state: PAUSED$' stats.txt && grep -q '^statuses.2xx: [0-9]' stats.txt &&
	grep -q '^frontier.uris.queued: [0-9]' stats.txt || fail "report stats as text: $(cat stats.txt)"
"$TERN" report "$job" hosts --json >hosts.json || fail "report hosts"
node -e 'const fs = require("fs"), r = (f) => JSON.parse(fs.readFileSync(f, "utf8"));
	const q = r("queues.json"), f = r("frontier.json"), s = r("stats.json"), h = r("hosts.json");
	if (q.length !== 4 || q.some(x => !x.state || !x.key)) throw "queues";
	if (f.state !== "PAUSE" || f.queues.total !== 4) throw "frontier";
	if (s.state !== "PAUSED" || !(s.pages > 0)) throw "stats";
	if (!h.some(x => x.host === "h0.web.test" && x.urls > 0)) throw "hosts";' ||
	fail "JSON reports: $(cat frontier.json stats.json)"
# Arguments are escaped into the request target: a report name or a state
# cannot add a query parameter, a header or a second request.
"$TERN" ctl "$job" report 'queues?format=json&x=' >smuggle.out 2>&1 &&
	fail "a report name with a query was taken: $(head -c 300 smuggle.out)"
grep -q '^\[' smuggle.out && fail "a report name added ?format=json: $(head -c 300 smuggle.out)"
"$TERN" ctl "$job" report queues --state 'retired&format=json' >smuggle.out 2>&1 &&
	fail "a state with a parameter was taken: $(head -c 300 smuggle.out)"
"$TERN" ctl "$job" report "$(printf 'queues HTTP/1.1\r\nX-A: b\r\n')" >smuggle.out 2>&1 &&
	fail "a report name with a request line was taken: $(head -c 300 smuggle.out)"
pass "ctl: arguments cannot reach the request line or the query"
curl -s --unix-socket "$sock" http://localhost/metrics >metrics.txt || fail "metrics"
grep -q '^tern_state{state="PAUSED"} 1$' metrics.txt || fail "metrics state: $(grep state metrics.txt)"
grep -q '^tern_pages_total [1-9]' metrics.txt || fail "metrics pages"
grep -q '^tern_queues{state="snoozed"} ' metrics.txt || fail "metrics queues"
grep -q '^tern_resident_memory_bytes [1-9]' metrics.txt || fail "metrics RSS"

"$TERN" ctl "$job" unpause >/dev/null || fail "unpause failed"
[ "$(policy_state "$job")" = RUNNING ] || fail "not running after unpause"
sleep 0.5
[ "$(wc -l <"$TW_DIR/requests.tsv")" -gt "$n1" ] || fail "nothing fetched after unpause"
# tern.conf is replaced durably (src/archive/smallfile.c): the operator's
# mode is kept, and no temporary file is left beside it.
chmod 600 "$job/tern.conf"
"$TERN" ctl "$job" set politeness.min-delay-ms=50 crawl.max-connections=8 >set.json || fail "set"
grep -q '"politeness.min-delay-ms": "now"' set.json && grep -q '"crawl.max-connections": "on resume"' set.json ||
	fail "set: $(cat set.json)"
grep -q '^min-delay-ms = 50$' "$job/tern.conf" || fail "tern.conf not rewritten"
[ "$(stat -c %a "$job/tern.conf")" = 600 ] || fail "tern.conf mode $(stat -c %a "$job/tern.conf") after a set"
[ -z "$(find "$job" -maxdepth 1 -name '*.tmp')" ] || fail "temporary files left: $(find "$job" -maxdepth 1 -name '*.tmp')"
"$TERN" ctl "$job" stop >/dev/null || fail "stop failed"
policy_wait_exit 0
[ ! -e "$sock" ] || fail "socket left behind"
"$TERN" ctl "$job" status 2>err.txt && fail "status answered after the end"
grep -q "no crawl is running" err.txt || fail "ctl without a crawl: $(cat err.txt)"
grep -q "state RUNNING -> STOPPING: stopped by the operator" "$job/logs/tern.log" || fail "tern.log"
tw_stop
pass "control socket: states, reports and hostile clients"
