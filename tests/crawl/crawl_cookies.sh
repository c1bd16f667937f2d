#!/bin/sh
# Cookies (tern.conf(5), fetch.cookies) against nginx on one loopback port:
#  - a cookie wall: /wall/ redirects to /consent until the request carries
#    consent=yes, and /consent sets it and redirects back; the site behind
#    it is captured, and the WARC request records carry the Cookie header
#    nginx received;
#  - a login by cookies.txt (fetch.cookie-file): /private/ answers 200 only
#    to session=s3cr3t, 403 otherwise; a malformed file names its line;
#  - the jar across a kill -9 and a resume, and in a checkpoint restored
#    after a kill: the consent given before the kill is sent after it, with
#    no new visit to /consent;
#  - an [override] with fetch.cookies = false: no Cookie for /wall/;
#  - cluster mode (--workers 2): the node owning the site passes the wall;
#  - a Set-Cookie flood (responses of 200 cookies of 4,000 bytes each): the jar keeps fetch.cookies-max and tern's peak RSS stays
#    within a stated bound of the same crawl with cookies off.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/nginx.sh"
need_cmd nginx curl zcat nats-server
tw_dir
cd "$TW_DIR" || fail "no work directory"

ngx_ports 1
PORT=$NGX_BASE
SITE=http://127.0.0.1:$PORT
mkdir -p web/wall web/private web/flood nginx
for p in a b; do
	printf '<html><body>wall page %s <a href="/wall/c.html">c</a></body></html>\n' "$p" >"web/wall/$p.html"
done
printf '<html><body>c</body></html>\n' >web/wall/c.html
printf '<html><body><a href="a.html">a</a> <a href="b.html">b</a></body></html>\n' >web/wall/index.html
printf '<html><body><a href="secret.html">secret</a></body></html>\n' >web/private/index.html
printf '<html><body>the secret</body></html>\n' >web/private/secret.html
# The flood: FLOOD_PAGES pages (and index pages linking to the first
# third of them and to all), each answered with FLOOD_EACH cookies of 4,000 bytes
# named after the page (so none replaces another).
FLOOD_PAGES=${FLOOD_PAGES:-90}
FLOOD_EACH=200
FLOOD_FEW=$((FLOOD_PAGES / 3))
i=0
printf '<html><body>\n' >web/flood/few.html
printf '<html><body>\n' >web/flood/all.html
while [ $i -lt "$FLOOD_PAGES" ]; do
	[ $i -lt $FLOOD_FEW ] && printf '<a href="/flood/p%d.html">%d</a>\n' $i $i >>web/flood/few.html
	printf '<a href="/flood/p%d.html">%d</a>\n' $i $i >>web/flood/all.html
	printf '<html><body>%d</body></html>\n' $i >"web/flood/p$i.html"
	i=$((i + 1))
done
big=$(head -c 3990 /dev/zero | tr '\0' v)

{
	echo "daemon off;"
	echo "worker_processes 1;"
	echo "pid $TW_DIR/nginx/nginx.pid;"
	echo "error_log $TW_DIR/nginx/error.log warn;"
	echo "events { worker_connections 256; }"
	echo "http {"
	echo "	types { text/html html; text/plain txt; }"
	echo "	default_type text/html;"
	echo "	log_format c '\$request_uri\t\$status\t\$http_cookie';"
	echo "	access_log $TW_DIR/nginx/access.tsv c;"
	echo "	server {"
	echo "		listen 127.0.0.1:$PORT;"
	echo "		root $TW_DIR/web;"
	echo "		location /wall/ {"
	echo "			if (\$cookie_consent != \"yes\") { return 302 /consent?back=\$uri; }"
	echo "		}"
	echo "		location = /consent {"
	echo "			add_header Set-Cookie \"consent=yes; Path=/; Max-Age=86400; SameSite=Lax\";"
	echo "			return 302 \$arg_back;"
	echo "		}"
	echo "		location /private/ {"
	echo "			if (\$cookie_session != \"s3cr3t\") { return 403; }"
	echo "		}"
	echo "		location ~ ^/flood/p([0-9]+)\\.html\$ {"
	k=0
	while [ $k -lt $FLOOD_EACH ]; do
		echo "			add_header Set-Cookie \"f${k}_\$1=$big; Path=/flood/\$1\";"
		k=$((k + 1))
	done
	echo "		}"
	echo "	}"
	echo "}"
} >nginx/nginx.conf
nginx -p "$TW_DIR/nginx" -c "$TW_DIR/nginx/nginx.conf" -e "$TW_DIR/nginx/error.log" >nginx/out.txt 2>&1 &
NGX_PID=$!
track_pid "$NGX_PID"
i=0
until curl -s -o /dev/null "$SITE/wall/"; do
	kill -0 "$NGX_PID" 2>/dev/null || fail "nginx did not start: $(cat nginx/out.txt nginx/error.log)"
	i=$((i + 1))
	[ $i -lt 100 ] || fail "nginx did not answer"
	sleep 0.1
