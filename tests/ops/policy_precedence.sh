#!/bin/sh
# Queue precedence through [override] sections end to end (seed 001, the
# issue's example): .gov queues at precedence 1, .com and the default at 10,
# crawled .gov-first with one connection (no politeness delay, so a better
# queue is always ready again at once); a queue at or past the precedence
# floor is never fetched from, does not keep the crawl running, and is
# reported as INELIGIBLE with its URIs. The test web names its hosts
# hN.web.test; overrides on their SURTs stand in for more .gov and .com
# sites, and a.example.gov / a.example.com (answered 404, but real queues
# with their own DNS and robots.txt) check the TLD prefixes themselves.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

tw_start --hosts 4 --pages 10 --links 4 --cross 0 --kb 1
dns_start a.example.gov a.example.com
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
cat >prec.conf <<CONF
[frontier]
queue-base-precedence = 10
precedence-floor = 100

# .gov first
[override "gov,"]
frontier.queue-base-precedence = 1

[override "com,"]
frontier.queue-base-precedence = 10

# h1 is crawled as a .gov site would be
[override "test,web,h1,"]
frontier.queue-base-precedence = 1

# h3 sits past the floor: never crawled
[override "test,web,h3,"]
frontier.queue-base-precedence = 150
CONF
# .com seeds first: the order of the seeds must not matter.
{
	echo "http://a.example.com:$TW_PORT/"
	grep -v h1 "$TW_DIR/seeds.txt"
	echo "http://a.example.gov:$TW_PORT/"
	grep h1 "$TW_DIR/seeds.txt"
} >prec-seeds.txt
policy_crawl "$job" -c prec.conf -s prec-seeds.txt
policy_wait_exit
tw_stop

sort -t "$(printf '\t')" -k1,1n "$TW_DIR/requests.tsv" | awk -F'\t' '{ print $3 }' >order.txt
awk '$1 == "a.example.gov" || $1 == "h1.web.test" { last = NR }
	($1 == "a.example.com" || $1 == "h0.web.test" || $1 == "h2.web.test") && !first { first = NR }
	END { if (!last || !first || last > first) { printf "last precedence-1 request %d, first precedence-10 request %d\n", last, first; exit 1 } }' \
	order.txt >bad.txt || fail ".gov not first: $(cat bad.txt): $(uniq -c order.txt | tr '\n' ' ')"
grep -q a.example.com order.txt || fail "a.example.com never requested"
grep -q h3.web.test order.txt && fail "h3 (past the floor) was requested"
grep -q 'dns:h3.web.test' "$job/logs/crawl.log" && fail "h3 was even looked up"

q=$job/reports/queues.txt
grep -q '^INELIGIBLE test,web,h3,#[0-9]* 150 1 ' "$q" || fail "h3 not reported ineligible: $(cat "$q")"
grep -q '; 1 ineligible;' "$job/reports/frontier-summary.txt" || fail "summary: $(head -1 "$job/reports/frontier-summary.txt")"
grep -q 'ineligible queues (at or past the precedence floor) hold 1 URIs' "$job.out" || fail "end of crawl: $(cat "$job.out")"
grep -q '^EXHAUSTED gov,example,a,#[0-9]* 1 ' "$q" || fail "a.example.gov's queue precedence: $(grep gov "$q")"
grep -q '^EXHAUSTED com,example,a,#[0-9]* 10 ' "$q" || fail "a.example.com's queue precedence: $(grep com "$q")"
pass ".gov-precedence queues crawled first: $(uniq -c order.txt | awk '{ printf "%s %s x%d", (NR > 1 ? "," : ""), $2, $1 }')"
