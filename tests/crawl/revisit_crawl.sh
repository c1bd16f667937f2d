#!/bin/sh
# A continuous crawl (crawl.mode = continuous) of the test web's changing
# pages for REVISIT_SECONDS, judged from the server's request log, crawl.log
# and the WARCs: pages that change every 2 s are visited at least 3x as
# often as pages that never change (4.4x on a quiet machine: the interval
# of the changing ones shrinks to revisit.min-interval-seconds while the
# others' doubles up to 16 s); revisits send the previous capture's validators
# and unchanged pages answer 304, logged with duplicate:digest (as every
# capture written as a revisit, doc/formats.md "crawl.log") and archived as server-not-modified revisits that warcio accepts (with
# the identical-payload revisits of pages without validators); per host,
# never two requests at once and at least min-delay-ms between them; and
# the crawl does not end by itself (it runs until crawl.max-time-seconds).
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq node

SECONDS_RUN=${REVISIT_SECONDS:-30}
MIN_DELAY=100
TW_NO_MANIFEST=1
tw_start --hosts 2 --pages 3 --change-periods 2,0
dns_start
cd "$TW_DIR" || fail "no work directory"
printf '%s\n%s\n' "$(tw_url 0 /v/)" "$(tw_url 1 /v/)" >seeds
job=$TW_DIR/job
start=$(date +%s)
"$TERN" crawl -j "$job" -s seeds \
	--set crawl.mode=continuous \
	--set crawl.max-time-seconds="$SECONDS_RUN" \
	--set revisit.initial-interval-seconds=2 \
	--set revisit.min-interval-seconds=1 \
	--set revisit.max-interval-seconds=16 \
	--set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=$MIN_DELAY \
	--set politeness.delay-factor=0 \
	--set politeness.respect-crawl-delay-up-to-seconds=0 \
	--set crawl.max-connections=8 >"$TW_DIR/tern.out" 2>&1 ||
	fail "tern crawl exited $?: $(cat "$TW_DIR/tern.out")"
took=$(($(date +%s) - start))
grep -q "Sanitizer" "$TW_DIR/tern.out" && fail "sanitizer report: $(cat "$TW_DIR/tern.out")"
[ "$took" -ge "$SECONDS_RUN" ] || fail "the crawl ended by itself after $took s"
grep -q 'max-time-seconds reached' "$job/logs/tern.log" || fail "the crawl did not stop at its time limit"
tw_stop
pass "a continuous crawl runs until its time limit ($took s)"

log=$TW_DIR/requests.tsv
cl=$job/logs/crawl.log

# Visits per page, by change period (the path's first segment).
awk -F'\t' '$4 ~ /^\/v\/[0-9]+\/[a-z]+\/[0-9]+\.html$/ { split($4, p, "/"); n[p[3]]++; pages[p[3] " " $3 " " $4] = 1 }
	END { for (k in pages) { split(k, q, " "); np[q[1]]++ }
	      for (k in n) printf "%s %d %d\n", k, n[k], np[k] }' "$log" | sort >visits.txt
changing=$(awk '$1 == 2 { printf "%.1f", $2 / $3 }' visits.txt)
never=$(awk '$1 == 0 { printf "%.1f", $2 / $3 }' visits.txt)
[ -n "$changing" ] && [ -n "$never" ] || fail "no visits by period: $(cat visits.txt)"
awk -v c="$changing" -v n="$never" 'BEGIN { exit !(c >= 3 * n && n >= 2) }' ||
	fail "pages changing every 2 s got $changing visits each, unchanging ones $never: $(cat visits.txt)"
pass "visits per page: $changing for pages changing every 2 s, $never for unchanging ones"

# Validators: sent by revisits of pages that gave them, never by others;
# unchanged pages answer 304 to them.
awk -F'\t' '$4 ~ /^\/v\/[0-9]+\/none\// && $8 != "-" { bad++ } END { exit bad > 0 }' "$log" ||
	fail "validators sent for a page that never gave any"
for kind in both etag lastmod; do
	want=inm
	[ $kind = lastmod ] && want=ims
	[ $kind = both ] && want=inm+ims
	n=$(awk -F'\t' -v k="/v/0/$kind/" -v w="$want" 'index($4, k) == 1 && $8 == w && $5 == 304' "$log" | wc -l)
	[ "$n" -ge 4 ] || fail "$kind pages: $n 304s to $want requests"
