#!/bin/sh
# Scheduling directives from the crawl loop (checklist item 62): redirect
# targets (last hop R) and embeds within frontier.preference-embed-hops
# (trailing non-L hops, default 1) are MEDIUM, everything else NORMAL, and a
# queue gives out MEDIUM URIs before NORMAL ones. With one host and one
# connection the test web's request log is the queue's emission order: no
# plain link may be requested while an embed or redirect target of the same
# queue is already known (its via answered) and still waits, and embeds must
# overtake plain links that were queued before them (the page's <img> comes
# after its <a> links). The same crawl with preference-embed-hops = 0 keeps
# embeds in discovery order, which the same check must catch.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

tw_start --hosts 1 --pages 25 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"

# judge JOB: "VIOLATIONS OVERTAKES MEDIUM" from the request log (order,
# times) and JOB's crawl.log (hops and via of each URI).
judge() {
	sort -t "$(printf '\t')" -k1,1n requests.tsv |
		awk -F'\t' -v p="$TW_PORT" '$4 != "/robots.txt" { print "R", "http://" $3 ":" p $4 }' >order.txt
	awk '$4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/ { print "C", $4, $5, $6 }' "$1/logs/crawl.log" |
		cat order.txt - | awk '
		$1 == "R" { n++; url[n] = $2; rank[$2] = n; next }
		{
			hops[$2] = ($3 == "-") ? "" : $3; via[$2] = $4
		}
		END {
			for (i = 1; i <= n; i++) {
				u = url[i]
				if (!(u in hops)) { print "not in crawl.log: " u > "/dev/stderr"; exit 2 }
				h = hops[u]; t = 0; k = length(h)
				if (k > 0 && substr(h, k, 1) == "R") med[i] = 1
				else {
					while (k > 0 && substr(h, k, 1) != "L" && substr(h, k, 1) != "M") { t++; k-- }
					med[i] = (t == 1)
				}
				disc[i] = (via[u] in rank) ? rank[via[u]] : 0
				m += med[i]
			}
			for (i = 1; i <= n; i++) {
				if (med[i]) continue
				for (j = i + 1; j <= n; j++)
					if (med[j] && disc[j] < i) {
						if (bad < 3) print "NORMAL " url[i] " before waiting MEDIUM " url[j] > "/dev/stderr"
						bad++
					}
				for (j = 1; j < i; j++)
					if (med[j] && disc[j] > disc[i]) over++
			}
			print bad + 0, over + 0, m + 0
		}'
}

policy_crawl "$TW_DIR/job" -s "$TW_DIR/seeds.txt"
policy_wait_exit
set -- $(judge "$TW_DIR/job" 2>judge.err) || fail "judge: $(cat judge.err)"
[ "$#" -eq 3 ] || fail "judge: $(cat judge.err)"
[ "$3" -ge 5 ] || fail "only $3 MEDIUM URIs: nothing to test"
[ "$1" -eq 0 ] || fail "$1 NORMAL URIs fetched while a MEDIUM one waited: $(cat judge.err)"
[ "$2" -gt 0 ] || fail "no MEDIUM URI overtook an earlier plain link"
awk -F'\t' '$4 != "/robots.txt" { print $4 }' requests.tsv | sort | uniq -d >dups.txt
[ -s dups.txt ] && fail "requested twice: $(head -3 dups.txt)"
pass "$3 MEDIUM URIs (embeds, redirect targets) ahead of plain links; $2 overtakes"

: >requests.tsv
policy_crawl "$TW_DIR/job0" -s "$TW_DIR/seeds.txt" --set frontier.preference-embed-hops=0
policy_wait_exit
set -- $(judge "$TW_DIR/job0" 2>judge.err) || fail "judge: $(cat judge.err)"
[ "$1" -gt 0 ] || fail "preference-embed-hops = 0 still put embeds first"
tw_stop
pass "preference-embed-hops = 0: embeds in discovery order ($1 waits seen)"
