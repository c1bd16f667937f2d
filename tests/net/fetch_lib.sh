# Helpers shared by the fetch engine's integration tests (tests/net/fetch_*.sh):
# the test web, dnsmasq, and short ways to run `tern fetch` and read its
# output. Sourced after tests/lib.sh.

DRIVER=${DRIVER:-$top_builddir/tests/net/fetch_driver}
[ -x "$TERN" ] || fail "tern not built: $TERN"
[ -x "$DRIVER" ] || fail "fetch driver not built: $DRIVER"

# fetch_run URL [--set K=V]...: runs tern fetch against the test DNS server,
# leaving its output in $OUT and its exit status in $RC.
fetch_run() {
	_u=$1
	shift
	OUT=$("$TERN" fetch --set "dns.servers=$DNS_SERVER" \
		--set fetch.allow-private-addresses=true "$@" "$_u" 2>&1)
	RC=$?
}

# field NAME: the value of the "NAME: value" line of $OUT.
field() {
	printf '%s\n' "$OUT" | tr -d '\r' | sed -n "s/^$1: //p" | head -n 1
}

# expect_status URL STATUS [ANNOTATION] [--set K=V]...: one fetch, checking
# the Heritrix status, the exit status and (if not "-") an annotation.
expect_status() {
	_eu=$1 _es=$2 _ea=$3
	shift 3
	fetch_run "$_eu" "$@"
	_got=$(field status | cut -d' ' -f1)
	[ "$_got" = "$_es" ] || fail "$_eu: status $_got, expected $_es
$OUT"
	if [ "$_es" -gt 0 ]; then _want_rc=0; else _want_rc=1; fi
	[ "$RC" = "$_want_rc" ] || fail "$_eu: exit $RC, expected $_want_rc"
	if [ "$_ea" != "-" ]; then
		field annotations | grep -qw "$_ea" || fail "$_eu: no $_ea annotation
$OUT"
	fi
	pass "$_eu -> $_es ${_ea#-}"
}

# now_ms: wall clock in milliseconds.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# conn_ids PATH...: the request log's connection ids for these paths, in order.
conn_ids() {
	sleep 1.2	# the test web flushes its request log every second
	for _p in "$@"; do
		awk -F'\t' -v p="$_p" '$4 == p { print $7 }' "$TW_DIR/requests.tsv" | tail -n 1
	done | tr '\n' ' '
}
