#!/bin/sh
# The operator console in a real browser (tern(1), console): Debian's
# chromium driven by puppeteer-core (tests/ops/console_browser.mjs) against a
# crawl of the test web whose small queue budget retires every queue
# (held EMPTY by pause-at-finish): the overview's counts move and its charts
# draw; the queues page filters the retired ones; raising
# frontier.queue-total-budget in the settings form brings them back; pause
# and unpause buttons agree with `tern ctl status`; a checkpoint is taken
# from its page; hosts and the crawl log filter; the stop button ends the
# crawl. Then `tern console` serves the job offline, and a hostile line
# appended to crawl.log shows as text. Screenshots of every page are left in
# tests/ops/console_browser.shots/ of the build directory.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq node
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || { echo "SKIP: no chromium at $CHROMIUM" >&2; exit 77; }
[ -d "$top_srcdir/tests/node_modules/puppeteer-core" ] || fail "puppeteer-core missing: run scripts/deps"
export CHROMIUM

shots=$top_builddir/tests/ops/console_browser.shots
rm -rf "$shots"
tw_start --hosts 6 --pages 300 --links 4 --cross 0 --kb 2
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set politeness.min-delay-ms=800 \
	--set crawl.max-connections=6 --set frontier.queue-total-budget=25 \
	--set crawl.pause-at-finish=true --set console.listen=127.0.0.1:0
policy_wait_sock "$job"
url=$(sed -n 's/^tern: console: //p' "$job.out" | head -1)
case $url in http://127.0.0.1:*/console/?token=*) ;; *) fail "no console URL: $(cat "$job.out")" ;; esac
[ "$("$TERN" console "$job")" = "$url" ] || fail "tern console and console.listen disagree"

node "$top_srcdir/tests/ops/console_browser.mjs" live "$url" "$job" "$shots" "$TERN" ||
	fail "the browser's walk through the live console"
policy_wait_exit 0

# A crawl.log line no crawler writes, with markup in its fields.
printf '%s\n' '2026-01-01T00:00:00.000Z   200         10 http://evil.web.test/a"'"'"'<b>x</b> - - <script>window.__xss=1</script> #001 - - - "><img src=x onerror=window.__xss=2>' >>"$job/logs/crawl.log"
"$TERN" console "$job" --listen 127.0.0.1:0 >offline.out 2>offline.err &
off=$!
track_pid $off
i=0
until grep -q '^http://' offline.out; do
	kill -0 $off 2>/dev/null || fail "offline console exited: $(cat offline.out offline.err)"
	[ $i -lt 100 ] || fail "offline console printed no URL"
	sleep 0.1
	i=$((i + 1))
done
node "$top_srcdir/tests/ops/console_browser.mjs" offline "$(head -1 offline.out)" "$job" "$shots" "$TERN" ||
	fail "the browser's look at the offline console"
kill -TERM $off
wait $off || fail "offline console exit status $?"
grep -q Sanitizer offline.err && fail "sanitizer: $(cat offline.err)"
ls "$shots"/*.png | wc -l | grep -qx 10 || fail "screenshots: $(ls "$shots")"
pass "console in chromium: live walk, settings, actions, offline, hostile log line; screenshots in $shots"
