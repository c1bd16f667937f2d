#!/bin/sh
# Reject and accept rules (tern.conf(5), RULES) end to end, on the test
# web's blog and calendar (tests/testweb/README.md):
#   calendar  the endless calendar, in scope with crawl.max-hops 100, is
#             bounded by a regex rule to 2023-2025: exactly 36 months, and
#             the 2 months past the ends counted by that rule;
#   blog      rel=nofollow reply links (a rel rule), the oEmbed URLs (a
#             SURT rule), posts past 5 hops (a hops rule) are never fetched;
#             the rest of /_mis/ is accepted by a SURT rule; each rule's
#             count (exact: every fetched page's links) is in the end
#             summary, reports/stats.json, `tern report stats` and the
#             offline console, and the links out of scope are counted too;
#   cms       doc/rules-cms.conf keeps the crawl to the 12 posts;
#   narrow    no rule: the seed's own scope refuses most links, and the
#             summary says so and names crawl.scope; with crawl.max-hops 1
#             the links past it are counted as too many hops;
#   resume    the same crawl stopped by crawl.max-pages and resumed ends
#             with the same counts: they survive in the store;
#   live      tern ctl set rules.reject= applies on resume, kept in
#             JOBDIR/tern.conf; the console's settings page lists the rules;
#   bad       a rule that does not compile is refused with its file, line
#             and key (exit 2), from a file and from --set.
. "$top_srcdir/tests/lib.sh"
need_cmd python3 curl

tw_start --hosts 1 --pages 5 --kb 1
cd "$TW_DIR" || fail "no work directory"
base=http://127.0.0.1:$TW_PORT
site="http://(127.0.0.1:$TW_PORT)"

# crawl NAME ARGS...: a --local crawl into job NAME; its summary in NAME.out.
crawl() {
	_n=$1
	shift
	"$TERN" crawl --local -j "$_n" "$@" >"$_n.out" 2>"$_n.err" ||
		fail "$_n: tern crawl exited $?: $(cat "$_n.out" "$_n.err")"
	grep -q Sanitizer "$_n.err" && fail "$_n: sanitizer report: $(cat "$_n.err")"
	[ -s "$_n/logs/crawl.log" ] || fail "$_n: no crawl.log"
}

# fetched NAME ERE: the URIs of crawl.log that match, sorted.
fetched() {
	awk '{ print $4 }' "$1/logs/crawl.log" | grep -E "$2" | sort -u
}

# count FILE PATH: the integer at PATH ("dropped.by_rule.x.count") of a
# JSON file.
count() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    j = j[k]
print(j)' "$1" "$2" || fail "$1 has no $2"
}

# calendar: the trap is bounded by the rule, not by crawl.max-hops.
cat >calendar.conf <<EOF
[crawl]
max-hops = 100

[rules]
# Only the years an archivist wants; PCRE2's lookahead.
reject = calendar-range regex /_mis/calendar/(?!202[3-5]/)
accept = calendar surt $site/_mis/calendar/
EOF
crawl calendar -c calendar.conf "$base/_mis/calendar/2024/06/"
n=$(fetched calendar '/_mis/calendar/' | wc -l)
[ "$n" -eq 36 ] || fail "calendar: $n months fetched, wanted 36: $(fetched calendar calendar | head -3)"
fetched calendar '/_mis/calendar/' | grep -qvE '/202[3-5]/' && fail "calendar: a month past the rule"
[ "$(count calendar/reports/stats.json dropped.by_rule.calendar-range.count)" -eq 2 ] ||
	fail "calendar: calendar-range count: $(cat calendar/reports/stats.json)"
grep -q "dropped (links not followed): 2 by rule calendar-range" calendar.out ||
	fail "calendar: summary: $(cat calendar.out)"

cat >blog.conf <<EOF
[rules]
reject = nofollow rel nofollow
reject = api surt $site/_mis/blog/wp-json/
reject = deep hops ^L{6,}\$
accept = site surt $site/_mis/
EOF
crawl blog -c blog.conf "$base/_mis/blog/1/"
fetched blog 'replytocom' | grep -q . && fail "blog: a nofollow link fetched"
fetched blog 'wp-json' | grep -q . && fail "blog: an oEmbed URL fetched"
posts=$(fetched blog '/_mis/blog/[0-9]+/$' | sed 's|.*/blog/||; s|/||' | sort -n | tr '\n' ' ')
[ "$posts" = "1 2 3 4 5 6 " ] || fail "blog: posts fetched: $posts"
# Posts 1-5 with their feed and print views, and post 6: 16 pages of 3
# reply links and one oEmbed link each.
s=blog/reports/stats.json
[ "$(count $s dropped.by_rule.nofollow.count)" -eq 48 ] || fail "blog: nofollow count: $(cat $s)"
[ "$(count $s dropped.by_rule.api.count)" -eq 16 ] || fail "blog: api count: $(cat $s)"
[ "$(count $s dropped.by_rule.api.decision)" = reject ] || fail "blog: api decision"
[ "$(count $s dropped.by_rule.site.decision)" = accept ] || fail "blog: site decision"
deep=$(count $s dropped.by_rule.deep.count)
[ "$deep" -gt 0 ] || fail "blog: the hops rule dropped nothing"
[ "$(count $s dropped.rules)" -eq $((48 + 16 + deep)) ] || fail "blog: dropped.rules: $(cat $s)"
# Every post links elsewhere.invalid, out of the seed's scope.
oos=$(count $s dropped.out_of_scope)
[ "$oos" -ge 16 ] || fail "blog: out of scope: $oos"
grep -q "dropped (links not followed): 48 by rule nofollow, 16 by rule api, $deep by rule deep, $oos out of scope (crawl.scope)" blog.out ||
	fail "blog: summary: $(cat blog.out)"
