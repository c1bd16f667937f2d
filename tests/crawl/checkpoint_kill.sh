#!/bin/sh
# Crash recovery: tern is killed with SIGKILL at random moments of a crawl of
# the test web (CHECKPOINT_KILLS times, default 30) and continued each time
# with `tern resume JOBDIR` until the crawl finishes. Judged from the test
# web's own request log and manifest:
#   - every reachable page was requested, nothing outside the manifest was;
#   - every repeated request of a page has a kill between the two requests,
#     and no kill caused more repeats than crawl.max-connections (the URIs
#     that can be in flight): at-least-once, and nothing else twice;
#   - crawl.log has a well-formed line for every page, and a page logged
#     twice was also fetched twice;
#   - every page that answered has a response record in the WARCs;
#   - no WARC file is left ".open" (each resume cut the killed run's file to
#     its last whole record and closed it, and said so in tern.log), and
#     every WARC reads cleanly with tern's reader (`tern warc-index`) and,
#     tests/archive/warc_validate.mjs (npm warcio).
# CHECKPOINT_KILL_SEED makes the kill times reproducible.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

HOSTS=8
CONNS=4
KILLS=${CHECKPOINT_KILLS:-30}
SEED=${CHECKPOINT_KILL_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
tw_start --hosts $HOSTS --pages 60 --links 6 --kb 2 --latency-ms 20-60
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
log=$TW_DIR/requests.tsv
man=$TW_DIR/manifest.tsv
echo "kill seed $SEED"

# Kill delays in seconds, uniform in [0.15, 0.9): long enough for a resume to
# get back to fetching under the sanitizers, short enough that a kill lands
# in most phases of the loop.
awk -v s="$SEED" -v n="$KILLS" 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.3f\n", 0.15 + rand() * 0.75 }' >delays.txt

now_ms() {
	date +%s%3N
}

: >kills.txt
: >tern.out
runs=0
kills=0
while :; do
	runs=$((runs + 1))
	if [ $runs -eq 1 ]; then
		"$TERN" crawl -j "$job" -s "$TW_DIR/seeds.txt" \
			--set dns.servers="$DNS_SERVER" \
			--set fetch.allow-private-addresses=true \
			--set politeness.min-delay-ms=100 \
			--set politeness.delay-factor=0 \
			--set politeness.respect-crawl-delay-up-to-seconds=0 \
			--set crawl.max-hops=500 \
			--set crawl.max-connections=$CONNS >>tern.out 2>&1 &
	else
		"$TERN" resume "$job" >>tern.out 2>&1 &
	fi
	pid=$!
	if [ $kills -lt "$KILLS" ]; then
		if [ $runs -eq 1 ]; then
			# A kill before the seeds reach the store is a different
			# case (see doc/checkpoints.md): start once fetching has.
			_i=0
			while [ ! -s "$log" ] && kill -0 $pid 2>/dev/null && [ $_i -lt 300 ]; do
				sleep 0.05
				_i=$((_i + 1))
			done
		fi
		sleep "$(sed -n "$((kills + 1))p" delays.txt)"
		t=""
		kill -KILL $pid 2>/dev/null && t=$(now_ms)
		wait $pid
		rc=$?
		if [ $rc -eq 137 ] && [ -n "$t" ]; then
			echo "$t" >>kills.txt
			kills=$((kills + 1))
			continue
		fi
	else
		wait $pid
		rc=$?
	fi
	[ $rc -eq 0 ] || fail "tern exited $rc on run $runs (seed $SEED): $(tail -5 tern.out)"
	break
done
grep -q "Sanitizer" tern.out && fail "sanitizer report: $(grep -A20 Sanitizer tern.out | head -40)"
[ $kills -ge 10 ] || fail "only $kills kills landed before the crawl finished: the web is too small to test recovery"
tw_stop

# Pages requested (robots.txt aside; it is asked again after every restart,
# its verdicts being kept in memory only), with their start times.
awk -F'\t' -v p="$TW_PORT" '$4 != "/robots.txt" { print "http://" $3 ":" p $4 "\t" $1 }' "$log" |
	sort -t "$(printf '\t')" -k1,1 -k2,2n >requested.tsv
cut -f1 requested.tsv | sort -u >requested.txt
awk -F'\t' '$2 == "allowed" { print $1 }' "$man" | sort >allowed.txt
awk -F'\t' '$2 == "disallowed" { print $1 }' "$man" | sort >disallowed.txt
[ -s allowed.txt ] || fail "empty manifest"
missing=$(comm -23 allowed.txt requested.txt | wc -l)
[ "$missing" -eq 0 ] || fail "$missing reachable pages never requested after $kills kills (seed $SEED): $(comm -23 allowed.txt requested.txt | head -5)"
extra=$(comm -13 allowed.txt requested.txt | wc -l)
[ "$extra" -eq 0 ] || fail "$extra requested URLs not in the manifest: $(comm -13 allowed.txt requested.txt | head -5)"
bad=$(comm -12 disallowed.txt requested.txt | wc -l)
[ "$bad" -eq 0 ] || fail "$bad robots-disallowed URLs requested"

# Every repeat of a page (consecutive requests r1, r2 of one URL) must have
# a kill after r1 started and before r2 started; per kill at most CONNS. A
# request sent just before the kill may reach the server's parser after it
# (seen: 6 ms under make -j2 check): r1 may start up to 500 ms after it
# when no kill follows its start.
awk -F'\t' -v conns=$CONNS -v slack=500 '
	NR == FNR { k[++nk] = $1; next }
	{
		if ($1 == prev) {
			hit = 0
			for (i = 1; i <= nk && !hit; i++)
				if (k[i] > pstart && k[i] < $2) hit = i
			for (i = nk; i >= 1 && !hit; i--)
				if (k[i] > pstart - slack && k[i] <= pstart) hit = i
			if (!hit) { printf "%s repeated with no kill between %s and %s\n", $1, pstart, $2; bad++ }
			else if (++per[hit] > conns) { printf "kill %d at %s caused more than %d repeats\n", hit, k[hit], conns; bad++ }
			dups++
		}
		prev = $1; pstart = $2
	}
	END { printf "%d repeats over %d kills\n", dups, nk > "/dev/stderr"; exit bad > 0 }' \
	kills.txt requested.tsv >repeats.txt 2>repeats.sum || fail "repeats beyond at-least-once: $(head -5 repeats.txt)"

# crawl.log: well-formed lines, every page logged, a page logged n times
# was requested at least n times.
cl=$job/logs/crawl.log
awk 'NF != 12 { print; bad++ } END { exit bad > 0 }' "$cl" >badlines.txt || fail "malformed crawl.log lines: $(head -3 badlines.txt)"
awk '$4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/ && $2 != -9998 { print $4 }' "$cl" | sort >logged.txt
notlogged=$(sort -u logged.txt | comm -23 allowed.txt - | wc -l)
[ "$notlogged" -eq 0 ] || fail "$notlogged pages missing from crawl.log: $(sort -u logged.txt | comm -23 allowed.txt - | head -5)"
uniq -c logged.txt | awk '$1 > 1 { print $2 "\t" $1 }' >logged_twice.tsv
cut -f1 requested.tsv | uniq -c | awk '{ print $2 "\t" $1 }' >requested_n.tsv
awk -F'\t' 'NR == FNR { n[$1] = $2; next } $2 > n[$1] { print; bad++ } END { exit bad > 0 }' \
	requested_n.tsv logged_twice.tsv >overlogged.txt || fail "pages logged more often than fetched: $(head -3 overlogged.txt)"

# WARCs. A kill leaves the file being written named ".open", possibly with
# a torn last record; the next resume closes it (warcrecover_dir). The last
# run ended normally, so none may be left, and every file must read whole.
opened=$(ls "$job"/warcs | grep -c '\.open$')
[ "$opened" -eq 0 ] || fail "$opened WARC files left .open: $(ls "$job"/warcs | grep '\.open$' | head -3)"
recovered=$(grep -c 'WARC recovery: .*: \(kept .*closed\|no whole record .*removed\)$' "$job/logs/tern.log")
torn=$(grep -c 'WARC recovery: .*: kept .* cut [0-9]* bytes' "$job/logs/tern.log")
grep 'WARC recovery: ' "$job/logs/tern.log" | grep -v ': \(kept .*closed\|no whole record .*removed\)$' >recovery_bad.txt
[ -s recovery_bad.txt ] && fail "WARC recovery failed: $(head -3 recovery_bad.txt)"
[ "$recovered" -ge 1 ] || fail "no WARC file was recovered after $kills kills"
"$TERN" warc-index "$job" >index.cdxj 2>warcindex.err || fail "tern warc-index: $(cat warcindex.err)"
need_cmd node
[ -d "$top_srcdir/tests/node_modules/warcio" ] || fail "npm warcio missing (scripts/deps installs it)"
(cd "$top_srcdir/tests/archive" && node warc_validate.mjs "$job") >validate.out 2>&1 ||
	fail "warc_validate.mjs: $(grep FAIL validate.out | head -5)"
validated="warcio: $(tail -1 validate.out)"

# A response (or revisit) record for every page that answered.
warc_captured_uris "$job"/warcs/*.warc.gz >archived.txt
awk -F'\t' '$2 == "allowed" && $3 > 0 { print $1 }' "$man" | sort >answered.txt
unarchived=$(comm -23 answered.txt archived.txt | wc -l)
[ "$unarchived" -eq 0 ] || fail "$unarchived pages without a WARC capture: $(comm -23 answered.txt archived.txt | head -5)"
pass "$(wc -l <allowed.txt) pages after $kills kills (seed $SEED): $(cat repeats.sum); $recovered .open WARCs closed ($torn cut), $validated"
