#!/bin/sh
# The test web serves a 1,000-host synthetic web: pages are deterministic,
# sized as asked, gzip is correct, robots.txt, 404s, redirects, images and
# CSS follow the README, keep-alive and pipelining work, and the request
# log, manifest and seeds file say what the README says.
. "$top_srcdir/tests/lib.sh"
need_cmd curl gzip node

tw_start --hosts 1000 --pages 20 --links 8 --kb 2 --seed 42
D=$TW_DIR

[ "$(wc -l <"$D/seeds.txt")" -eq 1000 ] || fail "seeds file has $(wc -l <"$D/seeds.txt") lines"
grep -qx "http://h999.web.test:$TW_PORT/" "$D/seeds.txt" || fail "seeds file lacks h999"
pass "seeds file lists 1000 roots"

# Every page of every host is reachable (page k links to k+1), so the
# manifest holds at least 1000 x 20 allowed html pages, each listed once.
n=$(awk -F '\t' '$4 == "html" && $2 == "allowed" && $1 !~ /private/' "$D/manifest.tsv" | wc -l)
[ "$n" -eq 20000 ] || fail "manifest has $n public html pages, want 20000"
dup=$(cut -f1 "$D/manifest.tsv" | sort | uniq -d | head -1)
[ -z "$dup" ] || fail "manifest lists $dup twice"
awk -F '\t' '$2 == "disallowed" && ($1 !~ /\/p\/private\// || $1 !~ /^http:\/\/h[0-9]*[05]\.web\.test/) { bad = 1 } END { exit bad }' \
	"$D/manifest.tsv" || fail "a disallowed manifest URL is not /p/private/ on a host I % 5 == 0"
grep -q "	disallowed	200	html" "$D/manifest.tsv" || fail "manifest has no disallowed page"
grep -q "	allowed	404	missing" "$D/manifest.tsv" || fail "manifest has no 404"
grep -q "	allowed	301	redirect" "$D/manifest.tsv" || fail "manifest has no redirect"
grep -q "	allowed	200	image" "$D/manifest.tsv" || fail "manifest has no image"
pass "manifest: $(wc -l <"$D/manifest.tsv") URLs, 20000 public pages, robots and statuses"

# Determinism and size.
u=$(tw_url 999 /p/7.html)
tw_curl -o "$D/a" "$u" && tw_curl -o "$D/b" "$u" || fail "fetch $u"
cmp -s "$D/a" "$D/b" || fail "two fetches of $u differ"
size=$(wc -c <"$D/a")
[ "$size" -ge 2048 ] && [ "$size" -lt 4096 ] || fail "page is $size bytes, want ~2 KB"
tw_curl -o "$D/c" "$(tw_url 998 /p/7.html)"
cmp -s "$D/a" "$D/c" && fail "pages of two hosts are identical"
grep -q '<a href=' "$D/a" || fail "page has no links"
pass "pages are deterministic and ~2 KB"

# gzip on request, identity otherwise, and q=0 refuses it.
tw_curl -H 'Accept-Encoding: gzip' -D "$D/h" -o "$D/a.gz" "$u"
grep -qi '^Content-Encoding: gzip' "$D/h" || fail "no Content-Encoding: gzip"
gzip -dc <"$D/a.gz" >"$D/a.plain" || fail "gzip body does not decode"
cmp -s "$D/a" "$D/a.plain" || fail "decoded gzip differs from the identity body"
len=$(sed -n 's/^Content-Length: \([0-9]*\).*/\1/ip' "$D/h")
[ "$len" -eq "$(wc -c <"$D/a.gz")" ] || fail "gzip Content-Length $len is not the body size"
tw_curl -H 'Accept-Encoding: gzip;q=0, identity' -D "$D/h" -o "$D/a.id" "$u"
grep -qi '^Content-Encoding' "$D/h" && fail "gzip sent despite q=0"
cmp -s "$D/a" "$D/a.id" || fail "identity body differs"
pass "gzip when accepted, correct, and not when refused"

# gzip is assembled from cached pieces (filler paragraphs, whole small
# bodies): every page decodes to its identity body whether its pieces were
# cached or not (second round), and so do robots.txt, CSS, 404s, redirects.
for round in 1 2; do
	for p in /p/4.html /p/2.html /p/3.html /p/19.html / /robots.txt /s.css /p/missing-3.html /r/4 /p/private/2.html; do
		for h in 0 5 7 998; do
			tw_curl -H 'Accept-Encoding: gzip' -o "$D/g.gz" "$(tw_url $h "$p")" || fail "fetch $h $p"
			tw_curl -o "$D/g.id" "$(tw_url $h "$p")" || fail "fetch $h $p"
			gzip -dc <"$D/g.gz" >"$D/g.plain" || fail "round $round: gzip of h$h $p does not decode"
			cmp -s "$D/g.id" "$D/g.plain" || fail "round $round: gzip of h$h $p differs from identity"
		done
	done