# The report reads the same counts from the store, with no crawl running.
"$TERN" report blog stats --json >report.json || fail "tern report stats exited $?"
[ "$(count report.json dropped.by_rule.nofollow.count)" -eq 48 ] ||
	fail "report stats: $(cat report.json)"
[ "$(count report.json dropped.out_of_scope)" -eq "$oos" ] || fail "report stats: out of scope"
"$TERN" report blog rules >rules.txt || fail "tern report rules exited $?"
grep -qE '^nofollow +reject +48  rel nofollow$' rules.txt || fail "report rules: $(cat rules.txt)"
grep -qE '^site +accept +[0-9]+  surt ' rules.txt || fail "report rules: no accept rule: $(cat rules.txt)"
grep -qE "^  out of scope +$oos  crawl.scope$" rules.txt || fail "report rules: by reason: $(cat rules.txt)"
"$TERN" report blog rules --json >rules.json || fail "tern report rules --json exited $?"
python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
r = j["rules"][0]
assert (r["name"], r["decision"], r["count"], r["rule"]) == ("nofollow", "reject", 48, "nofollow rel nofollow"), r
assert j["dropped"]["by_rule"]["api"]["count"] == 16' rules.json || fail "report rules --json: $(cat rules.json)"

# The offline console's overview says what was dropped, as the summary.
"$TERN" console blog --listen 127.0.0.1:0 >console.out 2>console.err &
off=$!
track_pid $off
i=0
until grep -q '^http://' console.out; do
	kill -0 $off 2>/dev/null || fail "offline console exited: $(cat console.out console.err)"
	[ $i -lt 100 ] || fail "offline console printed no URL"
	sleep 0.1
	i=$((i + 1))
done
curl -s "$(head -1 console.out)" >overview.html
grep -q "<span data-k=\"dropped\">48 by rule nofollow, 16 by rule api, $deep by rule deep, $oos out of scope (crawl.scope)</span>" overview.html ||
	fail "console overview: $(grep -i -A1 'not followed' overview.html)"
kill -TERM $off
wait $off || fail "offline console exit status $?"
grep -q Sanitizer console.err && fail "console: sanitizer: $(cat console.err)"

# cms: the shipped rule set (doc/rules-cms.conf) with a second -c that
# accepts the rest of /_mis/: none of the blog's machinery is fetched, each
# rule's drops are counted under its name.
printf '[rules]\naccept = site surt %s/_mis/\n' "$site" >site.conf
crawl cms -c "$top_srcdir/doc/rules-cms.conf" -c site.conf "$base/_mis/blog/1/"
fetched cms '/_mis/blog/' | grep -vE '/_mis/blog/[0-9]+/$' | grep -q . &&
	fail "cms: machinery fetched: $(fetched cms /_mis/blog/ | grep -vE '/_mis/blog/[0-9]+/$' | head -3)"
n=$(fetched cms '/_mis/blog/[0-9]+/$' | wc -l)
[ "$n" -eq 12 ] || fail "cms: $n posts fetched, wanted 12"
s=cms/reports/stats.json
for r in wp-feeds:12 wp-replytocom:36 wp-json:12 wp-shortlinks:12 print-views:12 logout:12; do
	[ "$(count $s "dropped.by_rule.${r%:*}.count")" -eq "${r#*:}" ] ||
		fail "cms: rule ${r%:*} dropped $(count $s "dropped.by_rule.${r%:*}.count"), wanted ${r#*:}"
done

# narrow: with no rule, the seed's scope (its path) keeps the crawl to one
# post; the summary counts what it refused and names the setting.
crawl narrow "$base/_mis/blog/1/"
grep -q "^tern: dropped (links not followed): [0-9]* out of scope (crawl.scope)$" narrow.out ||
	fail "narrow: summary: $(cat narrow.out)"
grep -q "^tern: more links were out of scope ([0-9]*) than followed ([0-9]*): crawl.scope=domain" narrow.out ||
	fail "narrow: no hint of crawl.scope: $(cat narrow.out)"
