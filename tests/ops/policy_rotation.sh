#!/bin/sh
# Budgeted rotation end to end (seed 000, checklist 9 and 12-13): with one
# connection, unit cost and balance-replenish-amount N, a queue gives out
# N+1 URIs per activation and then goes to the back of the inactive queues,
# so in the test web's request log no host has a run of more than N+1
# consecutive requests while another host still has work; every page is
# still fetched exactly once.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq

N=3
tw_start --hosts 3 --pages 15 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set frontier.balance-replenish-amount=$N \
	--set frontier.cost-policy=unit
policy_wait_exit
tw_stop

policy_pages >pages.txt
awk -F'\t' '$2 == "allowed"' "$TW_DIR/manifest.tsv" | wc -l >want.txt
[ "$(wc -l <pages.txt)" -eq "$(cat want.txt)" ] ||
	fail "$(wc -l <pages.txt) page requests for $(cat want.txt) reachable pages"
[ "$(sort pages.txt | uniq -d | wc -l)" -eq 0 ] || fail "pages requested twice"

# Runs of one host; a run may be longer only when no other host comes after it.
awk '{ print $1 }' pages.txt | awk -v max=$((N + 1)) '
	{ h[NR] = $1 }
	END {
		for (i = 1; i <= NR; i = j) {
			for (j = i; j <= NR && h[j] == h[i]; j++) ;
			runs++
			later = 0
			for (k = j; k <= NR; k++) if (h[k] != h[i]) { later = 1; break }
			if (j - i > max && later) { printf "run of %d on %s at request %d\n", j - i, h[i], i; bad++ }
			if (j - i == max) full++
		}
		printf "%d runs, %d of the full %d\n", runs, full, max > "/dev/stderr"
		if (runs < NR / max) { print "too few runs: no rotation"; bad++ }
		if (full == 0) { print "no run reached the balance"; bad++ }
		exit bad > 0
	}' >runs.txt 2>runs.info || fail "rotation: $(cat runs.txt)"
pass "rotation with balance $N: $(cat runs.info)"
