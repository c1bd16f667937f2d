#!/bin/sh
# GET /report/queues on a live crawl is walked between loop iterations
# (src/ops/ctlwalk.c: CTLWALK_STEP records a wakeup) and answered when
# the walk ends: with 2,500 queues (three pieces) every queue is in the
# answer once, in key order, in text and in JSON, with and without a state
# filter, for several clients asking at once; /status is answered while
# they load; the revisits report's URI records and the text frontier
# report's longest queues are walked the
# same way (and agree with the offline report's); the hosts report reads crawl.log in pieces the same way; a
# client that leaves before its answer costs nothing (the
# crawl goes on, the next report is whole). How long the loop stalls is
# measured in bench/reportstall.sh, not here.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq node curl

tw_start --hosts 4 --pages 10 --kb 1 --links 2 --cross 0
dns_start
cd "$TW_DIR" || fail "no work directory"
awk -v p="$TW_PORT" 'BEGIN { for (i = 0; i < 2500; i++) printf "http://h%d.web.test:%d/\n", i, p }' >many.txt
job=$TW_DIR/job
sock=$job/control.sock
policy_crawl "$job" -s many.txt --set crawl.pause-at-start=true
policy_wait_state "$job" PAUSED
get() { curl -s --unix-socket "$sock" "http://localhost$1"; }

get /report/queues >all.txt &
a=$!
get '/report/queues?format=json' >all.json &
b=$!
get '/report/queues?state=inactive' >inactive.txt &
c=$!
get /status >status.json || fail "no /status while reports load"
grep -q '"state": "PAUSED"' status.json || fail "/status while reports load: $(cat status.json)"
wait $a $b $c
n=$(grep -vc '^#' all.txt)
[ "$n" -eq 2500 ] || fail "text report: $n queues, want 2500: $(head -3 all.txt)"
[ "$(grep -v '^#' all.txt | awk '{ print $2 }' | sort -u | wc -l)" -eq 2500 ] || fail "a queue given twice"
grep -v '^#' all.txt | awk '{ print $2 }' >keys.txt
LC_ALL=C sort -c keys.txt || fail "not in key order"
node -e 'const a = JSON.parse(require("fs").readFileSync("all.json", "utf8"));
	if (a.length !== 2500) { console.error("json: " + a.length); process.exit(1); }' || fail "JSON report"
ni=$(grep -vc '^#' inactive.txt)
[ "$ni" -eq "$(grep -c '^INACTIVE ' all.txt)" ] && [ "$ni" -gt 0 ] || fail "inactive: $ni of $(grep -c '^INACTIVE ' all.txt)"
pass "2,500 queues, walked in pieces: each once in key order (text, JSON, filtered), three clients at once"

# The text frontier report's 20 longest queues, walked in pieces too: the
# same queues as the offline report gives once the crawl has stopped.
get /report/frontier >frontier.txt || fail "no frontier report"
grep -q '^PAUSE - 2500 URI queues' frontier.txt || fail "frontier report: $(head -2 frontier.txt)"
sed -n '/ longest queues:/,/ready queues/p' frontier.txt | awk '/^  [A-Z-]+ / { print $2 }' >longest-live.txt
[ "$(wc -l <longest-live.txt)" -eq 20 ] || fail "longest queues: $(cat longest-live.txt)"
pass "the text frontier report, its longest queues walked in pieces"

# The revisits report walks every URI record in pieces too.
get '/report/revisits?format=json' >revisits-live.json || fail "no revisits report"
node -e 'const r = JSON.parse(require("fs").readFileSync("revisits-live.json", "utf8"));
	if (r.uris !== 2500 || r.due.queued !== 2500 || r.due.waiting !== 0) { console.error(JSON.stringify(r).slice(0, 300)); process.exit(1); }' ||
	fail "live revisits report"
pass "the revisits report, every URI record walked in pieces"

# GET /report/hosts reads crawl.log in 256 KiB pieces: 6,000 lines (about
# 900 KB, four pieces) of three hosts appended to the paused crawl's log.
awk 'BEGIN { for (i = 0; i < 6000; i++)
	printf "2026-01-01T00:00:00.000Z   200       1000 http://x%d.example/p%06d - - text/html #001 20260101000000000+1 sha1:BVEAJXYRDNQMHWDLCQBTYWWWSTTPGAMW - padding-padding-padding-padding-padding-padding\n", i % 3, i }' >>"$job/logs/crawl.log"
get '/report/hosts?format=json' >hosts.json || fail "no hosts report"
node -e 'const h = JSON.parse(require("fs").readFileSync("hosts.json", "utf8"));
	for (const n of [0, 1, 2]) { const x = h.find(e => e.host === "x" + n + ".example");
		if (!x || x.urls !== 2000) { console.error(JSON.stringify(h).slice(0, 300)); process.exit(1); } }' ||
	fail "hosts report over pieces"
pass "the hosts report reads crawl.log in pieces: 2,000 lines of each of three hosts counted"

# Clients that leave before their answer.
for i in 1 2 3; do
	timeout 0.01 curl -s --unix-socket "$sock" http://localhost/report/queues >/dev/null 2>&1
done
get /report/queues >again.txt
[ "$(grep -vc '^#' again.txt)" -eq 2500 ] || fail "after clients left: $(grep -vc '^#' again.txt)"
pass "clients that leave early cost nothing"
"$TERN" ctl "$job" stop >/dev/null || fail "ctl stop"
policy_wait_exit 0
"$TERN" report "$job" frontier >frontier-off.txt || fail "offline frontier report"
sed -n '/ longest queues:/,/ready queues/p' frontier-off.txt | awk '/^  [A-Z-]+ / { print $2 }' >longest-off.txt
cmp -s longest-live.txt longest-off.txt || fail "longest queues live and offline differ: $(diff longest-live.txt longest-off.txt | head -5)"
pass "the live longest queues are the offline report's"
"$TERN" report "$job" revisits --json >revisits-off.json || fail "offline revisits report"
node -e 'const fs = require("fs"), a = JSON.parse(fs.readFileSync("revisits-live.json", "utf8")),
	b = JSON.parse(fs.readFileSync("revisits-off.json", "utf8"));
	delete a.due.next_due_ms; delete b.due.next_due_ms;
	if (a.uris !== b.uris || JSON.stringify(a.due) !== JSON.stringify(b.due)) { console.error(JSON.stringify([a.due, b.due])); process.exit(1); }' ||
	fail "live and offline revisits reports differ"
pass "the live revisits report agrees with the offline one"
