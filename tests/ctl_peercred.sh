#!/bin/sh
# The control socket checks its peer's uid (SO_PEERCRED), not only its own
# mode (tern(1), "Control socket"): with the socket's mode loosened by hand
# (0666) and its job directory open to all, another user's request is
# answered 403 naming its uid and changes nothing, while the crawl's own
# user (root here) is still answered.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/policy_lib.sh"
need_cmd dnsmasq curl setpriv
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: connecting as another user needs root" >&2
	exit 77
fi

tw_start --hosts 2 --pages 200 --links 4 --cross 0 --kb 1
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
sock=$job/control.sock
policy_crawl "$job" -s "$TW_DIR/seeds.txt" --set politeness.min-delay-ms=200
policy_wait_sock "$job"
[ "$(stat -c %a "$sock")" = 600 ] || fail "socket mode $(stat -c %a "$sock")"
chmod 0755 "$TW_DIR" "$job"
chmod 0666 "$sock"
# nobody's request, through a socket whose mode would let it in.
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	curl -s -w ' %{http_code}' -X POST --unix-socket "$sock" http://localhost/pause 2>&1)
case $out in
*"uid 65534 is not the crawl's user"*" 403") ;;
*) fail "another user's POST /pause: $out" ;;
esac
[ "$(policy_state "$job")" = RUNNING ] || fail "another user's pause was applied: $(policy_state "$job")"
pass "another user is refused (403, its uid named) even with the socket's mode loosened"
out=$(curl -s -w ' %{http_code}' --unix-socket "$sock" http://localhost/status)
case $out in *'"state": "RUNNING"'*" 200") ;; *) fail "root's GET /status: $out" ;; esac
pass "the crawl's own user is still answered"
"$TERN" ctl "$job" stop >/dev/null || fail "ctl stop"
policy_wait_exit 0
grep -q Sanitizer "$job.out" && fail "sanitizer report: $(grep -A5 Sanitizer "$job.out" | head -20)"
pass "the crawl stopped cleanly"
