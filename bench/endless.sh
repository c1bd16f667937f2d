#!/bin/sh
# The frontier at scale: tern alone on an endless web served by Debian's
# nginx, where every page brings about 20 new URIs, stopped by
# crawl.max-pages at each of the given page counts, from an empty job each
# time.
#
#   bench/endless.sh [--hosts] [--warc] [--perf] [--memory-max SIZE] [--readahead KB] OUT.tsv PAGES...
#   bench/endless.sh --restart OUT.tsv PAGES...
#   bench/endless.sh --curve [--warc] OUT.tsv PAGES...
#
# The web (one nginx worker, one port, SSI): any path is a ~10 KB page that
# links to 20 new pages under its own path (PATH/0 .. PATH/19), to one other
# host named after its own host and path (page /3/7 of H links to
# http://7-3.H/, the root of H to http://r.H/), to /style.css and /img.png;
# robots.txt disallows every PATH/19. --hosts adds 10 links a page, each to
# a new host (http://nK-7-3.H/, K = 0..9). Names come from a dnsmasq with a
# wildcard address (address=/web.test/127.0.0.1); the seed is
# http://web.test:PORT/ and the crawl's scope is the seed's registered
# domain (crawl.scope=domain).
#
# tern runs with the matched settings of bench/run (TERN_MATCHED: no
# politeness delay, robots.txt obeyed), C=256, WARC off unless --warc. Per
# point one row is appended to OUT.tsv:
#   variant warc pages wall_s cpu_s rss_kb queued queues loop_cpu_s other_cpu_s exit
#   anon_kb cgroup_peak_kb
# pages: nginx's access log lines other than robots.txt; cpu_s: user+sys of
# the whole process (/usr/bin/time -v); loop_cpu_s: the main thread's
# user+sys (the libuv loop; /proc/PID/task/PID/stat sampled every 0.1 s up
# to the exit, so up to 0.1 s of the shutdown is missed), other_cpu_s: every
# other thread (LevelDB's compaction thread, libuv's pool) the same way.
# queued and queues come from the job's reports/stats.json at the end.
# anon_kb: the largest anonymous RSS (RssAnon of /proc/PID/status, sampled
# with the threads); cgroup_peak_kb: the memory cgroup's peak (0 without
# --memory-max), which counts the page cache of the job's files as well.
# --memory-max SIZE (e.g. 64M) runs tern in a memory cgroup of its own
# limited to SIZE, swap off (cgroup v2's memory.max, or v1's
# memory.limit_in_bytes; we run as root), and names the variant
# endless-SIZE; an OOM kill shows as exit 137 and in the printed line. The
# kernel reclaims the clean page cache of the job's files under the limit:
# what must fit is anonymous memory plus dirty pages.
# --readahead KB puts the job on a file system of its own, an ext4 on a
# loop device over a sparse file in TMPDIR, whose read-ahead is KB (the
# device's read_ahead_kb): LevelDB reads its tables through mmap, and a
# page fault on a table that is not cached reads the device's read-ahead
# around it, the whole 2 MiB table with this machine's 8 MiB; under a
# memory limit that is most of what the crawl reads. Linux's default is
# 128. The file system is unmounted and the device freed at the end.
# ENDLESS_REPORTS=DIR keeps each run's reports/frontier-summary.txt there as
# frontier-VARIANT-PAGES.txt, and its memory samples (seconds, RssAnon and
# RssFile in KB, the cgroup's usage in KB) as mem-VARIANT-PAGES.tsv.
# --perf records the whole process with call graphs (perf record -g, or
# ENDLESS_PERF_ARGS, e.g. "--call-graph dwarf -F 250") into
# OUT.tsv's directory as perf-VARIANT-PAGES.data.
#
# --restart measures a restart at scale instead: a crawl with WARC on is
# killed (SIGKILL) once nginx has answered PAGES requests, then
# `tern resume` is started, and the row is
#   restart pages_at_kill queued_at_kill warc_bytes_open seconds_to_first_fetch
# (queued from `tern report JOB frontier` between the kill and the
# resume; the first fetch is the first line crawl.log gets after the
# resume started).
#
# --curve runs ONE crawl through every point instead of one from an empty
# job per point, for frontiers too large to crawl five times (100M queued
# URIs is 5M pages). Every second the crawl's counts (`tern ctl JOB
# status`), the threads' CPU, the anonymous and peak RSS, and the bytes of
# JOBDIR/state and JOBDIR/warcs are sampled into OUT-samples.tsv:
#   seconds downloaded queued queues loop_cpu_s other_cpu_s anon_kb hwm_kb
#   state_bytes warc_bytes checkpoint_ms
# At the first sample past each point a checkpoint is asked for
# (`tern ctl JOB checkpoint`; its duration, the loop's stall, from
# tern.log; the previous checkpoint is removed so the store's disk use
# stays the crawl's own) and a row in the format above goes to OUT.tsv,
# variant endless-curve, so bench/endless.awk gives the marginal CPU per
# page between points (whole-run CPU from /proc, not /usr/bin/time; rss_kb
# is the peak so far). After the last point the crawl is killed (SIGKILL),
# `tern resume` is timed to its first fetch as --restart does (a restart
# row), and the resumed crawl is stopped, after ENDLESS_AFTER seconds if
# set, sampled every second into OUT-after.tsv:
#   seconds downloaded loop_cpu_s other_cpu_s
# (seconds since the resume's first fetch; downloaded counts the pages of
# the whole crawl, the resumed process's CPU only).
# ENDLESS_SET adds settings (e.g. "--set storage.write-buffer-mb=32").
# ENDLESS_PRELOAD preloads a library into the crawl (not the resume of
# --restart or --curve): bench/kinds.sh's bench/kindsplit.so.
# TERN names the program (default build/bench/src/tern: an -O2 build
# without sanitizers, as bench/run makes). The marginal CPU per page is
# bench/endless.awk's business. Needs nginx, dnsmasq and
# /usr/bin/time (scripts/deps --bench).
cd "$(dirname "$0")/.."
top=$(pwd)
hosts=0 warc=false perf=0 restart=0 curve=0 memmax="" readahead=""
usage="usage: bench/endless.sh [--curve] [--hosts] [--warc] [--perf] [--memory-max SIZE] [--readahead KB] OUT.tsv PAGES..."
while [ $# -gt 0 ]; do
	case $1 in
	--restart) restart=1 warc=true ;;
	--curve) curve=1 ;;
	--memory-max)
		[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
		memmax=$2
		shift
		;;
	--readahead)
		[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
		readahead=$2
		shift
		;;
	--hosts) hosts=1 ;;
	--warc) warc=true ;;
	--perf) perf=1 ;;
	-*) echo "$usage" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
