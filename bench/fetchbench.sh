#!/bin/sh
# Fetch engine benchmark: memory per connection (bench/sizes), then
# requests/s and CPU per request over 1,000 hosts of the test web, plain and
# TLS (full handshakes against a server without resumption, and resumed
# ones), beside wrk against the same server as the ceiling.
#   top_builddir=BUILD sh bench/fetchbench.sh      (use a build without sanitizers)
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
. "$top_srcdir/tests/lib.sh"
B=$top_builddir/bench
N=${N:-20000}

tw_start --tls --hosts 1000 --pages 100 --kb 4
P=$TW_PORT T=$TW_TLS_PORT
# A second server whose TLS port never resumes sessions.
tw_start --tls --hosts 1000 --pages 100 --kb 4 --no-tls-resume
TN=$TW_TLS_PORT

"$B/sizes" "$P" "$T" "$TW_CA_FILE"
"$B/fetchbench" --requests "$N" "$P"
"$B/fetchbench" --requests "$N" --new-conns "$P"
"$B/fetchbench" --requests "$N" --tls "$TW_CA_FILE" "$T"
"$B/fetchbench" --requests $((N / 4)) --new-conns --tls "$TW_CA_FILE" "$T"
"$B/fetchbench" --requests $((N / 4)) --new-conns --tls "$TW_CA_FILE" "$TN"
if command -v wrk >/dev/null 2>&1; then
	echo "wrk, same server, keep-alive, one page:"
	wrk -t1 -c64 -d5s -H 'Host: h1.web.test' -H 'Accept-Encoding: gzip' \
		"http://127.0.0.1:$P/p/1.html" | grep -E 'Requests/sec|Transfer/sec'
fi
