#!/bin/sh
# What WARCs cost: the nginx workload of bench/run (200 hosts x 200 pages of
# ~14 KB, gzip off, C=64, the matched settings) crawled by tern without and
# with WARCs, and by wget2 saving its files, repetitions interleaved so that
# drift in the machine's speed cancels.
#
#   bench/warccost.sh [HOSTS PAGES [REPS]]       defaults 200 200 3
#   TERNS="new=build/bench/src/tern old=/tmp/old/src/tern" bench/warccost.sh
#
# TERNS names one or more tern binaries (NAME=PATH; default: build/bench's,
# built here) so that two builds compare in the same run. Each run is
# wrapped in bench/threadcpu.py: wall seconds, CPU seconds of the whole
# process and of its main thread alone (tern's loop: what the WARC pool
# takes off it), peak RSS. Pages are nginx's access-log lines (robots.txt
# excluded); WARC bytes are the size of JOBDIR/warcs. Rows go to
# bench/results/warccost.tsv, medians and ratios to bench/results/warccost.md.
cd "$(dirname "$0")/.."
top=$(pwd)
hosts=${1:-200}
pages=${2:-200}
reps=${3:-3}
for c in wget2 nginx curl ss python3; do
	command -v $c >/dev/null 2>&1 || { echo "bench/warccost.sh: $c missing (scripts/deps --bench)" >&2; exit 1; }
done
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
bdir=${BENCH_BUILD:-$top/build/bench}
mkdir -p "$bdir"
[ -x configure ] || autoreconf -fi || exit 1
if [ ! -f "$bdir/Makefile" ]; then
	(cd "$bdir" && "$top/configure" -q CFLAGS="-O2 -g") || exit 1
fi
make -C "$bdir" -j"$(nproc)" src/tern tests/testweb/testweb >"$bdir/make.out" 2>&1 ||
	{ tail -30 "$bdir/make.out"; exit 1; }
top_srcdir=$top
top_builddir=$bdir
TERNS=${TERNS:-tern=$bdir/src/tern}
. "$top/tests/lib.sh"
. "$top/bench/nginx.sh"
tw_dir
W=$TW_DIR
RES=$top/bench/results
mkdir -p "$RES"
ROWS=$RES/warccost.tsv
printf 'tool\trep\tpages\twall_s\tcpu_s\tloop_cpu_s\trss_kb\twarc_bytes\texit\n' >"$ROWS"

echo "bench: writing the nginx web: $hosts hosts x $pages pages (work directory $W)"
ngx_web "$W/ngx" "$hosts" "$pages" 14 20
ngx_start "$W/ngx" off
echo "bench: $(nproc) processors, load $(cut -d' ' -f1-3 /proc/loadavg), nginx on $NGX_BASE.."

# run TOOL REP CMD...: one row.
run() {
	r_tool=$1 r_rep=$2
	shift 2
	sync
	r_before=$(wc -l <"$NGX_LOG")
	python3 "$top/bench/threadcpu.py" "$@" >"$W/out.txt" 2>"$W/err.txt"
	sleep 0.2
	r_after=$(wc -l <"$NGX_LOG")
	r_pages=$(tail -n +$((r_before + 1)) "$NGX_LOG" | head -n $((r_after - r_before)) |
		awk -F'\t' '$4 != "/robots.txt"' | wc -l)
	r_warc=0
	[ -d "$W/job/warcs" ] && r_warc=$(cat "$W/job/warcs/"* 2>/dev/null | wc -c)
	set -- $(grep '^threadcpu:' "$W/err.txt" | tail -1)
	[ $# -eq 6 ] || { tail -5 "$W/err.txt"; fail "$r_tool: no figures"; }
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r_tool" "$r_rep" "$r_pages" "$2" "$3" "$4" "$5" \
		"$r_warc" "$6" >>"$ROWS"
	printf '  %-14s rep %s: %6s pages %6.2f s %6.0f pages/s cpu %5.2f s loop %5.2f s rss %6s KB warc %s\n' \
		"$r_tool" "$r_rep" "$r_pages" "$2" "$(awk -v p="$r_pages" -v w="$2" 'BEGIN { print p / w }')" \
		"$3" "$4" "$5" "$r_warc"
	rm -rf "$W/job" "$W/wget2"
}

# shellcheck disable=SC2086
tern_run() { # NAME PATH WARC REP
	run "$1$( [ "$3" = true ] && echo +warc)" "$4" "$2" crawl -j "$W/job" -s "$W/ngx/seeds.txt" \
		$TERN_MATCHED --set crawl.max-connections=64 --set warc.enabled="$3"
}

i=1
while [ $i -le "$reps" ]; do
	for t in $TERNS; do
		tern_run "${t%%=*}" "${t#*=}" false $i
		tern_run "${t%%=*}" "${t#*=}" true $i
	done
	mkdir -p "$W/wget2"
	run wget2 $i sh -c 'cd "$0" && exec "$@"' "$W/wget2" wget2 -q -r -l0 --span-hosts --robots=on \
		--max-threads=64 --tries=1 -i "$W/ngx/seeds.txt"
	i=$((i + 1))
done
ngx_stop

# Medians per tool, then ratios against wget2 and between each tern's runs.
awk -F'\t' -v ldavg="$(cut -d' ' -f1-3 /proc/loadavg)" -v nproc="$(nproc)" '
function median(s,    n, a, i, j, t) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR > 1 {
	if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
	pps[$1] = pps[$1] " " $3 / $4
	cpu[$1] = cpu[$1] " " 1000 * $5 / $3
	loop[$1] = loop[$1] " " 1000 * $6 / $3
	rss[$1] = rss[$1] " " $7 / 1024
	wb[$1] = wb[$1] " " $8 / $3
}
END {
	printf "| tool | pages/s | CPU ms a page | loop thread CPU ms a page | peak RSS MB | WARC bytes a page |\n"
	printf "|---|---|---|---|---|---|\n"
	for (i = 1; i <= n; i++) {
		t = order[i]
		m[t] = median(pps[t]); c[t] = median(cpu[t]); l[t] = median(loop[t])
		printf "| %s | %.0f | %.4f | %.4f | %.1f | %s |\n", t, m[t], c[t], l[t], median(rss[t]),
			t ~ /warc/ ? sprintf("%.0f", median(wb[t])) : "-"
	}
	printf "\nRatios of medians (load at the end %s, %d processors):\n\n", ldavg, nproc
	printf "| tern | with WARCs / wget2 pages/s | without WARCs / wget2 pages/s | loop CPU a page, with / without WARCs | CPU a page, with / without |\n"
	printf "|---|---|---|---|---|\n"
	for (i = 1; i <= n; i++) {
		t = order[i]
		if (t == "wget2" || t ~ /\+warc$/) continue
		w = t "+warc"
		printf "| %s | %.2f | %.2f | %.2f | %.2f |\n", t, m[w] / m["wget2"], m[t] / m["wget2"], l[w] / l[t], c[w] / c[t]
	}
}' "$ROWS" | tee "$RES/warccost.md"
pass "warccost"
