#!/bin/sh
# Differential test of url_resolve against Node's WHATWG URL: thousands of
# generated and real-world (base, ref) pairs, every difference either fixed
# or listed with its reason in tests/lib/url_diff_allowed.txt.
set -e
: "${top_srcdir:=$(dirname "$0")/../..}"
: "${top_builddir:=.}"
if ! command -v node >/dev/null 2>&1; then
	echo "url_diff: node not found, skipping"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node "$top_srcdir/tests/lib/url_gen.mjs" "$top_srcdir/tests/lib/url_real.txt" ${URL_DIFF_COUNT:-6000} >"$tmp/pairs"
"$top_builddir/tests/lib/url_driver" <"$tmp/pairs" >"$tmp/c.out"
node "$top_srcdir/tests/lib/url_diff.mjs" "$tmp/pairs" "$tmp/c.out" \
	"$top_srcdir/tests/lib/url_diff_allowed.txt"