done
# The wall loops for a client without cookies.
[ "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$SITE/wall/")" = "302 $SITE/consent?back=/wall/" ] ||
	fail "nginx's wall does not redirect as meant"

# status JOB URI: the statuses crawl.log gives URI (one a line).
status() {
	awk -v u="$2" '$4 == u { print $2 }' "$1/logs/crawl.log"
}
# request_cookie JOB URI: the Cookie header of the WARC request records of
# URI ("none" for a record without one), one a line.
request_cookie() {
	for w in "$1"/warcs/*.warc.gz; do
		zcat "$w"
	done | tr -d '\r' | awk -v u="$2" '
		/^WARC\/1\.[01]$/ { if (req && tgt == u) print (ck == "" ? "none" : ck); req = 0; tgt = ""; ck = ""; next }
		/^WARC-Type: request$/ { req = 1 }
		/^WARC-Target-URI: / { tgt = substr($0, 18) }
		/^Cookie: / { ck = substr($0, 9) }
		END { if (req && tgt == u) print (ck == "" ? "none" : ck) }'
}
crawl() { # JOB URL [tern options...]
	_job=$1
	_url=$2
	shift 2
	"$TERN" crawl --local -j "$_job" "$@" "$_url" >"$_job.out" 2>&1 ||
		fail "tern crawl $_job exited $?: $(tail -5 "$_job.out")"
	grep -q Sanitizer "$_job.out" && fail "sanitizer report: $(cat "$_job.out")"
	return 0
}

# 1. The cookie wall.
: >nginx/access.tsv
crawl wall "$SITE/wall/"
[ "$(status wall "$SITE/wall/" | tr '\n' ' ')" = "302 200 " ] ||
	fail "the wall's page: statuses $(status wall "$SITE/wall/" | tr '\n' ' '), expected 302 then 200: $(cat wall/logs/crawl.log)"
for p in a b c; do
	[ "$(status wall "$SITE/wall/$p.html")" = 200 ] || fail "/wall/$p.html not captured behind the wall: $(cat wall/logs/crawl.log)"
	[ "$(request_cookie wall "$SITE/wall/$p.html")" = "consent=yes" ] ||
		fail "the WARC request record of /wall/$p.html carries $(request_cookie wall "$SITE/wall/$p.html")"
	# The record holds the bytes sent: nginx received the same header.
	grep -q "^/wall/$p.html	200	consent=yes\$" nginx/access.tsv || fail "nginx saw no consent=yes for /wall/$p.html: $(cat nginx/access.tsv)"
done
[ "$(request_cookie wall "$SITE/wall/" | tr '\n' ' ')" = "none consent=yes " ] ||
	fail "the wall's request records carry: $(request_cookie wall "$SITE/wall/" | tr '\n' ' ')"
[ "$(grep -c '^/consent' nginx/access.tsv)" = 1 ] || fail "consent asked more than once: $(cat nginx/access.tsv)"
grep -q "cookies: 0 in the jar" wall/logs/tern.log || fail "no cookies line in tern.log: $(cat wall/logs/tern.log)"
pass "a cookie wall is passed: /consent once, the site behind it captured, Cookie in the WARC request records as nginx received it"

# 2. Logged in by cookies.txt.
# Every seed failed: tern exits 1.
"$TERN" crawl --local -j nologin "$SITE/private/" >nologin.out 2>&1 && fail "a crawl of /private/ without its session succeeded"
[ "$(status nologin "$SITE/private/")" = 403 ] || fail "/private/ without the session: $(cat nologin/logs/crawl.log)"
printf '# Netscape HTTP Cookie File\n\n127.0.0.1\tFALSE\t/private\tFALSE\t0\tsession\ts3cr3t\n' >cookies.txt
crawl login "$SITE/private/" --set fetch.cookie-file="$TW_DIR/cookies.txt"
[ "$(status login "$SITE/private/")" = 200 ] || fail "/private/ with cookies.txt: $(cat login/logs/crawl.log)"
[ "$(status login "$SITE/private/secret.html")" = 200 ] || fail "/private/secret.html with cookies.txt: $(cat login/logs/crawl.log)"
[ "$(request_cookie login "$SITE/private/secret.html")" = "session=s3cr3t" ] || fail "secret.html's request record: $(request_cookie login "$SITE/private/secret.html")"
# Path /private: robots.txt went without it.
[ "$(request_cookie login "$SITE/robots.txt")" = none ] || fail "robots.txt carried a cookie of path /private"
grep -q "cookies: 1 in the jar (0 from the store, 1 from $TW_DIR/cookies.txt)" login/logs/tern.log ||
	fail "tern.log does not say what the file gave: $(grep cookies: login/logs/tern.log)"
printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tok\t1\n127.0.0.1 FALSE / FALSE 0 bad 1\n' >bad.txt
"$TERN" crawl --local -j badfile --set fetch.cookie-file="$TW_DIR/bad.txt" "$SITE/private/" >badfile.out 2>&1 &&
	fail "a malformed cookies.txt was accepted"
grep -q "$TW_DIR/bad.txt:2: not a cookies.txt line" badfile.out || fail "the error does not name file and line: $(cat badfile.out)"
pass "a cookies.txt login: 403 without it, 200 with it; a bad line is named by file and line"

# 3. The jar across kill -9 and a resume, and in a checkpoint: slow
# enough to act between the wall's page and its links.
# killed JOB [checkpoint]: crawls the wall, kills it with -9 once the wall
# is passed (after a checkpoint when asked), resumes it (from the latest
# checkpoint when asked) and checks that the rest went with the consent.
killed() {
	: >nginx/access.tsv
	"$TERN" crawl --local -j "$1" --set politeness.min-delay-ms=1500 \
		--set politeness.max-delay-ms=1500 "$SITE/wall/" >"$1.out" 2>&1 &
	_pid=$!
	track_pid "$_pid"
	_i=0
	until [ "$(status "$1" "$SITE/wall/" 2>/dev/null | tr '\n' ' ')" = "302 200 " ]; do
		kill -0 "$_pid" 2>/dev/null || fail "$1: the crawl ended before it was killed: $(cat "$1.out")"
		_i=$((_i + 1))
		[ $_i -lt 600 ] || fail "$1: the wall's page was not fetched in 60 s"
		sleep 0.1
	done
	if [ -n "${2:-}" ]; then
		"$TERN" ctl "$1" checkpoint >"$1.ctl" 2>&1 || fail "$1: checkpoint: $(cat "$1.ctl")"
	else
		# The flush after the visit, before /wall/a.html (1.5 s later).
		sleep 0.3
	fi
	kill -9 "$_pid"
	wait "$_pid" 2>/dev/null
	[ -z "$(status "$1" "$SITE/wall/a.html")" ] || fail "$1: a.html fetched before the kill; nothing left to resume"
	if [ -n "${2:-}" ]; then
		"$TERN" resume "$1" --checkpoint latest >>"$1.out" 2>&1 || fail "$1: resume from the checkpoint exited $?: $(tail -5 "$1.out")"
	else
		"$TERN" resume "$1" >>"$1.out" 2>&1 || fail "$1: resume exited $?: $(tail -5 "$1.out")"
	fi
	grep -q Sanitizer "$1.out" && fail "sanitizer report: $(cat "$1.out")"
	grep -q "cookies: 1 in the jar" "$1/logs/tern.log" || fail "$1: the resumed jar: $(grep cookies: "$1/logs/tern.log")"
	for p in a b c; do
		[ "$(status "$1" "$SITE/wall/$p.html")" = 200 ] || fail "$1: /wall/$p.html after the resume: $(cat "$1/logs/crawl.log")"
		[ "$(request_cookie "$1" "$SITE/wall/$p.html")" = "consent=yes" ] || fail "$1: /wall/$p.html's request record after the resume"
	done
	[ "$(grep -c '^/consent' nginx/access.tsv)" = 1 ] || fail "$1: consent asked again after the resume: $(cat nginx/access.tsv)"
}
killed resume
pass "the jar survives kill -9: the resumed crawl sends the consent given before it"
killed restore checkpoint
pass "the jar is in a checkpoint: a crawl restored from it sends the consent"

# 4. Off by an override: /wall/ never gets its cookie, nothing behind it.
cat >off.conf <<CONF
[override "127.0.0.1:$PORT)/wall/"]
fetch.cookies = false
CONF
: >nginx/access.tsv
"$TERN" crawl --local -j off -c "$TW_DIR/off.conf" "$SITE/wall/" >off.out 2>&1 # every seed failed
grep -q Sanitizer off.out && fail "sanitizer report: $(cat off.out)"
[ "$(status off "$SITE/wall/")" = 302 ] || fail "the wall with cookies off: $(status off "$SITE/wall/")"
[ -z "$(status off "$SITE/wall/a.html")" ] || fail "a.html reached with cookies off for /wall/"
[ "$(request_cookie off "$SITE/wall/")" = none ] || fail "a Cookie was sent under the override"
awk -F'\t' '$1 ~ /^\/wall\// && $3 != "-"' nginx/access.tsv | grep -q . && fail "nginx saw a cookie under /wall/: $(cat nginx/access.tsv)"
grep -q '^/consent' nginx/access.tsv || fail "the consent URL (outside the override) was not fetched"
pass "an [override] with fetch.cookies = false sends no cookie under its prefix"

# 6 (before the flood, which ends the file). Cluster mode: two workers
# over a nats-server; 127.0.0.1 is one registered domain, so one node owns
# the site and passes its wall with its own jar (doc/cluster.md, "Cookies").
: >nginx/access.tsv
timeout 120 "$TERN" crawl --workers 2 --local -j "$TW_DIR/workers" --set fetch.allow-private-addresses=true \
	--set cluster.partitions=4 "$SITE/wall/" >workers.out 2>&1 || fail "tern crawl --workers exited $?: $(tail -5 workers.out)"
grep -q Sanitizer workers.out && fail "sanitizer report: $(cat workers.out)"
for p in a b c; do
	n=$(cat workers/w*/logs/crawl.log | awk -v u="$SITE/wall/$p.html" '$4 == u && $2 == 200' | wc -l)
	[ "$n" = 1 ] || fail "--workers: /wall/$p.html captured $n times: $(cat workers/w*/logs/crawl.log)"
	grep -q "^/wall/$p.html	200	consent=yes\$" nginx/access.tsv || fail "--workers: nginx saw no consent=yes for /wall/$p.html: $(cat nginx/access.tsv)"
