#!/bin/sh
# Preloaded URI precedence end to end (seed 001, checklist 21): a crawl is
# started paused and stopped, `tern precedence-load FILE JOBDIR` imports
# "URI PRECEDENCE" lines into the stopped job (a bad line is refused with
# its file:line), and the resumed crawl orders each queue by them: no URI
# leaves its queue while a queued one has a better preloaded precedence
# (URIs without a value fall back to the cost policy: 1), and the order is
# visibly not the discovery order.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

tw_start --hosts 1 --pages 30 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set crawl.pause-at-start=true \
	--set frontier.uri-precedence-policy=preloaded --set frontier.uri-base-precedence=1
policy_wait_sock "$job"
[ "$(policy_state "$job")" = PAUSED ] || fail "not paused at start: $("$TERN" ctl "$job" status)"
"$TERN" precedence-load /dev/null "$job" >/dev/null 2>err.txt && fail "precedence-load into a running crawl's store"
"$TERN" ctl "$job" stop >/dev/null || fail "ctl stop failed"
policy_wait_exit 0
[ "$(wc -l <"$TW_DIR/requests.tsv")" -eq 0 ] || fail "a crawl paused at start fetched something"

u="http://h0.web.test:$TW_PORT"
printf '%s/p/1.html 5\n%s/p/2.html abc\n' "$u" "$u" >bad.txt
"$TERN" precedence-load bad.txt "$job" >/dev/null 2>err.txt
[ $? -eq 2 ] || fail "bad line not refused"
grep -q '^tern: bad.txt:2: ' err.txt || fail "bad line message: $(cat err.txt)"
printf '%s/x 0\n' "$u" >bad.txt
"$TERN" precedence-load bad.txt "$job" >/dev/null 2>err.txt && fail "precedence 0 accepted"
grep -q 'bad.txt:1: precedence out of range' err.txt || fail "range message: $(cat err.txt)"

{
	echo "# page K gets 40 - K: the deeper pages first"
	echo
	k=1
	while [ $k -lt 30 ]; do
		echo "$u/p/$k.html#frag $((40 - k))"
		k=$((k + 1))
	done
} >prec.txt
"$TERN" precedence-load prec.txt "$job" >load.out 2>&1 || fail "precedence-load: $(cat load.out)"
grep -q "loaded 29 precedences" load.out || fail "load: $(cat load.out)"

"$TERN" resume "$job" >"$job.out" 2>&1 &
CRAWL_PID=$!
track_pid $CRAWL_PID
policy_wait_sock "$job"
"$TERN" ctl "$job" unpause >/dev/null || fail "unpause failed"
policy_wait_exit 0
tw_stop

sed 's/#frag//' prec.txt | grep -v '^#' >prec.map
v=$(policy_violations "$job/logs/crawl.log" prec.map)
[ "$v" -eq 0 ] || fail "$v URIs left their queue ahead of a queued URI with a better preloaded precedence"
# Emitted later although discovered earlier: the values reordered the queue.
inv=$(awk '$4 !~ /^dns:/ && $4 !~ /robots\.txt$/ && ($5 == "-" || $5 ~ /L$/) {
		n++; if (!($4 in line)) line[$4] = n; d[n] = ($6 in line) ? line[$6] : 0
	} END { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (d[j] < d[i]) c++; print c + 0 }' \
	"$job/logs/crawl.log")
[ "$inv" -gt 0 ] || fail "the crawl kept discovery order: preloaded values had no effect"
[ "$(awk '$4 ~ /\/p\/[0-9]+\.html$/' "$job/logs/crawl.log" | wc -l)" -ge 29 ] || fail "pages missing"
pass "preloaded precedence kept ($inv reorderings against discovery order)"
