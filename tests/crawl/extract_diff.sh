#!/bin/sh
# Differential test of the link extractor against parse5 (see
# extract_diff.mjs), plus the chunking check: every page fed in one chunk,
# in random chunks and byte by byte must give the same links in the same
# order. Needs node (a skip, which scripts/check counts as a failure) and
# tests/node_modules (scripts/deps installs it; a failure without it).
set -eu
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-.}
driver=$builddir/tests/crawl/extract_driver
pages=${EXTRACT_DIFF_PAGES:-400}
seed=${EXTRACT_DIFF_SEED:-20261121}

command -v node >/dev/null 2>&1 || { echo "node not found: skipped"; exit 77; }
[ -d "$srcdir/tests/node_modules/parse5" ] || { echo "FAIL: parse5 missing (scripts/deps installs it)"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/extract_diff.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

node "$srcdir/tests/crawl/extract_diff.mjs" gen "$tmp" "$pages" "$seed"
for f in "$srcdir"/tests/corpus/extract/*.html "$srcdir"/tests/corpus/css/*.css; do
	cp "$f" "$tmp/corpus-$(basename "$f")"
done

fail=0
i=0
for f in "$tmp"/*.html "$tmp"/*.css; do
	i=$((i + 1))
	case $f in *.css) type=-c ;; *) type= ;; esac
	"$driver" $type "$f" > "$f.out"
	"$driver" $type -s "$i" "$f" > "$f.rand"
	if ! cmp -s "$f.out" "$f.rand"; then
		echo "CHUNKING $(basename "$f"): random chunks (seed $i) differ from one chunk"
		diff "$f.out" "$f.rand" | head -5
		fail=1
	fi
	# Byte-by-byte feeding is slow only in call overhead; keep it to the
	# pages below 1 MB.
	if [ "$(wc -c < "$f")" -lt 1048576 ]; then
		"$driver" $type -b "$f" > "$f.byte"
		if ! cmp -s "$f.out" "$f.byte"; then
			echo "CHUNKING $(basename "$f"): byte-by-byte differs from one chunk"
			diff "$f.out" "$f.byte" | head -5
			fail=1
		fi
	fi
done
echo "extract_diff: chunking checked on $i pages and stylesheets"

node "$srcdir/tests/crawl/extract_diff.mjs" compare "$tmp" "$srcdir/tests/crawl/extract_diff_allowed.txt" || fail=1
exit $fail