done
pass "--workers 2: the node owning the site passes its wall with its own jar"

# 5. The flood: FLOOD_PAGES x 200 cookies of 4,000 bytes (72 MB at 90
# pages, 800 KB of head each, fetch.max-header-bytes raised to 1 MiB to
# let them in), all for one host, and a third of it. The jar keeps
# fetch.cookies-max = 200 (850 KB at most; the per-domain bound is lifted
# so that the total is the one that holds), and what the store takes of
# its changes is held by LevelDB's write buffers (2 MB here) until written:
# three times the flood may raise tern's peak RSS by FLOOD_MAX_KB at most
# (24 MB; measured +1.6 to +9.2 MB, the spread being LevelDB's compactions
# and the allocator's), where a jar keeping every cookie grows by the 48 MB
# more it was sent (+71 MB measured with FLOOD_JAR=100000).
# (Against the same crawl with cookies off, the peak is some 20 MB higher
# under ASan whatever the flood's size: the parsed cookies, the store's
# write buffers and the allocator's caches of freed blocks.) ASan's
# quarantine of freed memory is cut to 4 MB for these runs, or every
# evicted cookie would stay resident in it.
FLOOD_MAX_KB=${FLOOD_MAX_KB:-24576}
peak() { # JOB PAGE: crawls /flood/PAGE, prints its peak RSS in KB
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4" \
		"$TERN" crawl --local -j "$1" --set fetch.cookies-max="${FLOOD_JAR:-200}" --set storage.cache-mb=1 \
		--set fetch.cookies-per-domain=100000 --set storage.write-buffer-mb=2 \
		--set fetch.max-header-bytes=1048576 \
		"$SITE/flood/$2" >"$1.out" 2>&1 &
	_pid=$!
	_hwm=0
	while kill -0 "$_pid" 2>/dev/null; do
		_h=$(awk '/^VmHWM:/ { print $2 }' "/proc/$_pid/status" 2>/dev/null)
		[ -n "$_h" ] && _hwm=$_h
		sleep 0.1
	done
	wait "$_pid" || fail "flood crawl $1 exited $?: $(tail -5 "$1.out")"
	grep -q Sanitizer "$1.out" && fail "sanitizer report: $(cat "$1.out")"
	echo "$_hwm"
}
few=$(peak flood1 few.html)
all=$(peak flood3 all.html)
n=$(awk -v p="$SITE/flood/p" 'index($4, p) == 1 && $2 == 200' flood3/logs/crawl.log | wc -l)
[ "$n" -eq "$FLOOD_PAGES" ] || fail "$n of $FLOOD_PAGES flood pages fetched"
echo "flood: peak RSS $few KB after $((FLOOD_FEW * FLOOD_EACH)) cookies of 4 KB, $all KB after $((FLOOD_PAGES * FLOOD_EACH))"
[ $((all - few)) -le "$FLOOD_MAX_KB" ] ||
	fail "three times the flood grew the peak RSS by $((all - few)) KB, more than $FLOOD_MAX_KB"
grep -q "cookiesEvicted:$FLOOD_EACH" flood3/logs/crawl.log || fail "no page's cookies evicted others: $(tail -3 flood3/logs/crawl.log)"
pass "a Set-Cookie flood of $((FLOOD_PAGES * FLOOD_EACH)) cookies of 4 KB: peak RSS $all KB, +$((all - few)) KB over a third of it (bound $FLOOD_MAX_KB KB)"
