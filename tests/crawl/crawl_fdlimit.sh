#!/bin/sh
# Out of file descriptors: with `ulimit -n 64` and crawl.max-connections =
# 256, the crawl must still finish, every page fetched once. tern raises its
# soft limit to the hard one, keeps descriptors for the store, WARCs and
# logs, caps the connections to what remains and says so once in tern.log
# and on the terminal; a local EMFILE is never logged as the host's failure.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq timeout

tw_start --hosts 100 --pages 5 --links 4 --kb 1 --cross 0.3 --latency-ms 20-60
dns_start
cd "$TW_DIR" || fail "no work directory"
(
	ulimit -n 64 || exit 3
	exec timeout 120 "$TERN" crawl -j job -s seeds.txt --set dns.servers="$DNS_SERVER" \
		--set fetch.allow-private-addresses=true --set crawl.max-connections=256 \
		--set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
		--set politeness.respect-crawl-delay-up-to-seconds=0
) >tern.out 2>&1
rc=$?
[ $rc -ne 3 ] || fail "ulimit -n 64 refused"
[ $rc -ne 124 ] || fail "the crawl was still running after 120 s: $(tail -3 job/logs/tern.log)"
[ $rc -eq 0 ] || fail "tern crawl exited $rc: $(tail -5 tern.out)"
tw_stop
tw_check_once
n=$(grep -c 'crawl.max-connections 256 lowered to' job/logs/tern.log)
[ "$n" -eq 1 ] || fail "the connection cap is said $n times in tern.log: $(head -5 job/logs/tern.log)"
n=$(grep -c 'crawl.max-connections 256 lowered to' tern.out)
[ "$n" -eq 1 ] || fail "the connection cap is said $n times on the terminal: $(head -5 tern.out)"
! grep -q 'Too many open files' job/logs/tern.log || fail "descriptors ran out: $(grep -m3 'Too many open files' job/logs/tern.log)"
n=$(awk '$2 < 0 && $2 != -9998' job/logs/crawl.log | wc -l)
[ "$n" -eq 0 ] || fail "$n failures logged: $(awk '$2 < 0 && $2 != -9998' job/logs/crawl.log | head -3)"
pass "ulimit -n 64, max-connections 256: $(grep -o 'lowered to [0-9]*' tern.out); every page fetched once"
