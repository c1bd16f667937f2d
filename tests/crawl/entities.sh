#!/bin/sh
# src/crawl/entity-table.h is what scripts/gen-entities makes of
# src/crawl/entities.json (the WHATWG list of named character references):
# neither can change without the other.
set -u
: "${top_srcdir:?}"
t=$(mktemp)
trap 'rm -f "$t"' EXIT
if ! python3 "$top_srcdir/scripts/gen-entities" - >"$t"; then
	echo "FAIL: scripts/gen-entities failed"
	exit 1
fi
if ! cmp -s "$t" "$top_srcdir/src/crawl/entity-table.h"; then
	echo "FAIL: src/crawl/entity-table.h differs from what scripts/gen-entities writes (run it):"
	diff "$top_srcdir/src/crawl/entity-table.h" "$t" | head -20
	exit 1
fi
echo "ok: src/crawl/entity-table.h matches scripts/gen-entities ($(grep -c '^    {"' "$t") names)"