grep -q "than followed" blog.out && fail "blog: the scope hint where most links were followed"
# hops: a scope of the whole blog, at most 1 hop: the links of post 2 are
# past crawl.max-hops, counted as such.
crawl hops --set "crawl.scope=+$site/_mis/blog/" --set crawl.max-hops=1 "$base/_mis/blog/1/"
[ "$(count hops/reports/stats.json dropped.too_many_hops)" -gt 0 ] ||
	fail "hops: too_many_hops: $(cat hops/reports/stats.json)"
grep -q "too many hops (crawl.max-hops)" hops.out || fail "hops: summary: $(cat hops.out)"

# resume: stopped at 10 pages, then resumed with the limit lifted; the
# same pages are fetched in all, so the same links are counted in all.
crawl resume -c blog.conf --set crawl.max-pages=10 "$base/_mis/blog/1/"
grep -q "max-pages" resume.out || fail "resume: not stopped by max-pages: $(cat resume.out)"
first=$(count resume/reports/stats.json dropped.by_rule.nofollow.count)
[ "$first" -lt 48 ] || fail "resume: the first run counted every link already ($first)"
sed -i 's/^max-pages = 10$/max-pages = 0/' resume/tern.conf
"$TERN" resume resume >resume2.out 2>resume2.err || fail "tern resume exited $?: $(cat resume2.out resume2.err)"
grep -q Sanitizer resume2.err && fail "resume: sanitizer report: $(cat resume2.err)"
[ "$(count resume/reports/stats.json dropped.by_rule.nofollow.count)" -eq 48 ] ||
	fail "resume: nofollow count after resume: $(cat resume/reports/stats.json)"
[ "$(count resume/reports/stats.json dropped.by_rule.api.count)" -eq 16 ] ||
	fail "resume: api count after resume"

# live: a rule set mid-crawl through tern ctl is kept for the resume (rules
# are read at start); the settings page lists the rules; ctl status has the
# counts.
"$TERN" crawl --local -j live -c blog.conf --set crawl.pause-at-start=true \
	"$base/_mis/blog/1/" >live.out 2>live.err &
livepid=$!
track_pid $livepid
i=0
until "$TERN" ctl live status >live.json 2>/dev/null; do
	kill -0 $livepid 2>/dev/null || fail "live: crawl exited: $(cat live.out live.err)"
	[ $i -lt 300 ] || fail "live: no control socket"
	sleep 0.1
	i=$((i + 1))
done
[ "$(count live.json dropped.by_rule.nofollow.decision)" = reject ] || fail "live: status: $(cat live.json)"
"$TERN" ctl live set "rules.reject=late regex /late/" >set.json || fail "live: ctl set rule: $(cat set.json)"
grep -q '"rules.reject": "on resume"' set.json || fail "live: ctl set answer: $(cat set.json)"
"$TERN" ctl live set "rules.reject=late2 regex (" >set.json 2>&1 && fail "live: a bad rule set"
grep -q "bad regular expression" set.json || fail "live: bad rule answer: $(cat set.json)"
"$TERN" ctl live set "rules.reject=nofollow regex x" "politeness.min-delay-ms=7" >set.json 2>&1 &&
	fail "live: a rule's name used twice"
grep -q "rule nofollow: a rule of that name comes earlier" set.json || fail "live: twice: $(cat set.json)"
grep -q "^min-delay-ms = 7$" live/tern.conf && fail "live: a refused set changed another key"
curl -s --unix-socket live/control.sock http://localhost/console/settings >settings.html
grep -q "reject = nofollow rel nofollow" settings.html || fail "live: settings page: no rules"
"$TERN" report live rules >liverules.txt || fail "live: tern report rules exited $?"
grep -qE '^api +reject +0  surt ' liverules.txt || fail "live: report rules: $(cat liverules.txt)"
"$TERN" ctl live stop >/dev/null || fail "live: ctl stop"
wait $livepid || fail "live: exit $?: $(cat live.err)"
grep -q Sanitizer live.err && fail "live: sanitizer report: $(cat live.err)"
grep -q "^reject = late regex /late/$" live/tern.conf || fail "live: the rule is not in tern.conf"

# bad: the file, line and key of a rule that does not compile.
printf '[rules]\nreject = ok regex /feed/\nreject = broken regex /cal/(\\d{4}\n' >bad.conf
"$TERN" crawl -j bad -c bad.conf "$base/" >bad.out 2>&1
rc=$?
[ $rc -eq 2 ] || fail "bad rule: exit $rc: $(cat bad.out)"
grep -q "bad.conf:3: rules.reject: rule broken: bad regular expression at offset" bad.out ||
	fail "bad rule: $(cat bad.out)"
[ -e bad ] && fail "bad rule: a job directory was made"
"$TERN" crawl -j bad --set "rules.accept=x kind picture" "$base/" >bad.out 2>&1
rc=$?
[ $rc -eq 2 ] || fail "bad --set rule: exit $rc"
grep -q -- "--set: rules.accept: rule x: kind \"picture\"" bad.out || fail "bad --set rule: $(cat bad.out)"

tw_stop
pass "rules: calendar bounded at 36 months, blog nofollow 48 / api 16 / deep $deep / out of scope $oos, counts kept over a resume (first run $first), bad rules named"
