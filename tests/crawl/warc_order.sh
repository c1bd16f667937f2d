#!/bin/sh
# The WARC pool under load (archive/warcpool.c, doc/warc.md "Building on
# other threads"): records are built on other threads, but the files, the
# crawl.log and what a kill -9 leaves must be as if they were not.
#   1. A crawl of 40 hosts x 40 pages at 200 connections, no politeness
#      delay, WARC files rotated at 256 KB (so that captures built for a
#      file that closed meanwhile are rebuilt): tests/crawl/warc_order.mjs
#      --exact (each capture's records consecutive and in order, every
#      record naming its own file's warcinfo, no file past the size with
#      more than one capture, and the crawl.log lines with a digest one for
#      one with the captures, in the same order), then
#      tests/archive/warc_validate.mjs (digests, lengths, gzip members, linkage).
#   2. The same crawl killed with SIGKILL three times at random moments and
#      resumed: after each kill, before the resume, every crawl.log line with
#      a digest has its records in the files (.open ones read up to their
#      torn end), in order; after the last run, every page that answered
#      has a capture and the files validate.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq
need_cmd node
[ -d "$top_srcdir/tests/node_modules/warcio" ] || fail "npm warcio missing (cd tests && npm ci)"

MAX=262144
tw_start --hosts 40 --pages 40 --links 8 --kb 6
dns_start
cd "$TW_DIR" || fail "no work directory"

# Expanded unquoted (no value has a space).
SETS="--set dns.servers=$DNS_SERVER --set fetch.allow-private-addresses=true
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0
	--set politeness.max-delay-ms=0 --set politeness.respect-crawl-delay-up-to-seconds=0
	--set crawl.max-hops=500 --set crawl.max-connections=200 --set warc.max-size-bytes=$MAX"

order() { # JOB [ARGS]: tests/crawl/warc_order.mjs
	_job=$1
	shift
	(cd "$top_srcdir/tests/crawl" && node warc_order.mjs "$_job" "$@") >order.out 2>&1 ||
		fail "warc_order.mjs $*: $(head -8 order.out)"
	tail -1 order.out
}

# 1. Under load, to the end.
# shellcheck disable=SC2086
"$TERN" crawl -j "$TW_DIR/job1" -s "$TW_DIR/seeds.txt" $SETS >tern1.out 2>&1 || fail "tern exited $?: $(tail -5 tern1.out)"
grep -q "Sanitizer" tern1.out && fail "sanitizer report: $(grep -A20 Sanitizer tern1.out | head -30)"
files=$(ls "$TW_DIR/job1/warcs" | wc -l)
[ "$files" -ge 5 ] || fail "only $files WARC files: no rotation under load"
exact=$(order "$TW_DIR/job1" --exact --max-size $MAX)
(cd "$top_srcdir/tests/archive" && node warc_validate.mjs "$TW_DIR/job1") >validate.out 2>&1 ||
	fail "warc_validate.mjs: $(grep FAIL validate.out | head -5)"

# 2. Killed three times, checked after each kill, then resumed.
job=$TW_DIR/job2
kills=0
runs=0
while :; do
	runs=$((runs + 1))
	if [ $runs -eq 1 ]; then
		# shellcheck disable=SC2086
		"$TERN" crawl -j "$job" -s "$TW_DIR/seeds.txt" $SETS >>tern2.out 2>&1 &
	else
		"$TERN" resume "$job" >>tern2.out 2>&1 &
	fi
	pid=$!
	if [ $kills -lt 3 ]; then
		# Into the crawl proper: once some pages are logged.
		_i=0
		while kill -0 $pid 2>/dev/null && [ $_i -lt 400 ] &&
			[ "$(wc -l <"$job/logs/crawl.log" 2>/dev/null || echo 0)" -lt $((runs * 150)) ]; do
			sleep 0.02
			_i=$((_i + 1))
		done
		sleep "$(awk -v s="$(od -An -N2 -tu2 /dev/urandom)" 'BEGIN { srand(s); printf "%.2f", rand() * 0.3 }')"
		kill -KILL $pid 2>/dev/null
		wait $pid
		if [ $? -eq 137 ]; then
			kills=$((kills + 1))
			order "$job" >/dev/null
			continue
		fi
	else
		wait $pid || fail "tern resume exited $?: $(tail -5 tern2.out)"
	fi
	break
done
grep -q "Sanitizer" tern2.out && fail "sanitizer report: $(grep -A20 Sanitizer tern2.out | head -30)"
[ $kills -ge 1 ] || fail "no kill landed before the crawl finished"
after=$(order "$job")
warc_captured_uris "$job"/warcs/*.warc.gz >archived.txt
awk -F'\t' '$2 == "allowed" && $3 > 0 { print $1 }' "$TW_DIR/manifest.tsv" | sort >answered.txt
unarchived=$(comm -23 answered.txt archived.txt | wc -l)
[ "$unarchived" -eq 0 ] || fail "$unarchived pages without a capture: $(comm -23 answered.txt archived.txt | head -5)"
(cd "$top_srcdir/tests/archive" && node warc_validate.mjs "$job") >validate.out 2>&1 ||
	fail "warc_validate.mjs after kills: $(grep FAIL validate.out | head -5)"
pass "under load: $exact; $kills kills: $after"
