#!/bin/sh
# A full disk: the job's WARC directory is a small tmpfs, nearly full. The
# crawl must hold with a clear message in logs/tern.log and on stderr, write
# again once space is freed, and finish with nothing lost: every page
# requested, logged in crawl.log, and captured in the WARCs. The disk watch
# is off (crawl.pause-below-free-mb=0; tests/crawl/crawl_disk.sh tests it): this
# is the hold behind it, for a disk that fills faster than it looks. Needs
# root for mount (skipped otherwise).
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq mount umount

tw_start --hosts 4 --pages 60 --links 6 --kb 4 --latency-ms 5-20
dns_start
cd "$TW_DIR" || fail "no work directory"
job=$TW_DIR/job
log=$TW_DIR/requests.tsv
man=$TW_DIR/manifest.tsv
mkdir -p "$job/warcs"
if ! mount -t tmpfs -o size=2m tmpfs "$job/warcs" 2>mount.err; then
	echo "SKIP: cannot mount a tmpfs here: $(cat mount.err)" >&2
	exit 77
fi
on_cleanup "umount -l '$job/warcs' 2>/dev/null"
# Leave about 200 KiB: a few dozen pages' records fit, the crawl's do not.
avail=$(df -k --output=avail "$job/warcs" | tail -1 | tr -d ' ')
dd if=/dev/zero of="$job/warcs/filler" bs=1k count=$((avail - 200)) 2>/dev/null
[ "$(df -k --output=avail "$job/warcs" | tail -1 | tr -d ' ')" -lt 300 ] || fail "could not fill the tmpfs"

"$TERN" crawl -j "$job" -s "$TW_DIR/seeds.txt" \
	--set dns.servers="$DNS_SERVER" \
	--set fetch.allow-private-addresses=true \
	--set politeness.min-delay-ms=20 \
	--set politeness.delay-factor=0 \
	--set politeness.respect-crawl-delay-up-to-seconds=0 \
	--set crawl.max-hops=500 \
	--set crawl.max-connections=4 \
	--set crawl.pause-below-free-mb=0 >tern.out 2>tern.err &
pid=$!
track_pid $pid
_i=0
while ! grep -q "WARC write failed" "$job/logs/tern.log" 2>/dev/null; do
	kill -0 $pid 2>/dev/null || fail "the crawl ended without meeting the full disk: $(tail -3 tern.err)"
	[ $_i -lt 600 ] || fail "no disk-full message after 60 s"
	sleep 0.1
	_i=$((_i + 1))
done
grep -q "No space left on device" "$job/logs/tern.log" || fail "the message does not say why: $(grep 'WARC write failed' "$job/logs/tern.log" | head -1)"
grep -q "WARC write failed, crawl held" tern.err || fail "no disk-full message on stderr"
# Held: no page requests while the disk is full (in-flight ones may end).
sleep 2
held_at=$(wc -l <"$log")
sleep 1.5
[ "$(wc -l <"$log")" -eq "$held_at" ] || fail "the crawl kept fetching with a full disk"
kill -0 $pid 2>/dev/null || fail "tern exited on a full disk: $(tail -3 tern.err)"
"$TERN" ctl "$job" status >status.json || fail "ctl status while held"
grep -q '"reason": *"held: WARC write failed' status.json || fail "ctl status does not say why the crawl is held: $(cat status.json)"
rm -f "$job/warcs/filler"
wait $pid || fail "tern exited $? after space was freed: $(tail -5 tern.err)"
grep -q "WARC write succeeded again: the hold ends" "$job/logs/tern.log" || fail "the end of the hold is not in tern.log"
grep -q "Sanitizer" tern.err && fail "sanitizer report: $(grep -A20 Sanitizer tern.err | head -40)"
tw_stop

awk -F'\t' -v p="$TW_PORT" '$4 != "/robots.txt" { print "http://" $3 ":" p $4 }' "$log" | sort -u >requested.txt
awk -F'\t' '$2 == "allowed" { print $1 }' "$man" | sort >allowed.txt
missing=$(comm -23 allowed.txt requested.txt | wc -l)
[ "$missing" -eq 0 ] || fail "$missing pages never requested: $(comm -23 allowed.txt requested.txt | head -5)"
cl=$job/logs/crawl.log
awk '$4 !~ /^dns:/ && $4 !~ /\/robots\.txt$/ && $2 != -9998 { print $4 }' "$cl" | sort -u >logged.txt
[ "$(comm -23 allowed.txt logged.txt | wc -l)" -eq 0 ] || fail "pages missing from crawl.log: $(comm -23 allowed.txt logged.txt | head -5)"
warc_captured_uris "$job"/warcs/*.warc.gz "$job"/warcs/*.warc.gz.open >archived.txt
awk -F'\t' '$2 == "allowed" && $3 > 0 { print $1 }' "$man" | sort >answered.txt
unarchived=$(comm -23 answered.txt archived.txt | wc -l)
[ "$unarchived" -eq 0 ] || fail "$unarchived pages logged but without a WARC capture (lost while the disk was full): $(comm -23 answered.txt archived.txt | head -5)"
pass "held on a full disk, resumed after space was freed, $(wc -l <allowed.txt) pages with nothing lost"
