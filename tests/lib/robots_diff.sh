#!/bin/sh
# Differential test of the robots.txt parser against robots-parser (npm), see
# tests/lib/robots_diff.mjs. Needs node and tests/node_modules (npm ci in tests/).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
if ! command -v node >/dev/null 2>&1; then
	echo "robots_diff: node not found" >&2
	exit 77
fi
if [ ! -d "$top_srcdir/tests/node_modules/robots-parser" ]; then
	echo "FAIL: tests/node_modules/robots-parser missing (scripts/deps installs it)" >&2
	exit 1
fi
exec node "$top_srcdir/tests/lib/robots_diff.mjs" "$top_builddir/tests/lib/robots_driver" \
	"$top_srcdir/tests/lib/robots_diff_allowed.txt"
