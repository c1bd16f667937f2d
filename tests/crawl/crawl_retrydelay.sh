#!/bin/sh
# frontier.retry-delay-seconds is the least wait between two attempts of a
# URI (Heritrix's retryDelaySeconds): the back-off's jitter may lengthen it,
# never shorten it. Judged from the test web's request log (tw_gaps):
#   h0  its first three page requests are reset   -> the page retried twice
#   h1  its first two connections are reset       -> robots.txt retried twice
# With retry-delay-seconds = 1 and no politeness delay, every request after
# a reset (status 0 in the log) comes at least 1000 ms after it, but for the
# one immediate replay of a request reset on a reused keep-alive connection
# (RFC 9110 section 9.2.2: the server may have closed it while idle).
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 2 --pages 3 --links 2 --kb 1 --cross 0 \
	--script h0.web.test=reset-pages:3 --script h1.web.test=refuse-first:2
dns_start
cd "$TW_DIR" || fail "no work directory"
"$TERN" crawl -j job --set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
	--set politeness.max-delay-ms=0 \
	--set frontier.max-retries=5 --set frontier.retry-delay-seconds=1 \
	"$(tw_url 0 /)" "$(tw_url 1 /)" >tern.out 2>&1 || fail "tern crawl exited $?: $(cat tern.out)"
tw_stop

for h in h0 h1; do
	tw_gaps $h.web.test >$h.gaps
	n=$(awk '$3 == 0 && $5 == 1' $h.gaps | wc -l)
	[ "$n" -eq 2 ] || fail "$h: $n retries after a reset, wanted 2: $(tr '\n' ';' <$h.gaps)"
	awk '$3 == 0 && $5 == 1 && $1 < 1000 { bad++; print } END { exit bad > 0 }' $h.gaps >$h.short ||
		fail "$h: retried sooner than retry-delay-seconds (1000 ms): $(tr '\n' ';' <$h.short)"
	echo "$h: after each reset: $(awk '$3 == 0 { printf "%d ms ", $1 }' $h.gaps)"
done
grep -q "^[^ ]* *200 .* http://h0\.web\.test:$TW_PORT/ .* 3t\$" job/logs/crawl.log ||
	fail "h0: the seed is not logged 200 after 3 attempts: $(grep 'h0.web.test:[0-9]*/ ' job/logs/crawl.log)"

# Only a retry left (a dead seed, 30 s between attempts): the plain status
# line and ctl status give the wait for the next fetch.
port=$(_lib_random_port)
"$TERN" crawl -j dead --local --set frontier.max-retries=3 --set frontier.retry-delay-seconds=30 \
	"http://127.0.0.1:$port/" >dead.out 2>&1 &
pid=$!
i=0
until grep -q "next fetch in 0:[0-9][0-9]" dead.out; do
	[ $i -lt 300 ] || fail "no wait for the next fetch on the status line: $(cat dead.out)"
	sleep 0.1
	i=$((i + 1))
done
"$TERN" ctl dead status >dead.json || fail "ctl status: $(cat dead.json)"
node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1]));
	process.exit(j.next_fetch_in_seconds > 10 && j.next_fetch_in_seconds <= 30 ? 0 : 1)' dead.json ||
	fail "ctl status lacks the wait for the next fetch: $(cat dead.json)"
"$TERN" ctl dead stop >/dev/null || fail "stop"
wait $pid
pass "retry-delay-seconds is a floor for retries and the connection back-off; the wait is said"
