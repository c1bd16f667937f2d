#!/bin/sh
# Heritrix's politeness arithmetic in a real crawl, with per-host settings
# from [override] sections: the wait after a fetch is delay-factor x the
# fetch's duration, at least min-delay-ms, capped by max-delay-ms. Every
# response of the test web takes 100 ms here, so with delay-factor 3:
#   h0 (max-delay-ms 150)   waits 150 ms: the cap wins
#   h1 (max-delay-ms 2000)  waits about 300 ms: delay-factor x duration
#   h2 (delay-factor 0, min-delay-ms 50) waits 50 ms: the floor
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq

tw_start --hosts 3 --pages 8 --links 3 --kb 1 --cross 0 --latency-ms 100-100
dns_start
cd "$TW_DIR" || fail "no work directory"
cat >polite.conf <<CONF
[politeness]
delay-factor = 3
min-delay-ms = 0
max-delay-ms = 150
respect-crawl-delay-up-to-seconds = 0

[override "test,web,h1,"]
politeness.max-delay-ms = 2000

[override "test,web,h2,"]
politeness.delay-factor = 0
politeness.min-delay-ms = 50
CONF
"$TERN" crawl -c polite.conf -j job -s seeds.txt --set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true >tern.out 2>&1 ||
	fail "tern crawl exited $?: $(cat tern.out)"
tw_stop

# gaps HOST: the gaps between one request's end and the next one's start.
gaps() {
	tw_gaps "$1" | cut -d' ' -f1 | sort -n
}
# check HOST MIN MAX: every gap at least MIN (20 ms of slack for the
# server's own stamping), and the median below MAX.
check() {
	gaps "$1" >"$1.gaps"
	n=$(wc -l <"$1.gaps")
	[ "$n" -ge 7 ] || fail "$1: only $n gaps"
	lo=$(head -1 "$1.gaps")
	med=$(sed -n "$(((n + 1) / 2))p" "$1.gaps")
	[ "$lo" -ge $(($2 - 20)) ] || fail "$1: gap of $lo ms, wanted at least $2: $(tr '\n' ' ' <"$1.gaps")"
	[ "$med" -lt "$3" ] || fail "$1: median gap $med ms, wanted under $3: $(tr '\n' ' ' <"$1.gaps")"
	echo "$1: gaps $lo..$(tail -1 "$1.gaps") ms, median $med"
}
check h0.web.test 150 280
check h1.web.test 300 600
check h2.web.test 50 140
pass "delay-factor, min-delay-ms and max-delay-ms per host"
