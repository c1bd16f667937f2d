#!/bin/sh
# Nothing is made before the input is checked (tern(1), crawl): a refused
# seed, seed file line or setting leaves no job directory behind, so the
# same -j works once the input is right; a bad seed file line is quoted
# whole with its file and line; -j refuses a directory of other files and
# one that holds a crawl already (pointing at tern resume), exit 2 each.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 1 --pages 5 --links 2 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
url=$(tw_url 0 /)
set -- --set dns.servers="$DNS_SERVER" --set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0

# refused DESCRIPTION PATTERN JOBDIR ARGS...: exit 2, PATTERN said, and
# JOBDIR not made.
refused() {
	_d=$1 _p=$2 _j=$3
	shift 3
	"$TERN" crawl -j "$_j" "$@" >out.txt 2>&1
	_rc=$?
	[ $_rc -eq 2 ] || fail "$_d: exit $_rc, wanted 2: $(cat out.txt)"
	grep -q -- "$_p" out.txt || fail "$_d: no '$_p' in: $(cat out.txt)"
	[ ! -e "$_j" ] || fail "$_d: $_j was made: $(ls -R "$_j" | head)"
	pass "$_d: $(head -1 out.txt)"
}

refused "not a URL" "'notaurl' is not an http or https URL" j1 "$@" notaurl
printf '%s\n' "$url" "# a comment" "  ftp://old.example/ list of mirrors  # note" >bad-seeds.txt
refused "bad seed file line" "bad-seeds.txt:3: 'ftp://old.example/ list of mirrors' is not" j2 \
	"$@" -s bad-seeds.txt
refused "bad DNS setting" "dns.servers" j3 "$@" --set dns.servers=nonsense "$url"
refused "missing CA file" "fetch.ca-file" j4 "$@" --set fetch.ca-file="$TW_DIR/no-such-ca.pem" "$url"
refused "bad scope" "crawl.scope: expected" j5 "$@" --set crawl.scope=, "$url"

"$TERN" crawl -j j1 "$@" "$url" >out.txt 2>&1 || fail "the crawl after a refusal exited $?: $(cat out.txt)"
grep -q "^[^ ]* *200 .*$url " j1/logs/crawl.log || fail "the crawl after a refusal fetched nothing"
pass "the same -j crawls once the seed is right"

# A seed file saved with a UTF-8 byte-order mark: its first seed is a seed.
printf '\357\273\277%s\n' "$url" >bom-seeds.txt
"$TERN" crawl -j jbom "$@" -s bom-seeds.txt >out.txt 2>&1 || fail "a seed file with a byte-order mark: $(cat out.txt)"
grep -q "^[^ ]* *200 .*$url " jbom/logs/crawl.log || fail "the seed after a byte-order mark was not fetched"
pass "a seed file's byte-order mark is not part of its first seed"

mkdir other
echo "my notes" >other/notes.txt
"$TERN" crawl -j other "$@" "$url" >out.txt 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a directory of other files: exit $rc, wanted 2: $(cat out.txt)"
grep -q "not empty (it holds 'notes.txt') and is not a tern job directory" out.txt ||
	fail "a directory of other files: $(cat out.txt)"
[ "$(ls other)" = "notes.txt" ] || fail "tern wrote into a directory of other files: $(ls other)"
pass "a directory of other files refused, untouched"

mkdir empty
"$TERN" crawl -j empty "$@" "$url" >out.txt 2>&1 || fail "an empty directory: exit $?: $(cat out.txt)"
pass "an empty directory becomes the job"

"$TERN" crawl -j j1 "$@" "$url" >out.txt 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a job with state: exit $rc, wanted 2: $(cat out.txt)"
grep -q "tern resume" out.txt || fail "a job with state: no pointer to tern resume: $(cat out.txt)"
pass "a job with state refused, pointing at tern resume"
