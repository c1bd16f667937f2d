#!/bin/sh
# The console speaks plain HTTP: listening beyond loopback, its token would
# travel in clear, and tern says so on the terminal and in logs/tern.log,
# whichever way the listener was opened (console.listen at the start of a
# crawl, `tern console --listen` asking a running crawl, or the offline
# console); on loopback it says nothing.
. "$top_srcdir/tests/lib.sh"
need_cmd curl
tw_start --hosts 1 --pages 3 --links 2 --cross 0
cd "$TW_DIR" || fail "no work directory"
# The test web answers by host name: h0.web.test from a test-local hosts file.
printf '127.0.0.1 h0.web.test\n' >hosts.test
CARES_HOSTS=$TW_DIR/hosts.test
export CARES_HOSTS
site=http://h0.web.test:$TW_PORT/
warn='warning: the console listens on 0\.0\.0\.0:[0-9]*, beyond loopback, over plain HTTP'

# console.listen when the crawl starts.
"$TERN" crawl --local -j wide --set console.listen=0.0.0.0:0 "$site" >wide.out 2>&1 ||
	fail "tern crawl exited $?: $(cat wide.out)"
grep -q "$warn" wide.out || fail "no warning on the terminal: $(cat wide.out)"
grep -q "$warn" wide/logs/tern.log || fail "no warning in tern.log: $(cat wide/logs/tern.log)"
"$TERN" crawl --local -j narrow --set console.listen=127.0.0.1:0 "$site" >narrow.out 2>&1 ||
	fail "tern crawl exited $?: $(cat narrow.out)"
grep -q 'beyond loopback' narrow.out narrow/logs/tern.log && fail "warned about loopback"
pass "console.listen: warned beyond loopback, silent on loopback"

# tern console --listen asking a running crawl (held at its finish by
# crawl.pause-at-finish).
"$TERN" crawl --local -j live --set crawl.pause-at-finish=true "$site" >live.out 2>&1 &
crawl=$!
track_pid $crawl
i=0
until "$TERN" ctl live status 2>/dev/null | grep -q EMPTY; do
	[ $i -lt 200 ] || fail "the crawl did not pause at its finish: $(cat live.out)"
	sleep 0.1
	i=$((i + 1))
done
url=$("$TERN" console live --listen 0.0.0.0:0 2>console.err) || fail "tern console: $url $(cat console.err)"
grep -q "$warn" console.err || fail "tern console did not warn: $(cat console.err)"
grep -q "$warn" live/logs/tern.log || fail "the crawl's tern.log has no warning"
curl -s -o /dev/null "${url%%/console/*}/console/?token=${url##*token=}" || fail "console not reachable: $url"
"$TERN" ctl live stop >/dev/null || fail "tern ctl stop"
i=0
while kill -0 $crawl 2>/dev/null; do
	[ $i -lt 100 ] || fail "the crawl did not stop"
	sleep 0.1
	i=$((i + 1))
done
grep -q "$warn" live.out || fail "the crawl's terminal had no warning: $(cat live.out)"
pass "tern console --listen on a running crawl: warned on both terminals and in tern.log"

# The offline console.
"$TERN" console wide --listen 0.0.0.0:0 >offline.out 2>offline.err &
off=$!
track_pid $off
i=0
until grep -q '^http://' offline.out; do
	kill -0 $off 2>/dev/null || fail "tern console exited: $(cat offline.err)"
	[ $i -lt 100 ] || fail "offline console gave no URL"
	sleep 0.1
	i=$((i + 1))
done
grep -q "$warn" offline.err || fail "offline console did not warn: $(cat offline.err)"
[ "$(grep -c "$warn" wide/logs/tern.log)" = 2 ] || fail "offline warning not in tern.log: $(cat wide/logs/tern.log)"
stop_pid $off
pass "offline console beyond loopback: warned on the terminal and in tern.log"