done
pass "gzip from cached pieces decodes to the identity body (pages, robots, css, 404, 301)"

# robots.txt per host.
tw_curl "$(tw_url 5 /robots.txt)" | grep -qx 'Disallow: /p/private/' || fail "h5 robots lacks the private subtree"
tw_curl "$(tw_url 1 /robots.txt)" | grep -qx 'Disallow:' || fail "h1 robots does not allow all"
tw_curl "$(tw_url 7 /robots.txt)" | grep -qx 'Crawl-delay: 1' || fail "h7 robots lacks Crawl-delay"
tw_curl "$(tw_url 8 /robots.txt)" | grep -q 'Crawl-delay' && fail "h8 robots has a Crawl-delay"
pass "robots.txt per host"

# Statuses of the URL space.
st() { tw_curl -o /dev/null -w '%{http_code}' "$@"; }
[ "$(st "$(tw_url 3 /p/missing-12.html)")" = 404 ] || fail "missing page is not 404"
[ "$(st "$(tw_url 3 /p/20.html)")" = 404 ] || fail "page beyond --pages is not 404"
[ "$(st "http://h1000.web.test:$TW_PORT/")" = 404 ] || fail "unknown host is not 404"
[ "$(st "$(tw_url 3 /p/private/4.html)")" = 200 ] || fail "private page is not 200"
[ "$(st "$(tw_url 3 /r/5)")" = 301 ] || fail "redirect is not 301"
tw_curl -D - -o /dev/null "$(tw_url 3 /r/5)" | grep -qi '^Location: /p/5.html' || fail "redirect Location"
[ "$(tw_curl -L -o /dev/null -w '%{url_effective}' "$(tw_url 3 /r/5)")" = "$(tw_url 3 /p/5.html)" ] ||
	fail "redirect does not lead to the page"
tw_curl -D "$D/h" -o "$D/png" "$(tw_url 3 /i/3.png)"
grep -qi '^Content-Type: image/png' "$D/h" || fail "image content type"
[ "$(od -An -N4 -tx1 "$D/png" | tr -d ' ')" = 89504e47 ] || fail "image is not a PNG"
tw_curl -D "$D/h" "$(tw_url 3 /s.css)" | grep -q 'url(' || fail "css has no url()"
grep -qi '^Content-Type: text/css' "$D/h" || fail "css content type"
pass "404, 301, private, image and css"

# HEAD gets GET's headers and no body.
tw_curl -I "$u" >"$D/head" || fail "HEAD"
grep -q "^Content-Length: $size" "$D/head" || fail "HEAD Content-Length is not the GET size"
pass "HEAD"

# Keep-alive: three requests, one connection, the last after a 204 and a
# 304 that carry a bogus Content-Length.
c=$(tw_curl -o /dev/null -o /dev/null -o /dev/null -w '%{num_connects}' \
	"$(tw_url 1 /_mis/204)" "$(tw_url 1 /_mis/304)" "$(tw_url 1 /p/1.html)")
[ "$c" = 100 ] || fail "keep-alive: connects per request were $c, want 1 0 0"
pass "keep-alive across 204 and 304"

# Pipelining: three requests in one write are answered in order.
node -e '
const s = require("net").connect(+process.argv[1], "127.0.0.1", () => s.write(
  "GET /p/1.html HTTP/1.1\r\nHost: h1.web.test\r\n\r\n" +
  "GET /_mis/204 HTTP/1.1\r\nHost: h1.web.test\r\n\r\n" +
  "GET /robots.txt HTTP/1.1\r\nHost: h1.web.test\r\nConnection: close\r\n\r\n"));
let d = "";
s.on("data", (x) => d += x);
s.on("end", () => {
  const st = [...d.matchAll(/HTTP\/1.1 (\d+)/g)].map((m) => m[1]).join(",");
  if (st !== "200,204,200" || !d.endsWith("Disallow:\n")) { console.error("got " + st); process.exit(1); }
});' "$TW_PORT" || fail "pipelined requests"
pass "pipelining"

# The request log has one line per request with the README's 9 fields.
lines=$(wc -l <"$D/requests.tsv")
[ "$lines" -ge 20 ] || fail "request log has $lines lines"
awk -F '\t' 'NF != 9 || $9 == "" || $1 !~ /^[0-9]+\.[0-9][0-9][0-9]$/ || $2 < $1 || $5 !~ /^[0-9]+$/ ||
	$6 !~ /^[0-9]+$/ || $7 !~ /^[0-9]+$/ || $8 !~ /^(-|inm|ims|inm\+ims)$/ { print; bad = 1 } END { exit bad }' "$D/requests.tsv" ||
	fail "malformed request log line"
grep -q "	h999.web.test	/p/7.html	200	$size	" "$D/requests.tsv" || fail "log lacks the h999 page with its size"
awk -F '\t' '$4 == "/_mis/204" || $4 == "/_mis/304" || $4 == "/p/1.html" { print $7 }' "$D/requests.tsv" |
	head -3 | sort -u | wc -l | grep -qx 1 || fail "keep-alive requests do not share a conn_id"
pass "request log"

# Thousands of simultaneous connections, all open at once, all answered.
node -e '
const net = require("net");
const port = +process.argv[1], n = 3000;
let open = 0, done = 0;
const socks = [];
for (let i = 0; i < n; i++) {
  const s = net.connect(port, "127.0.0.1", () => {
    if (++open < n) return;
    for (const [j, t] of socks.entries())
      t.write("GET /p/" + (j % 19 + 1) + ".html HTTP/1.1\r\nHost: h" + (j % 1000) + ".web.test\r\n\r\n");
  });
  let d = "";
  s.on("data", (x) => {
    d += x;
    if (d.startsWith("HTTP/1.1 200 ") && d.endsWith("</html>\n") && ++done === n) {
      socks.forEach((t) => t.destroy());
    }
  });
  s.on("error", (e) => { console.error(e.message); process.exit(1); });
  socks.push(s);
}
setTimeout(() => { console.error("answered " + done + " of " + n); process.exit(1); }, 60000).unref();
' "$TW_PORT" || fail "3000 simultaneous connections"
pass "3000 simultaneous connections"

tw_stop
pass "testweb stopped on SIGTERM"
# Its exit summary saw the 3000 connections open at once and no failed accept.
sum=$(grep '^testweb: at most' "$D/testweb.log") || fail "no exit summary in testweb.log"
echo "$sum" | awk '{ exit !($4 >= 3000 && $9 == 0) }' || fail "exit summary: $sum"
pass "exit summary: $sum"

# --write-dir: the same web as files for a static server (bench/run's nginx
# workloads), host I at 127.0.0.1:(port base + I). A written page is the
# served page with every hJ.web.test:PORT written as 127.0.0.1:(base + J);
# each text file has a gzip copy; every allowed file of the manifest exists,
# redirects and 404s are not files.
tw_start --hosts 12 --pages 10 --links 8 --kb 2 --seed 7
"$top_builddir/tests/testweb/testweb" --write-dir "$D/files" --port-base 30000 --gzip-files \
	--hosts 12 --pages 10 --links 8 --kb 2 --seed 7 --manifest "$D/fmanifest.tsv" \
	--seeds-file "$D/fseeds.txt" >"$D/write.out" 2>&1 || fail "--write-dir: $(cat "$D/write.out")"
[ "$(sed -n 12p "$D/fseeds.txt")" = "http://127.0.0.1:30011/" ] || fail "seeds: $(sed -n 12p "$D/fseeds.txt")"
grep -q 'web\.test' "$D/fmanifest.tsv" && fail "manifest names a web.test host"
for p in / /p/3.html /p/9.html; do
	f=$p
	[ "$p" = / ] && f=/index.html
	for h in 0 5 11; do
		tw_curl -o "$D/served" "$(tw_url $h "$p")" || fail "fetch $p from h$h"
		sed -E 's|http://h([0-9]+)\.web\.test:'"$TW_PORT"'|@@\1@@|g' "$D/served" |
			awk '{ while (match($0, /@@[0-9]+@@/)) { n = substr($0, RSTART + 2, RLENGTH - 4) + 30000;
				$0 = substr($0, 1, RSTART - 1) "http://127.0.0.1:" n substr($0, RSTART + RLENGTH) } print }' >"$D/want"
		cmp -s "$D/want" "$D/files/$((30000 + h))$f" || fail "file $((30000 + h))$f differs from the served page"
		gzip -dc "$D/files/$((30000 + h))$f.gz" | cmp -s - "$D/files/$((30000 + h))$f" ||
			fail "$((30000 + h))$f.gz is not a gzip copy"
	done
done
grep -q 'Disallow: /p/private/' "$D/files/30005/robots.txt" || fail "robots.txt of host 5 does not disallow /p/private/"
awk -F'\t' -v d="$D/files" '{ u = $1; sub(/^http:\/\/127\.0\.0\.1:/, "", u); port = u; sub(/\/.*/, "", port);
		path = u; sub(/^[0-9]*/, "", path); if (path == "/") path = "/index.html"
		f = d "/" port path; e = (getline line < f) >= 0; close(f)
		if ($3 == 200 && !e) { print "missing " f; bad = 1 } if ($3 != 200 && e) { print "unexpected " f; bad = 1 } }
	END { exit bad }' "$D/fmanifest.tsv" >"$D/fcheck.txt" || fail "$(head -3 "$D/fcheck.txt")"
pass "--write-dir: pages as served with 127.0.0.1 ports, gzip copies, every manifest file and no other"
tw_stop
