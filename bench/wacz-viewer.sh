#!/bin/sh
# How fast ReplayWeb.page shows a page of a tern WACZ, by the package's
# size and the form of its index (doc/warc.md, "WACZ packages"):
#
#     bench/wacz-viewer.sh [PAGES...]          # default 100 1000 3000 10000 30000 100000
#     BENCH_BUILD=DIR bench/wacz-viewer.sh     # a configured build
#     TIMEOUT=S bench/wacz-viewer.sh           # per measurement, default 120
#
# For each size, a crawl of the test web of about PAGES pages (hosts of at
# most 1,000 pages, 2 KB each, 4 links, a third with an image) is packaged
# twice by tern wacz, --index plain and --index compressed, and each
# package is opened in ReplayWeb.page (npm replaywebpage of
# tests/package.json) in Debian's chromium by bench/wacz-viewer.mjs: once at
# a page's URL (time until its heading is shown, from a new profile), once
# from its Pages view, scrolled 20 times to the end of the list before the
# last page listed is clicked (time from the click). Each prints a JSON
# line; the table at the end has the times in seconds ("-" past TIMEOUT),
# the time until the Pages view first listed pages ("list shown"), and
# the reads of indexes/* the viewer made (doc/warc.md has the figures). Builds tern optimised
# without sanitizers in build/bench, as bench/run does. Needs dnsmasq,
# chromium and tests/node_modules (scripts/deps). Everything started is
# stopped by pid.
top=$(cd "$(dirname "$0")/.." && pwd)
sizes=${*:-100 1000 3000 10000 30000 100000}
timeout=${TIMEOUT:-120}
jobs=$(nproc 2>/dev/null || echo 2)
[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi) || exit 1
bdir=${BENCH_BUILD:-$top/build/bench}
mkdir -p "$bdir"
if [ ! -f "$bdir/Makefile" ]; then
	(cd "$bdir" && "$top/configure" -q CFLAGS="-O2 -g") || exit 1
fi
make -C "$bdir" -j"$jobs" src/tern tests/testweb/testweb >"$bdir/make.out" 2>&1 ||
	{ tail -30 "$bdir/make.out"; exit 1; }

top_srcdir=$top
top_builddir=$bdir
TERN=$bdir/src/tern
TW_NO_MANIFEST=1
. "$top/tests/lib.sh"
[ -d "$top/tests/node_modules/replaywebpage" ] || fail "tests/node_modules missing: run scripts/deps"

results=""
for n in $sizes; do
	hosts=$(((n + 999) / 1000))
	pages=$((n / hosts))
	DNS_HOSTS=$((hosts + 5))
	export DNS_HOSTS
	tw_start --hosts "$hosts" --pages "$pages" --links 4 --cross 0 --kb 2
	dns_start
	cd "$TW_DIR" || fail "no work directory"
	job=$TW_DIR/job$n
	t0=$(date +%s)
	"$TERN" crawl -j "$job" -s seeds.txt --set dns.servers="$DNS_SERVER" \
		--set fetch.allow-private-addresses=true --set politeness.min-delay-ms=0 \
		--set politeness.delay-factor=0 --set politeness.respect-crawl-delay-up-to-seconds=0 \
		--set crawl.max-connections=64 --set crawl.max-hops=10000 \
		>"crawl$n.out" 2>&1 || fail "crawl: $(tail -5 "crawl$n.out")"
	tw_stop
	stop_pid "$DNS_PID"
	url=$(sed -n 's|^\(http://h0\.web\.test:[0-9]*\)/$|\1/p/1.html|p' seeds.txt | head -1)
	echo "wacz-viewer: $n: crawled in $(($(date +%s) - t0)) s"
	for form in plain compressed; do
		"$TERN" wacz "$job" --index "$form" -o "$TW_DIR/$n-$form.wacz" >"wacz$n.out" 2>&1 ||
			fail "tern wacz: $(cat "wacz$n.out")"
		sed -n 's/^tern: wacz: [^:]*: /wacz-viewer: '"$n $form"': /p' "wacz$n.out" | head -1
		counts=$(sed -n 's/.* \([0-9]*\) captures, \([0-9]*\) pages .*/\1 \2/p' "wacz$n.out")
		for mode in direct scroll; do
			line=$(node "$top/bench/wacz-viewer.mjs" "$mode" "$TW_DIR/$n-$form.wacz" "$url" "$timeout") ||
				fail "wacz-viewer.mjs $mode $n-$form.wacz failed"
			echo "wacz-viewer: $line"
			results="$results$counts $form $mode $line
"
		done
		rm -f "$TW_DIR/$n-$form.wacz"
	done
	rm -rf "$job"
done

echo
echo "| pages | captures | index | at a URL: s (index reads) | list shown: s | after scrolling: s (index reads) |"
echo "|---:|---:|---|---:|---:|---:|"
printf '%s' "$results" | node -e '
const rows = {};
for (const l of require("fs").readFileSync(0, "utf8").trim().split("\n")) {
	const [captures, n, form, mode, ...rest] = l.split(" ");
	const r = JSON.parse(rest.join(" "));
	const k = n + " " + form;
	rows[k] = rows[k] || { n, captures, form };
	rows[k][mode] = r;
}
const sec = (ms) => ms === null || ms === undefined ? "-" : (ms / 1000).toFixed(1);
const s = (r) => sec(r.renderMs);
for (const r of Object.values(rows))
	console.log(`| ${Number(r.n).toLocaleString("en")} | ${Number(r.captures).toLocaleString("en")} | ${r.form} | ${s(r.direct)} (${r.direct.indexReads}) | ${sec(r.scroll.listMs)} | ${s(r.scroll)} (${r.scroll.indexReads}) |`);
'
