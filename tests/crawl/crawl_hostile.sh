#!/bin/sh
# Every byte a server sends is charged to a limit: a crawl of one hostile
# answer (tests/crawl/hostile_server.py) at a time keeps its peak RSS under a
# bound and ends the URI with a named cause in crawl.log.
#   trailers         a 5-byte chunked body, then 1 MB trailer lines for ever -3 err:header-too-large
#   chunkext         a chunk extension that never ends                       -3 err:header-too-large
#   chunkzeros       a chunk size of endless leading zeros                   -3 err:header-too-large
#   status           a status line that never ends                           -3 err:header-too-large
#   hname, hvalue    a header name, a header value that never ends           -3 err:header-too-large
#   headers          short header lines for ever                             -3 err:header-too-large
#   continue         endless "100 Continue" answers                          -3 err:header-too-large
#   endless          a body that never ends (close-delimited)                200 lenTrunc, WARC-Truncated: length
#   endless-chunked  the same, chunked                                       200 lenTrunc, WARC-Truncated: length
#   drip             a body of a byte a second                               200 timeTrunc, WARC-Truncated: time
#   driphead         a head of a byte a second                               -4 err:head-timeout
#   gzipbomb         128 MB of zeros in 128 KB of gzip                       200 decodeTrunc
#   links            1.2 million links in a 48 MB page                       200 dol:N (extract.max-outlinks)
#   longuri          eight links and a <base> of 1 MB each                   200, no URI longer than crawl.max-uri-length
# The bound is 60 MB of RSS for a plain build and 160 MB under ASan, whose
# shadow memory and quarantine raise the RSS of the same work (doc/limits.md
# has the figures of each answer before and after these limits).
. "$top_srcdir/tests/lib.sh"
need_cmd python3 /usr/bin/time

tw_dir
cd "$TW_DIR" || fail "no work directory"
python3 "$top_srcdir/tests/crawl/hostile_server.py" "$TW_DIR/port" >server.log 2>&1 &
track_pid $!
i=0
while [ ! -s port ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -s port ] || fail "hostile server did not start: $(cat server.log)"
PORT=$(cat port)

if grep -qa __asan_init "$TERN"; then
	BOUND_KB=$((160 * 1024))
else
	BOUND_KB=$((60 * 1024))
fi

# hostile ANSWER CRAWLLOG-ERE [--set K=V]...: a crawl of that answer alone,
# one attempt; checks the peak RSS and the URI's line in crawl.log.
hostile() {
	_a=$1 _ere=$2
	shift 2
	/usr/bin/time -o "$_a.rss" -f "%M" "$TERN" crawl -j "$_a" \
		--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
		--set frontier.max-retries=1 --set frontier.retry-delay-seconds=0 \
		"$@" "http://127.0.0.1:$PORT/$_a" >"$_a.out" 2>"$_a.err"
	grep -q Sanitizer "$_a.err" && fail "$_a: sanitizer report: $(grep -A20 Sanitizer "$_a.err" | head -40)"
	_rss=$(tail -n 1 "$_a.rss")
	case $_rss in
	'' | *[!0-9]*) fail "$_a: no peak RSS: $(cat "$_a.rss" "$_a.err")" ;;
	esac
	[ "$_rss" -lt "$BOUND_KB" ] || fail "$_a: peak RSS $_rss KB, bound $BOUND_KB KB"
	_line=$(awk -v u="http://127.0.0.1:$PORT/$_a" '$4 == u' "$_a/logs/crawl.log")
	printf '%s\n' "$_line" | grep -Eq "$_ere" ||
		fail "$_a: crawl.log line '$_line' does not match '$_ere'"
	pass "$_a: $(printf '%s' "$_line" | awk '{ print $2, $NF == "-" ? $(NF-2) : $NF }') ($_rss KB)"
}

# warc_truncated ANSWER WORD: the answer's response record says
# WARC-Truncated: WORD.
warc_truncated() {
	gzip -dc "$1"/warcs/*.warc.gz | tr -d '\r' | awk -v u="http://127.0.0.1:$PORT/$1" -v w="$2" '
		/^WARC\/1\.[01]$/ { inhead = 1; uri = ""; type = ""; trunc = ""; next }
		inhead && /^WARC-Type:/ { type = $2 }
		inhead && /^WARC-Target-URI:/ { uri = $2 }
		inhead && /^WARC-Truncated:/ { trunc = $2 }
		inhead && /^$/ { inhead = 0; if (type == "response" && uri == u && trunc == w) found = 1 }
		END { exit !found }' || fail "$1: no response record with WARC-Truncated: $2"
}

LIMIT='^[^ ]+ +-3 .* err:header-too-large'
hostile trailers "$LIMIT"
hostile chunkext "$LIMIT"
hostile chunkzeros "$LIMIT"
hostile status "$LIMIT"
hostile hname "$LIMIT"
hostile hvalue "$LIMIT"
hostile headers "$LIMIT"
hostile continue "$LIMIT"
grep -q "trailers past a limit .*see fetch.max-header-bytes" trailers/logs/tern.log ||
	fail "trailers: tern.log does not name the limit: $(tail -n 3 trailers/logs/tern.log)"

# A body that never ends stops at fetch.max-length-bytes, and so does the
# spill file that held it: the record's payload is exactly the limit.
hostile endless '^[^ ]+ +200 +8000000 .* lenTrunc' --set fetch.max-length-bytes=8000000
warc_truncated endless length
hostile endless-chunked '^[^ ]+ +200 +8000000 .* lenTrunc' --set fetch.max-length-bytes=8000000
warc_truncated endless-chunked length

# The whole-fetch deadline cuts a body that drips, and a head that drips.
hostile drip '^[^ ]+ +200 .* timeTrunc' --set fetch.timeout-seconds=2
warc_truncated drip time
hostile driphead '^[^ ]+ +-4 .* err:head-timeout' --set fetch.timeout-seconds=2

hostile gzipbomb '^[^ ]+ +200 .* decodeTrunc'
hostile links '^[^ ]+ +200 .*[ ,]dol:[0-9]+'
hostile longuri '^[^ ]+ +200 '
awk 'length($4) > 2083 { bad = 1 } END { exit bad }' longuri/logs/crawl.log ||
	fail "longuri: a URI longer than crawl.max-uri-length was crawled"

# The default is a limit a person would expect, not "none".
grep -q '^max-length-bytes = 1073741824' trailers/tern.conf ||
	fail "fetch.max-length-bytes default is not 1 GiB: $(grep max-length-bytes trailers/tern.conf)"
pass "fetch.max-length-bytes defaults to 1 GiB"
