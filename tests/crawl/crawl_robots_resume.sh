#!/bin/sh
# robots.txt verdicts live in the frontier store: a crawl stopped and resumed
# (from its live state, then from the checkpoint its last stop took) asks
# each host for robots.txt once in all, not once per run, while
# robots.validity-seconds has not run out, and the kept verdicts are
# obeyed: h0 and h5 disallow /p/private/, and after each resume their
# private pages are logged -9998 (precluded by robots.txt) and never
# requested. Judged from the test web's request log and crawl.log. A last
# run with robots.validity-seconds = 1 shows the kept verdicts do expire.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq timeout

tw_start --hosts 8 --pages 30 --links 4 --kb 1 --cross 0.3 --latency-ms 5-20
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
log=$TW_DIR/requests.tsv

# run SECONDS CMD...: runs tern for SECONDS, then stops it with SIGTERM (a
# checkpoint is taken on the way out).
run() {
	_s=$1
	shift
	"$TERN" "$@" >>tern.out 2>&1 &
	_pid=$!
	sleep "$_s"
	kill -TERM $_pid 2>/dev/null
	wait $_pid || fail "tern $1 did not stop cleanly: $(tail -5 tern.out)"
}
robots_requests() {
	awk -F'\t' '$4 == "/robots.txt"' "$log" | wc -l
}

run 2 crawl -j "$job" -s seeds.txt --set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=150 \
	--set politeness.delay-factor=0 --set politeness.respect-crawl-delay-up-to-seconds=0 \
	--set crawl.max-connections=4
first=$(robots_requests)
[ "$first" -ge 4 ] || fail "only $first robots.txt fetched before the first stop"
pages1=$(wc -l <"$log")
lines1=$(wc -l <"$job/logs/crawl.log")
run 2 resume "$job"
[ "$(wc -l <"$log")" -gt "$pages1" ] || fail "the resumed crawl fetched nothing"
ls -d "$job"/checkpoints/cp* >/dev/null 2>&1 || fail "no checkpoint taken at the stop"
"$TERN" resume "$job" --checkpoint latest >>tern.out 2>&1 || fail "resume from the checkpoint failed: $(tail -5 tern.out)"

awk -F'\t' '$4 == "/robots.txt" { n[$3]++ } END { for (h in n) if (n[h] > 1) { print h, n[h]; bad++ } exit bad > 0 }' \
	"$log" >twice.txt || fail "robots.txt fetched again after a resume: $(tr '\n' ' ' <twice.txt)"
hosts=$(awk -F'\t' '$4 == "/robots.txt" { print $3 }' "$log" | sort -u | wc -l)
[ "$hosts" -eq 8 ] || fail "robots.txt of $hosts hosts fetched, wanted 8"
grep -q '^[^ ]* *200 ' "$job/logs/crawl.log" || fail "nothing crawled"
awk -F'\t' -v p="$TW_PORT" '{ print "http://" $3 ":" p $4 }' "$log" | sort -u >requested.txt
awk -F'\t' '$2 == "disallowed" { print $1 }' manifest.tsv | sort >disallowed.txt
[ -s disallowed.txt ] || fail "the web has no disallowed page"
[ -z "$(comm -12 disallowed.txt requested.txt)" ] ||
	fail "disallowed pages requested: $(comm -12 disallowed.txt requested.txt | head -3)"
precluded=$(tail -n +$((lines1 + 1)) "$job/logs/crawl.log" | awk '$2 == -9998 && $4 ~ /\/p\/private\// { print $4 }' | sort -u)
[ -n "$precluded" ] || fail "no private page precluded by a kept verdict after the first stop"
[ -z "$(echo "$precluded" | comm -23 - disallowed.txt)" ] ||
	fail "precluded but allowed: $(echo "$precluded" | comm -23 - disallowed.txt | head -3)"
awk '$4 ~ /\/p\/private\// && $2 == 200 { print $4 }' "$job/logs/crawl.log" | sort -u | comm -12 - disallowed.txt >fetched_disallowed.txt
[ -s fetched_disallowed.txt ] && fail "disallowed pages logged 200: $(head -3 fetched_disallowed.txt)"
pass "kept verdicts obeyed: $(echo "$precluded" | wc -l) private pages of h0/h5 precluded after a resume, none of the $(wc -l <disallowed.txt) disallowed requested"
pass "8 hosts, 3 runs: each robots.txt fetched once ($first before the first stop)"

# Kept verdicts expire as fetched ones do: a job stopped, its
# robots.validity-seconds set to 1 in tern.conf, and resumed later asks the
# hosts it visits for robots.txt again, and still ends: h0's Crawl-delay of
# 1 s makes its queue wait as long as the verdict is valid, and a verdict
# no URI has used yet is not judged expired (else h0 would fetch its
# robots.txt forever).
tw_stop
tw_start --hosts 4 --pages 8 --links 4 --kb 1 --cross 0.3 --latency-ms 5-20
log=$TW_DIR/requests.tsv
job2=$TW_DIR/job2
run 2 crawl -j "$job2" -s "$TW_DIR/seeds.txt" --set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=150 \
	--set politeness.delay-factor=0 --set crawl.max-connections=4
grep -q '^validity-seconds = 86400$' "$job2/tern.conf" || fail "no robots.validity-seconds in tern.conf"
sed -i 's/^validity-seconds = 86400$/validity-seconds = 1/' "$job2/tern.conf"
sleep 1.2
timeout 120 "$TERN" resume "$job2" >>tern.out 2>&1 || fail "resume of job2 failed or did not end (robots.txt fetched forever?): $(tail -5 tern.out)"
again=$(awk -F'\t' '$4 == "/robots.txt" { n[$3]++ } END { for (h in n) if (n[h] > 1) c++; print c + 0 }' "$log")
[ "$again" -ge 1 ] || fail "no robots.txt fetched again once the kept verdicts expired"
pass "kept verdicts expire: $again hosts asked again"
