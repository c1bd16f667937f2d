#!/bin/sh
# The disk watch (crawl.pause-below-free-mb, crawl.resume-above-free-mb):
# the job directory is a small tmpfs.
#   low   free space falls below the low mark while the crawl runs: it
#         pauses itself and says so (terminal, tern.log, ctl status), fetches
#         nothing, refuses ctl unpause, stays paused between the marks (no
#         flapping), resumes itself above the high mark and finishes whole.
#   full  the watch off, the disk full under a page that spills (3 MB): the
#         spill file's ENOSPC pauses the crawl; the page is not fetched again
#         and again while the disk is full, but once after space is freed,
#         and is logged once, 200, with no attempt counted.
# Needs root (or sudo) for mount; skipped otherwise.
. "$top_srcdir/tests/lib.sh"
need_cmd python3 mount umount

tw_dir
cd "$TW_DIR" || fail "no work directory"
python3 "$top_srcdir/tests/crawl/hostile_server.py" "$TW_DIR/port" >server.log 2>server.err &
track_pid $!
i=0
while [ ! -s port ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -s port ] || fail "server did not start: $(cat server.err)"
PORT=$(cat port)

SUDO=
[ "$(id -u)" = 0 ] || SUDO="sudo -n"

# mount_small DIR MB: a tmpfs of MB MiB on DIR, owned by us.
mount_small() {
	mkdir -p "$1"
	if ! $SUDO mount -t tmpfs -o "size=$2m,uid=$(id -u),gid=$(id -g)" tmpfs "$1" 2>mount.err; then
		echo "SKIP: cannot mount a tmpfs here: $(cat mount.err)" >&2
		exit 77
	fi
	on_cleanup "$SUDO umount -l '$1' 2>/dev/null"
}

# fill DIR MB: leaves about MB MiB free on DIR's file system.
fill() {
	rm -f "$1/filler"
	_avail=$(df -m --output=avail "$1" | tail -n 1 | tr -d ' ')
	[ "$_avail" -gt "$2" ] || return 0
	dd if=/dev/zero of="$1/filler" bs=1M count=$((_avail - $2)) 2>/dev/null
}

# wait_for FILE ERE SECONDS WHAT
wait_for() {
	_i=0
	while ! grep -Eq "$2" "$1" 2>/dev/null; do
		kill -0 "$pid" 2>/dev/null || fail "$4: the crawl ended: $(tail -n 3 "$errf")"
		[ $_i -lt $(($3 * 10)) ] || fail "$4: nothing in $3 s"
		sleep 0.1
		_i=$((_i + 1))
	done
}

requests() {
	wc -l <server.log
}

# --- low: the watch pauses and resumes ---------------------------------
job=$TW_DIR/low
errf=$TW_DIR/low.err
mount_small "$job" 64
"$TERN" crawl -j "$job" --set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
	--set crawl.max-hops=500 --set crawl.pause-below-free-mb=16 --set crawl.resume-above-free-mb=32 \
	"http://127.0.0.1:$PORT/slow/0" >"$job.out" 2>"$job.err" &
pid=$!
track_pid $pid
wait_for "$job/logs/crawl.log" "/slow/10 " 30 "low: the crawl did not start"
fill "$job" 8
wait_for "$job/logs/tern.log" "disk low: [0-9]+ MiB free" 5 "low: no pause"
grep -q "disk low: .*below 16 MiB (crawl.pause-below-free-mb); paused until more than 32 MiB" "$job.err" ||
	fail "low: the terminal was not told: $(cat "$job.err")"
wait_for "$job/logs/tern.log" "state (RUNNING|PAUSING) -> PAUSED: disk low" 5 "low: not PAUSED"
"$TERN" ctl "$job" status >status.json || fail "low: ctl status"
grep -q '"state": *"PAUSED"' status.json && grep -q '"reason": *"disk low' status.json ||
	fail "low: ctl status does not say why: $(cat status.json)"
"$TERN" ctl "$job" unpause >unpause.out 2>&1 && fail "low: unpause accepted while the disk is low"
grep -q "disk space" unpause.out || fail "low: unpause refused without a reason: $(cat unpause.out)"
n0=$(requests)
sleep 2
[ "$(requests)" -eq "$n0" ] || fail "low: fetching went on while paused"
# Between the marks: still paused.
fill "$job" 24
sleep 2.5
grep -q "resumed" "$job/logs/tern.log" && fail "low: resumed below the high mark (flapping)"
[ "$(requests)" -eq "$n0" ] || fail "low: fetching between the marks"
rm -f "$job/filler"
wait_for "$job/logs/tern.log" "disk: [0-9]+ MiB free under .*, more than 32 MiB: resumed" 5 "low: no resume"
wait "$pid" || fail "low: exit $? after the resume: $(tail -n 5 "$job.err")"
grep -q Sanitizer "$job.err" && fail "low: sanitizer report: $(grep -A20 Sanitizer "$job.err" | head -40)"
for n in $(seq 0 100); do
	grep -q "/slow/$n " "$job/logs/crawl.log" || fail "low: /slow/$n never logged"
done
pass "low: paused at 8 MiB free, held between the marks, resumed above 32 MiB, 101 pages whole"

# --- full: ENOSPC on the spill file ---------------------------------------
# The job directory must be new or empty: the tmpfs holds it and the filler.
mount_small "$TW_DIR/fullfs" 16
job=$TW_DIR/fullfs/job
errf=$TW_DIR/full.err
fill "$TW_DIR/fullfs" 1
: >server.log
"$TERN" crawl -j "$job" --set politeness.min-delay-ms=0 --set politeness.delay-factor=0 \
	--set crawl.pause-below-free-mb=0 --set crawl.resume-above-free-mb=8 \
	"http://127.0.0.1:$PORT/big" >full.out 2>full.err &
pid=$!
track_pid $pid
wait_for "$job/logs/tern.log" "disk full: no space left for a spill file" 20 "full: no pause"
wait_for "$job/logs/tern.log" "PAUSED: disk full" 5 "full: not PAUSED"
sleep 2
n=$(grep -c '^http /big$' server.log)
[ "$n" -eq 1 ] || fail "full: /big asked $n times while the disk was full"
rm -f "$TW_DIR/fullfs/filler"
wait_for "$job/logs/tern.log" "resumed" 5 "full: no resume"
wait "$pid" || fail "full: exit $? after the resume: $(tail -n 5 full.err)"
grep -q Sanitizer full.err && fail "full: sanitizer report: $(grep -A20 Sanitizer full.err | head -40)"
[ "$(grep -c '^http /big$' server.log)" -eq 2 ] || fail "full: /big asked $(grep -c '^http /big$' server.log) times in all"
line=$(awk -v u="http://127.0.0.1:$PORT/big" '$4 == u' "$job/logs/crawl.log")
[ "$(printf '%s\n' "$line" | grep -c .)" -eq 1 ] || fail "full: /big logged other than once: $line"
printf '%s\n' "$line" | grep -Eq '^[^ ]+ +200 +[0-9]+ ' || fail "full: /big not 200: $line"
printf '%s\n' "$line" | grep -q ' [0-9]t' && fail "full: an attempt was counted for the disk: $line"
warc_captured_uris "$job"/warcs/*.warc.gz | grep -qx "http://127.0.0.1:$PORT/big" || fail "full: /big not in the WARCs"
pass "full: ENOSPC on the spill file paused the crawl; /big fetched once more after the pause, logged once"
