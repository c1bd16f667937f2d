#!/bin/sh
# A soak against a server that answers each page with one mutation of a
# valid HTTP/1.1 response (tests/crawl/hostile_server.py, /mut/: Content-Length
# off by one either way, a chunk size that is not hex or too large, a head
# in one-byte writes, a reset in the head or the body, gzip cut or
# corrupted, a redirect to itself or to another page, small writes, a head
# near the limit, interim answers, no answer, HTTP/1.0, chunk extensions
# and trailers, a malformed status line, chunked gzip), over HTTP and over
# TLS (where the early ends are a close_notify). The crawl must end
# by itself without a sanitizer report (no crash, no leak), under an RSS
# bound, with every page requested ending in crawl.log with a status and,
# for a failure, its cause (err:WORD), and WARCs that an independent reader
# (npm warcio, tests/archive/warc_validate.mjs) accepts. HOSTILE_MUT_PAGES sets the
# size (400 here; bench/hostile_soak.sh runs it for minutes).
. "$top_srcdir/tests/lib.sh"
need_cmd python3 node openssl /usr/bin/time
[ -d "$top_srcdir/tests/node_modules/warcio" ] || fail "npm warcio missing (scripts/deps installs it)"

PAGES=${HOSTILE_MUT_PAGES:-400}
export HOSTILE_MUT_PAGES=$PAGES
tw_ca_make
cd "$TW_DIR" || fail "no work directory"
python3 "$top_srcdir/tests/crawl/hostile_server.py" "$TW_DIR/port" "$TW_CERT" "$TW_KEY" >server.log 2>server.err &
track_pid $!
i=0
while [ ! -s port ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -s port ] || fail "hostile server did not start: $(cat server.err)"
read -r PORT TLS_PORT <port
# The bound: 60 MB for a plain build (16 MB measured at 2 x 400 pages,
# 24 MB at 2 x 4000: the seen set filling). Under ASan freed blocks wait in
# its quarantine, 256 MB by default, which each TLS connection's buffers
# fill: the soak runs with a quarantine of 32 MB and a bound of 160 MB
# (81 MB measured).
if grep -qa __asan_init "$TERN"; then
	BOUND_KB=$((160 * 1024))
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=32"
	export ASAN_OPTIONS
else
	BOUND_KB=$((60 * 1024))
fi
# A longer soak (bench/hostile_soak.sh) holds more URIs in the seen set
# and the store's memtables, and sets its own bound.
[ -n "${SOAK_RSS_MB:-}" ] && BOUND_KB=$((SOAK_RSS_MB * 1024))

job=$TW_DIR/soak
/usr/bin/time -o rss -f "%M" "$TERN" crawl -j "$job" \
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
	--set frontier.max-retries=1 --set frontier.retry-delay-seconds=0 \
	--set crawl.max-hops=1000 --set "fetch.ca-file=$TW_CA_FILE" \
	"http://127.0.0.1:$PORT/mut/" "https://127.0.0.1:$TLS_PORT/mut/" >tern.out 2>tern.err
rc=$?
grep -q Sanitizer tern.err && fail "sanitizer report: $(grep -A30 Sanitizer tern.err | head -50)"
[ "$rc" = 0 ] || fail "exit $rc: $(tail -n 5 tern.err)"
rss=$(tail -n 1 rss)
[ "$rss" -lt "$BOUND_KB" ] || fail "peak RSS $rss KB, bound $BOUND_KB KB"

cl=$job/logs/crawl.log
# Every page asked for ends in crawl.log: a status, and a cause for a failure.
awk -v p="$PORT" -v t="$TLS_PORT" '$2 ~ /^\/mut\// {
	print ($1 == "https" ? "https://127.0.0.1:" t : "http://127.0.0.1:" p) $2 }' server.log | sort -u >asked.txt
awk '{ print $4 }' "$cl" | sort -u >logged.txt
missing=$(comm -23 asked.txt logged.txt)
[ -z "$missing" ] || fail "asked but not in crawl.log: $(echo "$missing" | head -5)"
[ "$(grep -Ec '/mut/[0-9]+$' asked.txt)" -eq $((2 * PAGES)) ] ||
	fail "$(grep -Ec '/mut/[0-9]+$' asked.txt) of 2 x $PAGES pages asked"
awk '$2 == 0 || ($2 < 0 && $0 !~ / err:[a-z]/) { bad = bad $0 "\n" } END { printf "%s", bad }' "$cl" >nocause.txt
[ ! -s nocause.txt ] || fail "lines without a status or a cause: $(head -3 nocause.txt)"

# The WARCs, read by warcio: a body the server gzipped and then cut cannot be
# decoded by anyone; crawl.log marks it decodeError, and that is all it may
# fail for.
(cd "$top_srcdir/tests/archive" && node warc_validate.mjs "$job") >validate.out 2>&1
grep '^FAIL' validate.out | grep -v 'content coding not decodable' >badwarc.txt
[ ! -s badwarc.txt ] || fail "WARCs: $(head -5 badwarc.txt)"
for u in $(sed -n 's/^FAIL: \(.*\): content coding not decodable$/\1/p' validate.out); do
	awk -v u="$u" '$4 == u' "$cl" | grep -q decodeError || fail "WARCs: $u not decodable, crawl.log did not say so"
done
grep -q ' passed, ' validate.out || fail "warc_validate: $(tail -n 3 validate.out)"
pass "soak: 2 x $PAGES mutated answers (HTTP, TLS), $(grep -c . "$cl") crawl.log lines ($(awk '$2 < 0' "$cl" | grep -c .) failures, each with its cause), peak RSS $rss KB, WARCs read by warcio"