out=$1
shift
case $out in /*) ;; *) out=$top/$out ;; esac
TERN=${TERN:-$top/build/bench/src/tern}
[ -x "$TERN" ] || { echo "bench/endless.sh: $TERN missing (make -C build/bench src/tern)" >&2; exit 1; }
for c in nginx dnsmasq; do
	command -v $c >/dev/null 2>&1 || { echo "bench/endless.sh: $c missing (scripts/deps --bench)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench/endless.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
[ $perf -eq 0 ] || command -v perf >/dev/null 2>&1 || { echo "bench/endless.sh: perf missing (scripts/deps --bench)" >&2; exit 1; }
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

top_srcdir=$top
. "$top/tests/lib.sh"
tw_dir
W=$TW_DIR
variant=endless
[ $hosts -eq 1 ] && variant=endless-hosts

# The memory cgroup of --memory-max: one for the whole run, emptied and
# its peak reset (v1) or made anew (v2) for each point.
cg="" cgkind=""
cg_make() {
	if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
		grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
			echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
		cg=/sys/fs/cgroup/tern-endless-$$-$1 cgkind=v2
		mkdir "$cg" || fail "cannot create the memory cgroup $cg"
		echo "$memmax" >"$cg/memory.max" || fail "$cg: cannot set memory.max to $memmax"
		echo 0 >"$cg/memory.swap.max" 2>/dev/null
	elif [ -d /sys/fs/cgroup/memory ]; then
		cg=/sys/fs/cgroup/memory/tern-endless-$$-$1 cgkind=v1
		mkdir "$cg" || fail "cannot create the memory cgroup $cg"
		echo "$memmax" >"$cg/memory.limit_in_bytes" || fail "$cg: cannot set memory.limit_in_bytes to $memmax"
		echo 0 >"$cg/memory.swappiness" 2>/dev/null
	else
		fail "--memory-max: no memory cgroup (neither v2 with the memory controller nor v1)"
	fi
	on_cleanup "rmdir $cg 2>/dev/null"
}
cg_peak_kb() {
	if [ $cgkind = v2 ]; then
		awk '{ printf "%d", $1 / 1024 }' "$cg/memory.peak" 2>/dev/null || echo 0
	else
		awk '{ printf "%d", $1 / 1024 }' "$cg/memory.max_usage_in_bytes"
	fi
}
cg_ooms() {
	if [ $cgkind = v2 ]; then
		sed -n 's/^oom_kill //p' "$cg/memory.events"
	else
		sed -n 's/^oom_kill //p' "$cg/memory.oom_control"
	fi
}
[ -n "$memmax" ] && variant=$variant-$memmax
[ -n "$readahead" ] && variant=$variant-ra$readahead
# Runs its arguments in the cgroup, if any: the shell joins it, then
# becomes the command, so everything it starts is charged to the cgroup.
in_cg() {
	if [ -n "$cg" ]; then
		sh -c 'echo $$ >"$0" && exec "$@"' "$cg/cgroup.procs" "$@"
	else
		"$@"
	fi
}

# dnsmasq: every name under web.test is 127.0.0.1.
try=0
while :; do
	try=$((try + 1))
	[ $try -le 20 ] || fail "dnsmasq: no free port after 20 tries"
	DNS_PORT=$(_lib_random_port)
	rm -f "$W/dnsmasq.log"
	dnsmasq --keep-in-foreground --no-resolv --no-hosts -C /dev/null \
		--address=/web.test/127.0.0.1 --local=/#/ --bind-interfaces \
		--listen-address=127.0.0.1 --port="$DNS_PORT" --cache-size=10000 --dns-forward-max=1000 \
		--user="$(id -un)" --log-facility="$W/dnsmasq.log" >"$W/dnsmasq.out" 2>&1 &
	DNS_PID=$!
	i=0
	while [ $i -lt 50 ] && kill -0 $DNS_PID 2>/dev/null && ! grep -q "started" "$W/dnsmasq.log" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $DNS_PID 2>/dev/null && grep -q "started" "$W/dnsmasq.log" 2>/dev/null; then
		track_pid $DNS_PID
		break
	fi
	stop_pid $DNS_PID
done

# The web: one template page, the style sheet, the image, robots.txt.
mkdir -p "$W/web" "$W/nginx"
pad=$(awk 'BEGIN { for (i = 0; i < 150; i++) printf "lorem ipsum dolor sit amet %d, consectetur adipiscing elit. ", i }')
{
	echo '<!DOCTYPE html><html><head><title>page <!--# echo var="request_uri" --></title>'
	echo '<link rel="stylesheet" href="/style.css"></head><body>'
	echo '<h1><!--# echo var="host" --><!--# echo var="request_uri" --></h1><img src="/img.png" alt="">'
	k=0
	while [ $k -lt 20 ]; do
		echo "<p><a href=\"<!--# echo var=\"base\" -->/$k\">page $k</a></p>"
		k=$((k + 1))
	done
	echo '<p><a href="http://<!--# echo var="label" -->.<!--# echo var="host" -->:<!--# echo var="server_port" -->/">next host</a></p>'
	if [ $hosts -eq 1 ]; then
		k=0
		while [ $k -lt 10 ]; do
			echo "<p><a href=\"http://n$k-<!--# echo var=\"label\" -->.<!--# echo var=\"host\" -->:<!--# echo var=\"server_port\" -->/\">host $k</a></p>"
			k=$((k + 1))
		done
	fi
	echo "<p>$pad</p></body></html>"
} >"$W/web/page.html"
printf 'body { font-family: sans-serif; }\n' >"$W/web/style.css"
printf '\211PNG\r\n\032\n' >"$W/web/img.png"
printf 'User-agent: *\nDisallow: /19\nDisallow: /*/19\n' >"$W/web/robots.txt"

