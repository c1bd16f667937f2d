#!/bin/sh
# What tern says when a crawl stops, and `tern resume --set` (tern(1),
# RESUMING): a crawl stopped at crawl.max-pages says the resume command that
# raises it; `tern resume JOBDIR --set crawl.max-pages=N` checks the key like
# crawl --set, writes it into JOBDIR/tern.conf and crawls on to N; a key the
# job keeps for its life (crawl.mode) is refused with its reason and leaves
# tern.conf as it was; a typo'd key suggests the key meant; -c FILE is read
# over the job's tern.conf; the start names the job and the commands that
# reach it; SIGINT ends with the plain resume command.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 4 --pages 40 --links 6 --kb 2
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job

"$TERN" crawl -j "$job" -s "$TW_DIR/seeds.txt" --local \
	--set dns.servers="$DNS_SERVER" \
	--set crawl.max-hops=500 \
	--set crawl.max-pages=20 >out1.txt 2>&1 || fail "crawl exited $?: $(cat out1.txt)"
grep -q "Sanitizer" out1.txt && fail "sanitizer report: $(cat out1.txt)"
grep -q "^tern: job $job: steer it with \`tern ctl $job status|pause|stop\` or \`tern console $job\`" out1.txt ||
	fail "the start does not name the job and its commands: $(head -3 out1.txt)"
grep -q "^tern: to crawl further: tern resume $job --set crawl.max-pages=40\$" out1.txt ||
	fail "a crawl at max-pages does not say how to go further: $(tail -5 out1.txt)"

cp "$job/tern.conf" conf.before
# A key the job keeps for its life: refused, nothing changed.
"$TERN" resume "$job" --set crawl.mode=continuous >out2.txt 2>&1
rc=$?
[ $rc -eq 2 ] || fail "resume --set crawl.mode=continuous exited $rc, wanted 2: $(cat out2.txt)"
grep -q "crawl.mode cannot change for a job" out2.txt || fail "no reason given: $(cat out2.txt)"
cmp -s conf.before "$job/tern.conf" || fail "a refused resume changed tern.conf"
# A typo: the key meant is suggested, nothing changed.
"$TERN" resume "$job" --set crawl.max-page=40 >out3.txt 2>&1
rc=$?
[ $rc -eq 2 ] || fail "resume --set crawl.max-page exited $rc, wanted 2: $(cat out3.txt)"
grep -q "crawl.max-page: unknown key; did you mean crawl.max-pages?" out3.txt ||
	fail "no suggestion for a typo'd key: $(cat out3.txt)"
cmp -s conf.before "$job/tern.conf" || fail "a refused resume changed tern.conf"
# Without a change the job is at its limit and says what raises it.
"$TERN" resume "$job" >out4.txt 2>&1 || fail "resume at the limit exited $?: $(cat out4.txt)"
grep -q "nothing to resume: raise the limit to crawl further (tern resume $job --set crawl.max-pages=...)" out4.txt ||
	fail "a resume at the limit does not say how to raise it: $(cat out4.txt)"

# Raised: kept in tern.conf, and the crawl goes on to the new limit.
"$TERN" resume "$job" --set crawl.max-pages=40 >out5.txt 2>&1 || fail "resume --set exited $?: $(cat out5.txt)"
grep -q "Sanitizer" out5.txt && fail "sanitizer report: $(cat out5.txt)"
grep -q '^max-pages = 40$' "$job/tern.conf" || fail "tern.conf lacks the new limit: $(grep max-pages "$job/tern.conf")"
pages=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).pages)' "$job/reports/stats.json")
[ "$pages" -ge 40 ] || fail "the resumed crawl stopped at $pages pages, wanted 40"
# -c FILE over the job's tern.conf.
printf '[crawl]\nmax-pages = 60\n' >more.conf
"$TERN" resume "$job" -c more.conf >out6.txt 2>&1 || fail "resume -c exited $?: $(cat out6.txt)"
grep -q '^max-pages = 60$' "$job/tern.conf" || fail "tern.conf lacks -c FILE's limit"
grep -q '^dns.servers\|^servers = ' "$job/tern.conf" || fail "-c FILE lost the job's other settings"

# Interrupted: the plain resume command. Slowed by politeness on loopback
# addresses only, the crawl suggests --local after 20 s; a resume with it
# takes --local's settings and finishes.
"$TERN" resume "$job" --set crawl.max-pages=0 --set politeness.min-delay-ms=1000 \
	--set politeness.max-delay-ms=2000 --set politeness.delay-factor=1 >out7.txt 2>&1 &
pid=$!
i=0
while ! grep -q "stop (Ctrl-C) and \`tern resume $job --local\` crawls it as fast as it answers" out7.txt; do
	kill -0 $pid 2>/dev/null || fail "the slow crawl ended without suggesting --local: $(cat out7.txt)"
	[ $i -lt 600 ] || fail "no --local suggestion after 60 s: $(cat out7.txt)"
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
wait $pid || fail "the interrupted crawl exited $?: $(cat out7.txt)"
grep -q "^tern: to continue: tern resume $job\$" out7.txt || fail "an interrupted crawl does not say how to continue: $(tail -5 out7.txt)"
state=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).state)' "$job/reports/stats.json")
[ "$state" = STOPPED ] || fail "stats.json of a stopped job says $state"
"$TERN" report "$job" frontier | head -1 | grep -q '^HOLD - ' || fail "tern report of a stopped job: $("$TERN" report "$job" frontier | head -1)"
"$TERN" resume "$job" --local >out8.txt 2>&1 || fail "resume --local exited $?: $(cat out8.txt)"
grep -q '^min-delay-ms = 0$' "$job/tern.conf" || fail "resume --local did not keep --local's settings"
grep -q "^tern: crawl finished" out8.txt || fail "resume --local did not finish: $(tail -3 out8.txt)"
state=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).state)' "$job/reports/stats.json")
[ "$state" = FINISHED ] || fail "stats.json of a finished job says $state"
grep -q -- "--local" out8.txt && fail "a --local crawl suggested --local"
pass