done
first=$(awk -F'\t' '$4 == "/v/0/both/0.html" && $3 == "h0.web.test" { print $8; exit }' "$log")
[ "$first" = "-" ] || fail "the first visit sent validators ($first)"
pass "revisits send If-None-Match/If-Modified-Since and unchanging pages answer 304"

# crawl.log: 304s carry the earlier capture's digest and their annotation;
# unchanged pages without validators are identical-payload revisits.
awk '$2 == 304 && ($10 !~ /^sha1:/ || $12 !~ /duplicate:digest/) { bad++ } END { exit bad > 0 }' "$cl" ||
	fail "a 304 line without its digest or annotation: $(awk '$2 == 304' "$cl" | head -2)"
n304=$(awk '$2 == 304' "$cl" | wc -l)
ndup=$(awk '$4 ~ /\/v\/0\/none\// && $12 ~ /duplicate:digest/' "$cl" | wc -l)
[ "$ndup" -ge 4 ] || fail "only $ndup identical-payload revisits of unchanging pages without validators"
awk '{ print $2 }' "$cl" | grep -qv -e '^200$' -e '^304$' -e '^1$' &&
	fail "unexpected statuses: $(awk '$2 != 200 && $2 != 304 && $2 != 1' "$cl" | head -3)"
pass "crawl.log: $n304 server-not-modified revisits, $ndup identical-payload revisits"

# The independent WARC reader: every revisit points at an earlier response
# with its digest, and crawl.log agrees with the records, annotations too.
cp "$cl" "$job/crawl.log"
node "$top_srcdir/tests/archive/warc_validate.mjs" "$job" >validate.out 2>&1 ||
	fail "warcio: $(grep -v '^ok' validate.out | tail -5)"
awk '$2 == 304 && $12 ~ /duplicate:digest/ { n++ } END { exit n == 0 }' "$job/crawl.log" ||
	fail "no 304 line annotated duplicate:digest"
pass "warcio accepts the WARCs ($(tail -1 validate.out))"

# The revisits report (offline, from the store): every URI waiting or
# queued, when they are due, the 304s and unchanged captures counted by
# the histories, and the host whose pages change fastest first.
"$TERN" report "$job" revisits >revisits.txt 2>&1 || fail "tern report revisits: $(cat revisits.txt)"
"$TERN" report "$job" revisits --json >revisits.json 2>&1 || fail "tern report revisits --json"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const n304 = +process.argv[2];
const bad = [];
if (r.uris !== 34 || r.with_history !== 34) bad.push("uris " + r.uris + "/" + r.with_history);
if (r.due.waiting + r.due.queued !== 34) bad.push("waiting " + r.due.waiting + " queued " + r.due.queued);
if (!(r.due.next_day >= r.due.next_hour && r.due.next_hour >= r.due.now && r.due.next_day === r.due.waiting)) bad.push("due " + JSON.stringify(r.due));
if (r.not_modified < n304 - 8 || r.not_modified > n304) bad.push("not_modified " + r.not_modified + " for " + n304 + " logged");
if (!(r.unchanged > 0 && r.changes > 0)) bad.push("unchanged " + r.unchanged + " changes " + r.changes);
if (r.hosts.length !== 2 || !(r.hosts[0].changes_per_day > 0)) bad.push("hosts " + JSON.stringify(r.hosts));
if (bad.length) { console.error(bad.join("; ")); process.exit(1); }' revisits.json "$n304" 2>rj.err ||
	fail "revisits report: $(cat rj.err)"
grep -q '^ saved: [0-9]* answers 304 Not Modified' revisits.txt || fail "text report: $(head -8 revisits.txt)"
pass "tern report revisits: $(sed -n 's/^ saved: //p' revisits.txt)"

# Politeness on revisits: per host one request at a time, min-delay-ms
# between them (20 ms of slack for the server's own loop, as crawl_basic).
for h in h0.web.test h1.web.test; do
	tw_gaps $h | awk -v d=$((MIN_DELAY - 20)) '$1 < d { print; bad++ } END { exit bad > 0 }' >gaps.txt ||
		fail "$h: gaps under $MIN_DELAY ms: $(head -3 gaps.txt)"
done
sort -t "$(printf '\t')" -k3,3 -k1,1n "$log" | awk -F'\t' '$3 == h && $1 < e { bad++ } { h = $3; e = $2 } END { exit bad > 0 }' ||
	fail "two requests at once to one host"
pass "revisits are polite: one request at a time per host, at least $MIN_DELAY ms apart"