# The other host's first label: the path's segments, last first, joined
# by '-' (so /3/7 and the /7 of host 3.H name different hosts).
map_label() {
	echo "	map \$request_uri \$label {"
	echo "		/ r;"
	d=1
	while [ $d -le 12 ]; do
		re="" rep=""
		i=1
		while [ $i -le $d ]; do
			re="$re/([0-9]+)"
			rep="\$$i${rep:+-}$rep"
			i=$((i + 1))
		done
		echo "		~^$re\$ $rep;"
		d=$((d + 1))
	done
	echo "		default deep;"
	echo "	}"
}

port_try=0
while :; do
	port_try=$((port_try + 1))
	[ $port_try -le 20 ] || fail "nginx: no free port after 20 tries"
	PORT=$(_lib_random_port)
	# Another server on that port would answer the checks below.
	ss -ltnH 2>/dev/null | awk -v p="$PORT" '{ q = $4; sub(/.*:/, "", q); if (q == p) f = 1 } END { exit !f }' && continue
	{
		echo "daemon off;"
		echo "worker_processes 1;"
		echo "user $(id -un) $(id -gn);"
		echo "pid $W/nginx/nginx.pid;"
		echo "error_log $W/nginx/error.log warn;"
		echo "events { worker_connections 8192; }"
		echo "http {"
		echo "	types { text/html html; text/css css; image/png png; text/plain txt; }"
		echo "	default_type application/octet-stream;"
		echo "	sendfile on; tcp_nopush on; tcp_nodelay on; keepalive_timeout 65s; keepalive_requests 100000;"
		echo "	log_format tsv '\$msec\t\$msec\t\$host\t\$request_uri\t\$status\t\$body_bytes_sent\t\$connection';"
		echo "	access_log $W/nginx/access.tsv tsv buffer=256k flush=1s;"
		echo "	map \$request_uri \$base { / \"\"; default \$request_uri; }"
		map_label
		echo "	server {"
		echo "		listen 127.0.0.1:$PORT default_server;"
		echo "		root $W/web;"
		echo "		location = /robots.txt { }"
		echo "		location = /style.css { }"
		echo "		location = /img.png { }"
		echo "		location / { ssi on; default_type text/html; rewrite ^ /page.html break; }"
		echo "	}"
		echo "}"
	} >"$W/nginx/nginx.conf"
	: >"$W/nginx/access.tsv"
	nginx -p "$W/nginx" -c "$W/nginx/nginx.conf" -e "$W/nginx/error.log" >"$W/nginx/out.txt" 2>&1 &
	NGX_PID=$!
	i=0
	while [ $i -lt 50 ] && kill -0 $NGX_PID 2>/dev/null && ! curl -s -o /dev/null "http://127.0.0.1:$PORT/robots.txt"; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.2
	if kill -0 $NGX_PID 2>/dev/null &&
		curl -s -H "Host: 3.web.test" "http://127.0.0.1:$PORT/3/7" | grep -q 'href="http://7-3.3.web.test:'; then
		track_pid $NGX_PID
		break
	fi
	stop_pid $NGX_PID
