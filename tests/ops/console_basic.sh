#!/bin/sh
# The operator console without a browser (tern(1), console), against a
# running crawl of the test web: `tern console` gets the crawl to open its
# TCP listener and prints a URL with the token; without the token every page
# and every action answers 401 (403 for a wrong one) with nothing of the
# crawl in it; a wrong Host, a cross-origin POST and a POST carrying the
# token in its query are refused and change nothing; no answer allows CORS;
# hostile requests get 4xx while the crawl goes on; the same pages answer on
# control.sock; settings take form bodies there; --listen elsewhere moves
# the console and says so. Once the crawl has ended,
# `tern console` serves the job offline, actions refused.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq node curl

tw_start --hosts 4 --pages 300 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
sock=$job/control.sock
raw="node $top_srcdir/tests/ops/ctl_raw.mjs"
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set politeness.min-delay-ms=150 \
	--set crawl.max-connections=4
policy_wait_sock "$job"

url=$("$TERN" console "$job") || fail "tern console: $url"
case $url in http://127.0.0.1:*/console/?token=*) ;; *) fail "URL: $url" ;; esac
base=${url%%/console/*}
hostport=${base#http://}
port=${hostport##*:}
token=${url##*token=}
[ ${#token} -eq 64 ] || fail "token: $token"
[ "$(stat -c %a "$job/console.token")" = 600 ] || fail "token file mode $(stat -c %a "$job/console.token")"
[ "$(cat "$job/console.token")" = "$token" ] || fail "token file differs from the URL's"
# Asked again, the same listener.
[ "$("$TERN" console "$job")" = "$url" ] || fail "a second tern console gave another URL"

code() { # [curl ARGS...] URL: the status
	curl -s -o /dev/null -w '%{http_code}' "$@"
}

# Without the token: 401 everywhere, the login page for pages, nothing of the job.
pages='/ /console/ /console/queues /console/queues?state=retired&sort=size /console/queue?key=x
/console/hosts /console/log /console/settings /console/checkpoints /console/api/live
/console/api/history /console/nope /status /metrics /report/queues'
for p in $pages; do
	c=$(code "$base$p")
	[ "$c" = 401 ] || fail "GET $p without the token: $c"
	case $p in *\?*) sep='&' ;; *) sep='?' ;; esac
	c=$(code "$base$p${sep}token=$(echo "$token" | tr 0-9a-f a-f0-9)")
	[ "$c" = 403 ] || fail "GET $p with a wrong token: $c"
done
curl -s -D login.h "$base/console/queues" >login.html
grep -qi '^WWW-Authenticate: Bearer' login.h || fail "401 without WWW-Authenticate: $(cat login.h)"
grep -q 'name="token"' login.html || fail "no login form: $(head -20 login.html)"
grep -q "$job\|h0.web.test\|RUNNING" login.html && fail "the login page shows the job"
for a in pause unpause checkpoint stop reconsider-retired settings listen; do
	c=$(code -X POST -d '{}' "$base/$a")
	[ "$c" = 401 ] || fail "POST /$a without the token: $c"
	# A POST's token counts only in its header.
	c=$(code -X POST -d '{}' "$base/$a?token=$token")
	[ "$c" = 401 ] || fail "POST /$a with the token in its query: $c"
done
[ "$(policy_state "$job")" = RUNNING ] || fail "state after refused actions: $(policy_state "$job")"
ls "$job"/checkpoints/cp* >/dev/null 2>&1 && fail "a refused checkpoint was taken"

# A wrong Host (DNS rebinding): refused, even with the token.
c=$(code -H "Host: evil.example:$port" "$base/console/?token=$token")
[ "$c" = 403 ] || fail "wrong Host: $c"
c=$(code -H "Host: 127.0.0.1:1" "$base/console/?token=$token")
[ "$c" = 403 ] || fail "wrong port in Host: $c"
c=$(code -X POST -H "Host: evil.example:$port" -H "Authorization: Bearer $token" "$base/pause")
[ "$c" = 403 ] || fail "POST with a wrong Host: $c"
c=$(code -H "Host: localhost:$port" "$base/console/?token=$token")
[ "$c" = 200 ] || fail "Host localhost: $c"
# Cross-origin POSTs, with the right token: refused, nothing changes.
c=$(code -X POST -H "Authorization: Bearer $token" -H "Origin: http://evil.example" "$base/pause")
[ "$c" = 403 ] || fail "cross-origin POST: $c"
c=$(code -X POST -H "Authorization: Bearer $token" -H "Sec-Fetch-Site: cross-site" "$base/stop")
[ "$c" = 403 ] || fail "cross-site POST: $c"
[ "$(policy_state "$job")" = RUNNING ] || fail "state after cross-origin POSTs: $(policy_state "$job")"
# No CORS, not even to a preflight.
curl -s -D cors.h -o /dev/null -X OPTIONS -H "Origin: http://evil.example" \
	-H "Access-Control-Request-Method: POST" "$base/pause"
curl -s -D cors2.h -o /dev/null -H "Origin: http://evil.example" -H "Authorization: Bearer $token" "$base/status"
grep -qi '^Access-Control' cors.h cors2.h && fail "a CORS header: $(cat cors.h cors2.h)"

# With the token: the pages, their security headers, JSON routes.
for p in /console/ /console/queues /console/hosts /console/log /console/settings /console/checkpoints; do
	curl -s -D page.h -o page.html -H "Authorization: Bearer $token" "$base$p"
	head -1 page.h | grep -q ' 200 ' || fail "GET $p: $(head -1 page.h)"
	grep -qi "^Content-Security-Policy: default-src 'none'; script-src 'self'" page.h ||
		fail "GET $p: no CSP: $(cat page.h)"
	grep -qi '^X-Frame-Options: DENY' page.h || fail "GET $p: framable"
	grep -q '<script src="/console/static/console.js"' page.html || fail "GET $p: no script"
	grep -q '<script>' page.html && fail "GET $p: an inline script"
done
curl -s "$base/console/api/live?since=0&token=$token" >live.json
grep -q '"state":"RUNNING"' live.json || fail "live: $(cat live.json)"
grep -q '"samples":\[\[' live.json || fail "live without samples: $(cat live.json)"
curl -s -H "Authorization: Bearer $token" "$base/status" | grep -q '"state": "RUNNING"' ||
	fail "GET /status on TCP"
c=$(code "$base/console/static/console.css")
[ "$c" = 200 ] || fail "the style sheet without the token: $c"
c=$(code "$base/console/static/overview.html")
[ "$c" = 404 ] || fail "a template served as it is: $c"

# Hostile requests on the TCP listener get their 4xx; the crawl goes on.
check() { # WANT-STATUS OUTPUT
	case $2 in "$1 "*) ;; *) fail "expected $1, got: $2" ;; esac
}
check 400 "$($raw "tcp:127.0.0.1:$port" send '"GARBAGE\r\n\r\n"')"
check 431 "$($raw "tcp:127.0.0.1:$port" bighead 64)"
check 413 "$($raw "tcp:127.0.0.1:$port" bigbody 8)"
check 400 "$($raw "tcp:127.0.0.1:$port" send '"GET /console/ HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"')"
check 400 "$($raw "tcp:127.0.0.1:$port" send "\"GET /console/queues?state=sideways&token=$token HTTP/1.1\\r\\nHost: $hostport\\r\\n\\r\\n\"")"
check 400 "$($raw "tcp:127.0.0.1:$port" send "\"GET /console/log?status=%zz&token=$token HTTP/1.1\\r\\nHost: $hostport\\r\\n\\r\\n\"")"
before=$(wc -l <"$TW_DIR/requests.tsv")
$raw "tcp:127.0.0.1:$port" flood 20 >flood.txt 2>flood.err &
flood=$!
track_pid $flood
sleep 2
after=$(wc -l <"$TW_DIR/requests.tsv")
[ "$after" -gt "$before" ] || fail "the crawl stalled while the console was flooded"
wait $flood
tr ' ' '\n' <flood.txt | awk -F= '{ n[$1] = $2; t += $2 }
	END { exit !(t == 20 && n[408] + n[503] == 20 && n[503] >= 4) }' ||
	fail "flood answers: $(cat flood.txt flood.err)"
[ "$(policy_state "$job")" = RUNNING ] || fail "state after hostile requests"

# control.sock: the same pages, no token; the Host still checked.
c=$(code --unix-socket "$sock" http://localhost/console/queues)
[ "$c" = 200 ] || fail "console on control.sock: $c"
c=$(code --unix-socket "$sock" http://evil.example/console/)
[ "$c" = 403 ] || fail "wrong Host on control.sock: $c"
c=$(code --unix-socket "$sock" -X POST -H "Origin: http://evil.example" http://localhost/pause)
[ "$c" = 403 ] || fail "cross-origin POST on control.sock: $c"
curl -s --unix-socket "$sock" http://localhost/console/ | grep -q 'name="tern-token" content=""' ||
	fail "the token in a page on control.sock"
# A form body to POST /settings.
curl -s --unix-socket "$sock" -d frontier.queue-total-budget=100000 http://localhost/settings >set.json
grep -q '"frontier.queue-total-budget": "now"' set.json || fail "form settings: $(cat set.json)"
grep -q '^queue-total-budget = 100000' "$job/tern.conf" || fail "tern.conf not rewritten"
c=$(code --unix-socket "$sock" -d 'frontier.queue-total-budget=%zz' http://localhost/settings)
[ "$c" = 400 ] || fail "a malformed form: $c"

# --listen on the same host with any port: the listener open. At another
# address: the console moves there, says so, and the old one stops.
[ "$("$TERN" console "$job" --listen 127.0.0.1:0)" = "$url" ] || fail "--listen 127.0.0.1:0 gave another URL"
nurl=$("$TERN" console "$job" --listen 127.0.0.2:0 2>moved.err) || fail "tern console --listen 127.0.0.2:0: $(cat moved.err)"
case $nurl in "http://127.0.0.2:"*"/console/?token=$token") ;; *) fail "moved URL: $nurl" ;; esac
grep -q "moved from $hostport to 127.0.0.2:" moved.err || fail "the move not said: $(cat moved.err)"
[ "$(code "$nurl")" = 200 ] || fail "the console at its new address: $(code "$nurl")"
[ "$(code "$url")" = 000 ] || fail "the old address still answers: $(code "$url")"
[ "$("$TERN" console "$job")" = "$nurl" ] || fail "tern console without --listen did not give the new URL"
grep -q "console moved from $hostport to 127.0.0.2:" "$job/logs/tern.log" || fail "the move is not in tern.log"

# Offline: the crawl stopped, tern console serves the job itself. Its
# crawl.log gets 30,000 more lines (about 5 MB, 600 more hosts), so the hosts
# page reads it in loop steps while its request waits, and the log page stops
# at its bound with a link to older lines.
"$TERN" ctl "$job" stop >/dev/null || fail "stop"
policy_wait_exit 0
awk 'BEGIN { for (i = 0; i < 30000; i++)
	printf "2026-01-01T00:00:00.000Z %5d %10d http://s%d.synth.test/page/%d/%0120d L http://s%d.synth.test/ text/html #001 - - - -\n",
		i % 7 ? 200 : 404, 1000 + i % 13, i % 600, i, i, i % 600 }' >>"$job/logs/crawl.log"
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
ourl=$(head -1 offline.out)
obase=${ourl%%/console/*}
[ "${ourl##*token=}" = "$token" ] || fail "the offline console has another token"
[ "$(code "$obase/console/")" = 401 ] || fail "offline without the token"
curl -s "$ourl" >offline.html
grep -q 'data-state="OFFLINE"' offline.html || fail "offline overview: $(grep -i state offline.html | head)"
for p in queues hosts log settings checkpoints; do
	c=$(code -H "Authorization: Bearer $token" "$obase/console/$p")
	[ "$c" = 200 ] || fail "offline $p: $c"
done
c=$(code -X POST -H "Authorization: Bearer $token" "$obase/pause")
[ "$c" = 503 ] || fail "offline pause: $c"
curl -s -H "Authorization: Bearer $token" "$obase/console/hosts?sort=urls" >hosts.html
grep -q '>60[0-9] hosts in ' hosts.html || fail "hosts of the long crawl.log: $(grep -o '[0-9,]* hosts* in [^<]*' hosts.html)"
grep -q '<td class="key">s0.synth.test</td><td class="n">50</td>' hosts.html ||
	fail "hosts page: $(grep -o '<tr><td class="key">[^<]*</td><td class="n">[0-9]*' hosts.html | head -3)"
grep -q 'not read yet' hosts.html && fail "hosts page did not read the whole crawl.log"
curl -s -H "Authorization: Bearer $token" "$obase/console/log?host=nomatch.test" >log.html
grep -q 'follow Older for more' log.html || fail "log page past its bound: $(grep -o 'lines*, newest[^<]*' log.html)"
grep -q 'before=[0-9]' log.html || fail "no link to older lines"
[ -e "$sock" ] && fail "the offline console made control.sock"
# The offline console holds the job: a resume names it rather than
# LevelDB's lock error, and changes nothing.
"$TERN" resume "$job" >busy.out 2>&1
rc=$?
[ $rc -eq 1 ] || fail "resume beside the offline console: exit $rc: $(cat busy.out)"
grep -q "is in use by another process (pid $off: tern console $job --listen 127.0.0.1:0): stop it first (the offline console ends on Ctrl-C)" busy.out ||
	fail "resume beside the offline console: $(cat busy.out)"
grep -qi "lock" busy.out && fail "LevelDB's lock error shown: $(cat busy.out)"
kill -TERM $off
wait $off || fail "offline console exit status $?"
grep -q Sanitizer offline.err && fail "sanitizer: $(cat offline.err)"
pass "console: token, Host, origin, CORS, hostile requests, control.sock, offline"
