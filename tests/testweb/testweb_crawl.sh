#!/bin/sh
# The manifest is exactly what a polite link-following crawler finds: an
# independent crawler (node, robots-parser, WHATWG URL resolution) walks
# the test web from the seeds and its (URL, robots verdict, status) set
# must equal the manifest's. Also checks that --latency-ms delays each host
# by its own constant.
. "$top_srcdir/tests/lib.sh"
need_cmd curl node
[ -d "$top_srcdir/tests/node_modules/robots-parser" ] || { echo "SKIP: run npm ci in tests/" >&2; exit 77; }

tw_start --hosts 25 --pages 15 --links 12 --cross 0.3 --kb 1 --seed 9
D=$TW_DIR

node -e '
const http = require("http");
const robotsParser = require(process.env.top_srcdir + "/tests/node_modules/robots-parser");
const [seedsFile, outFile] = process.argv.slice(1);
const fs = require("fs");
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const lookup = (h, o, cb) => o && o.all ? cb(null, [{ address: "127.0.0.1", family: 4 }]) : cb(null, "127.0.0.1", 4);
function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent, lookup }, (res) => {
      let body = "";
      res.setEncoding("latin1");
      res.on("data", (d) => body += d);
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body }));
    }).on("error", reject);
  });
}
const robots = new Map();
async function allowed(u) {
  const origin = new URL(u).origin;
  if (!robots.has(origin)) {
    const r = await get(origin + "/robots.txt");
    robots.set(origin, robotsParser(origin + "/robots.txt", r.status === 200 ? r.body : ""));
  }
  return robots.get(origin).isAllowed(u, "terntest") !== false;
}
const seen = new Map();
const queue = [];
function add(u, base) {
  let url;
  try { url = new URL(u, base); } catch (e) { return; }
  url.hash = "";
  if (!/^h\d+\.web\.test$/.test(url.hostname) || url.pathname.startsWith("/_mis/")) return;
  const s = url.href;
  if (!seen.has(s)) { seen.set(s, null); queue.push(s); }
}
async function visit(u) {
  const ok = await allowed(u);
  const r = await get(u);
  seen.set(u, (ok ? "allowed" : "disallowed") + "\t" + r.status);
  if (!ok) return;
  if (r.status === 301) add(r.headers.location, u);
  const ct = r.headers["content-type"] || "";
  if (ct.startsWith("text/html"))
    for (const m of r.body.matchAll(/(?:href|src)="([^"]*)"/g)) add(m[1], u);
  if (ct.startsWith("text/css"))
    for (const m of r.body.matchAll(/url\(([^)]*)\)/g)) add(m[1], u);
}
(async () => {
  for (const s of fs.readFileSync(seedsFile, "utf8").split("\n").filter(Boolean)) add(s);
  while (queue.length) await Promise.all(queue.splice(0, 16).map(visit));
  const lines = [...seen].map(([u, v]) => u + "\t" + v).sort();
  fs.writeFileSync(outFile, lines.join("\n") + "\n");
  agent.destroy();
})().catch((e) => { console.error(e); process.exit(1); });
' "$D/seeds.txt" "$D/crawled.tsv" || fail "crawler failed"

cut -f1-3 "$D/manifest.tsv" | LC_ALL=C sort >"$D/manifest.sorted"
LC_ALL=C sort "$D/crawled.tsv" >"$D/crawled.sorted"
if ! cmp -s "$D/manifest.sorted" "$D/crawled.sorted"; then
	diff "$D/manifest.sorted" "$D/crawled.sorted" | head -20 >&2
	fail "manifest and crawl differ"
fi
pass "an independent crawl finds exactly the manifest ($(wc -l <"$D/crawled.sorted") URLs)"
n=$(grep -c "	disallowed	" "$D/crawled.sorted")
[ "$n" -gt 0 ] || fail "the crawl met no disallowed URL"
pass "the crawl met $n disallowed URLs"

# Every request of the crawl (robots.txt included) is in the request log.
req=$(wc -l <"$D/requests.tsv")
[ "$req" -ge "$(wc -l <"$D/crawled.sorted")" ] || fail "request log has $req lines"
pass "request log has $req lines"
tw_stop

# Latency: the same host always waits the same per-host time in range.
tw_start --hosts 4 --pages 2 --latency-ms 150-300
for h in 0 1 2 3; do
	t1=$(tw_curl -o /dev/null -w '%{time_starttransfer}' "$(tw_url $h /)")
	t2=$(tw_curl -o /dev/null -w '%{time_starttransfer}' "$(tw_url $h /p/1.html)")
	awk -v a="$t1" -v b="$t2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a >= 0.145 && a < 0.4 && d < 0.05) }' ||
		fail "host $h latency $t1 then $t2, want one value in 150-300 ms"
done
pass "per-host latency in range and constant"