done
echo "http://web.test:$PORT/" >"$W/seeds.txt"
. "$top/bench/nginx.sh"

JOB=$W/job
if [ -n "$readahead" ]; then
	command -v losetup >/dev/null 2>&1 && command -v mkfs.ext4 >/dev/null 2>&1 ||
		fail "--readahead: losetup and mkfs.ext4 needed (util-linux, e2fsprogs)"
	truncate -s 16G "$W/disk.img" || fail "--readahead: cannot make $W/disk.img"
	loopdev=$(losetup -f --show "$W/disk.img") || fail "--readahead: no loop device"
	on_cleanup "umount $W/disk 2>/dev/null; losetup -d $loopdev 2>/dev/null"
	mkfs.ext4 -q -F "$loopdev" || fail "--readahead: mkfs.ext4 $loopdev failed"
	mkdir -p "$W/disk"
	mount "$loopdev" "$W/disk" || fail "--readahead: cannot mount $loopdev"
	echo "$readahead" >"/sys/block/${loopdev#/dev/}/queue/read_ahead_kb" ||
		fail "--readahead: cannot set the read-ahead of $loopdev"
	JOB=$W/disk/job
fi
# The CPU seconds of process $1's loop thread and of its other threads,
# from /proc, into $loop and $other.
proc_cpu() {
	loop=$(awk -v hz="$hz" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' /proc/$1/task/$1/stat)
	other=$(for t in /proc/$1/task/*; do
		[ "${t##*/}" = "$1" ] || awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "$t/stat" 2>/dev/null
	done | awk -v hz="$hz" '{ s += $1 } END { printf "%.2f", s / hz }')
}
# Seconds to the first crawl.log line a `tern resume` of $JOB writes; the
# resumed crawl is left running (its pid in $rp).
time_resume() {
	lines0=$(wc -l <"$JOB/logs/crawl.log")
	t0=$(date +%s.%N)
	"$TERN" resume "$JOB" >"$W/resume.txt" 2>&1 &
	rp=$!
	# nginx flushes its log every second: ask tern's own crawl.log
	# for the first fetch after the resume instead.
	t1=""
	while kill -0 $rp 2>/dev/null; do
		if [ "$(wc -l <"$JOB/logs/crawl.log")" -gt "$lines0" ]; then
			t1=$(date +%s.%N)
			break
		fi
		sleep 0.01
	done
	secs=$(awk -v a="$t0" -v b="${t1:-$t0}" 'BEGIN { printf "%.2f", b - a }')
	[ -n "$t1" ] || secs=-1
}
if [ $restart -eq 1 ]; then
	for pages in "$@"; do
		rm -rf "$JOB"
		: >"$W/nginx/access.tsv"
		kill -USR1 "$NGX_PID"
		sleep 0.2
		# shellcheck disable=SC2086
		"$TERN" crawl -j "$JOB" -s "$W/seeds.txt" --set dns.servers="127.0.0.1:$DNS_PORT" \
			$TERN_MATCHED --set crawl.scope=domain --set crawl.max-connections=256 \
			--set warc.enabled=true ${ENDLESS_SET:-} \
			>"$W/out.txt" 2>&1 &
		tp=$!
		while kill -0 $tp 2>/dev/null && [ "$(wc -l <"$W/nginx/access.tsv")" -lt "$pages" ]; do
			sleep 0.2
		done
		kill -KILL $tp 2>/dev/null
		wait $tp 2>/dev/null
		sleep 1.2 # nginx's log buffer
		got=$(wc -l <"$W/nginx/access.tsv")
		queued=$("$TERN" report "$JOB" frontier --json 2>/dev/null | sed -n 's/.*"queued": \([0-9]*\).*/\1/p' | head -1)
		open=$(cat "$JOB"/warcs/*.open 2>/dev/null | wc -c)
		: >"$W/nginx/access.tsv"
		kill -USR1 "$NGX_PID"
		sleep 0.2
		time_resume
		stop_pid $rp
		printf 'restart\t%s\t%s\t%s\t%s\n' "$got" "${queued:-0}" "$open" "$secs" >>"$out"
		printf '  restart: killed at %s requests, %s queued, open WARC %s bytes: first fetch %s s after resume\n' \
			"$got" "$queued" "$open" "$secs"
		grep "WARC recovery" "$JOB/logs/tern.log" | tail -2 | sed 's/^/    /'
		rm -rf "$JOB"
	done
	exit 0
fi
if [ $curve -eq 1 ]; then
	samples=${out%.tsv}-samples.tsv
	rm -rf "$JOB"
	: >"$W/nginx/access.tsv"
	kill -USR1 "$NGX_PID"
	sleep 0.2
	# shellcheck disable=SC2086
	${ENDLESS_PRELOAD:+env LD_PRELOAD=$ENDLESS_PRELOAD} "$TERN" crawl -j "$JOB" -s "$W/seeds.txt" \
		--set dns.servers="127.0.0.1:$DNS_PORT" $TERN_MATCHED \
		--set crawl.scope=domain --set crawl.max-connections=256 --set warc.enabled=$warc \
		${ENDLESS_SET:-} >"$W/out.txt" 2>&1 &
	tp=$!
	hz=$(getconf CLK_TCK)
	t0=$(date +%s%N)
	cp_prev="" rc=0
	printf 'seconds\tdownloaded\tqueued\tqueues\tloop_cpu_s\tother_cpu_s\tanon_kb\thwm_kb\tstate_bytes\twarc_bytes\tcheckpoint_ms\n' >>"$samples"
	for pages in "$@"; do
		while :; do
			kill -0 $tp 2>/dev/null || { rc=1; break 2; }
			sleep 1
			"$TERN" ctl "$JOB" status >"$W/status.json" 2>/dev/null || continue
			proc_cpu $tp
			mem=$(awk '/^RssAnon/ { a = $2 } /^VmHWM/ { h = $2 } END { print a "\t" h }' /proc/$tp/status)
			sb=$(du -sb "$JOB/state" | cut -f1)
			wb=$(du -sb "$JOB/warcs" 2>/dev/null | cut -f1)
			dl=$(sed -n 's/^  "pages": \([0-9]*\).*/\1/p' "$W/status.json")
			q=$(sed -n 's/^ *"queued": \([0-9]*\).*/\1/p' "$W/status.json")
			qs=$(sed -n 's/^ *"total": \([0-9]*\).*/\1/p' "$W/status.json" | head -n 1)
			cpms=""
			if [ "$dl" -ge "$pages" ]; then
				"$TERN" ctl "$JOB" checkpoint >/dev/null 2>&1
				cpms=$(sed -n 's/.*checkpoint \([^ ]*\) in \([0-9.]*\) ms.*/\1 \2/p' "$JOB/logs/tern.log" | tail -n 1)
				[ -n "$cp_prev" ] && [ "$cp_prev" != "${cpms%% *}" ] && rm -rf "$JOB/checkpoints/$cp_prev"
				cp_prev=${cpms%% *}
				cpms=${cpms##* }
			fi
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(awk -v t=$(($(date +%s%N) - t0)) 'BEGIN { printf "%.1f", t / 1e9 }')" "$dl" "$q" "$qs" \
				"$loop" "$other" "$mem" "$sb" "${wb:-0}	${cpms:--}" >>"$samples"
			if [ "$dl" -ge "$pages" ]; then
				wall=$(awk -v t=$(($(date +%s%N) - t0)) 'BEGIN { printf "%.1f", t / 1e9 }')
				cpu=$(awk -v a="$loop" -v b="$other" 'BEGIN { printf "%.2f", a + b }')
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t0\t%s\t0\n' "endless-curve" "$warc" "$dl" "$wall" \
					"$cpu" "${mem##*	}" "$q" "$qs" "$loop" "$other" "${mem%%	*}" >>"$out"
				printf '  curve warc=%s %s pages %s queued %s s: cpu %s s (loop %s), anon %s KB, peak %s KB, state %s B, warcs %s B, checkpoint %s ms\n' \
					"$warc" "$dl" "$q" "$wall" "$cpu" "$loop" "${mem%%	*}" "${mem##*	}" "$sb" "${wb:-0}" "$cpms"
				break
			fi
		done
	done
	[ $rc -eq 0 ] || { tail -5 "$W/out.txt"; fail "the crawl ended before the last point"; }
	kill -KILL $tp 2>/dev/null
	wait $tp 2>/dev/null
	queued=$("$TERN" report "$JOB" frontier --json 2>/dev/null | sed -n 's/.*"queued": \([0-9]*\).*/\1/p' | head -1)
	open=$(cat "$JOB"/warcs/*.open 2>/dev/null | wc -c)
	time_resume
	printf 'restart\t%s\t%s\t%s\t%s\n' "$dl" "${queued:-0}" "$open" "$secs" >>"$out"
	printf '  restart: killed at %s pages, %s queued, open WARC %s bytes: first fetch %s s after resume\n' \
		"$dl" "$queued" "$open" "$secs"
	grep "WARC recovery" "$JOB/logs/tern.log" | tail -2 | sed 's/^/    /'
	# The resumed crawl's first minutes: until the store's seen and queue
	# keys are all read again it holds more URIs for the store.
	if [ -n "${ENDLESS_AFTER:-}" ]; then
		after=${out%.tsv}-after.tsv
		printf 'seconds\tdownloaded\tloop_cpu_s\tother_cpu_s\n' >>"$after"
		t0=$(date +%s%N)
		while kill -0 $rp 2>/dev/null; do
			el=$(awk -v t=$(($(date +%s%N) - t0)) 'BEGIN { printf "%.1f", t / 1e9 }')
			awk -v e="$el" -v m="$ENDLESS_AFTER" 'BEGIN { exit !(e >= m) }' && break
			sleep 1
			"$TERN" ctl "$JOB" status >"$W/status.json" 2>/dev/null || continue
			proc_cpu $rp
			dl=$(sed -n 's/^  "pages": \([0-9]*\).*/\1/p' "$W/status.json")
			printf '%s\t%s\t%s\t%s\n' "$(awk -v t=$(($(date +%s%N) - t0)) 'BEGIN { printf "%.1f", t / 1e9 }')" \
				"$dl" "$loop" "$other" >>"$after"
		done
	fi
	"$TERN" ctl "$JOB" stop >/dev/null 2>&1
	i=0
	while kill -0 $rp 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	stop_pid $rp
	[ -n "${KEEP_JOB:-}" ] || rm -rf "$JOB"
	exit 0
fi
for pages in "$@"; do
	rm -rf "$JOB"
	: >"$W/nginx/access.tsv"
	kill -USR1 "$NGX_PID" # reopen the log
	sleep 0.2
	pre=""
	[ $perf -eq 1 ] && pre="perf record ${ENDLESS_PERF_ARGS:--g} -o $(dirname "$out")/perf-$variant-$pages.data --"
	[ -n "$memmax" ] && cg_make "$pages"
	# shellcheck disable=SC2086
	in_cg $pre /usr/bin/time -v -o "$W/time.txt" ${ENDLESS_PRELOAD:+env LD_PRELOAD=$ENDLESS_PRELOAD} "$TERN" crawl -j "$JOB" -s "$W/seeds.txt" \
		--set dns.servers="127.0.0.1:$DNS_PORT" $TERN_MATCHED \
		--set crawl.scope=domain --set crawl.max-connections=256 --set warc.enabled=$warc \
		--set crawl.max-pages="$pages" ${ENDLESS_SET:-} >"$W/out.txt" 2>&1 &
	bg=$!
	# The crawler's pid: time's child (or perf's grandchild).
	tp=""
	i=0
	while [ -z "$tp" ] && [ $i -lt 100 ]; do
		tp=$(pgrep -n -f "^$TERN crawl -j $JOB" 2>/dev/null)
		[ -n "$tp" ] || sleep 0.05
		i=$((i + 1))
	done
	: >"$W/threads.txt"
	: >"$W/mem.tsv"
	t0=$(date +%s%N)
	while kill -0 "$tp" 2>/dev/null; do
		# Per thread: tid user+sys ticks; the last complete sample wins.
		for t in /proc/"$tp"/task/*; do
			awk -v t="${t##*/}" '{ sub(/^.*\) /, ""); print t, $12 + $13 }' "$t/stat" 2>/dev/null
		done >"$W/threads.new"
		[ -s "$W/threads.new" ] && mv "$W/threads.new" "$W/threads.txt"
		# Memory: seconds, RssAnon and RssFile in KB, the cgroup's
		# usage in KB.
		awk -v t=$(($(date +%s%N) - t0)) -v u="$( [ -n "$cg" ] && cat "$cg/memory.current" "$cg/memory.usage_in_bytes" 2>/dev/null)" \
			'/^RssAnon/ { a = $2 } /^RssFile/ { f = $2 } END { if (a != "") printf "%.1f\t%d\t%d\t%d\n", t / 1e9, a, f, u / 1024 }' \
			/proc/"$tp"/status >>"$W/mem.tsv" 2>/dev/null
		sleep 0.1
	done
	wait $bg
	rc=$?
	sleep 1.2 # nginx's log buffer
	got=$(awk -F'\t' '$4 != "/robots.txt"' "$W/nginx/access.tsv" | wc -l)
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$W/time.txt")
	cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$W/time.txt")
	rss=$(awk -F': ' '/Maximum resident/ { print $2 }' "$W/time.txt")
	hz=$(getconf CLK_TCK)
	loop=$(awk -v p="$tp" -v hz="$hz" '$1 == p { printf "%.2f", $2 / hz }' "$W/threads.txt")
	other=$(awk -v p="$tp" -v hz="$hz" '$1 != p { s += $2 } END { printf "%.2f", s / hz }' "$W/threads.txt")
	queued=$(sed -n 's/.*"queued": \([0-9]*\).*/\1/p' "$JOB/reports/stats.json" 2>/dev/null | head -1)
	# "queues": N, or (since the frontier's counts became one object)
	# "queues": { "total": N, ... }.
	queues=$(sed -n 's/.*"queues": \([0-9][0-9]*\).*/\1/p; s/.*"total": \([0-9][0-9]*\).*/\1/p' \
		"$JOB/reports/stats.json" 2>/dev/null | head -1)
	anon=$(awk -F'\t' '$2 > m { m = $2 } END { print m + 0 }' "$W/mem.tsv")
	cgpeak=0 cgnote=""
	if [ -n "$cg" ]; then
		cgpeak=$(cg_peak_kb)
		cgnote="  cgroup $memmax: peak $cgpeak KB, OOM kills $(cg_ooms)"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$variant" "$warc" "$got" "$wall" "$cpu" "$rss" \
		"${queued:-0}" "${queues:-0}" "${loop:-0}" "${other:-0}" "$rc" "$anon" "$cgpeak" >>"$out"
	printf '  %s warc=%s %7s pages  %6.1f s  %6.0f pages/s  cpu %6.2f s (loop %s, other threads %s)  rss %6s KB (anon %s)  queued %s  queues %s  exit %s%s\n' \
		"$variant" "$warc" "$got" "$wall" "$(awk -v p="$got" -v w="$wall" 'BEGIN { print (w > 0 ? p / w : 0) }')" \
		"$cpu" "$loop" "$other" "$rss" "$anon" "$queued" "$queues" "$rc" "$cgnote"
	[ "$rc" -eq 0 ] || tail -5 "$W/out.txt"
	if [ -n "${ENDLESS_REPORTS:-}" ]; then
		mkdir -p "$ENDLESS_REPORTS"
		cp "$JOB/reports/frontier-summary.txt" "$ENDLESS_REPORTS/frontier-$variant-$pages.txt" 2>/dev/null
		cp "$W/mem.tsv" "$ENDLESS_REPORTS/mem-$variant-$pages.tsv"
	fi
	if [ -n "$cg" ]; then
		rmdir "$cg" 2>/dev/null
		cg=""
	fi
	[ -n "$KEEP_JOB" ] && cp -r "$JOB" "$KEEP_JOB-$pages"
	rm -rf "$JOB"
done
