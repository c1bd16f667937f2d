#!/bin/sh
# Writes sample jobs with every WARC record type (tests/archive/warc_sample, WARC/1.1
# and WARC/1.0) and checks them with an independent reader, npm warcio, in
# tests/archive/warc_validate.mjs; a tampered copy must be rejected. The CDXJ that
# `tern warc-index` writes is checked too: every capture looked up.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
sample="$top_builddir/tests/archive/warc_sample"
mjs="$top_srcdir/tests/archive/warc_validate.mjs"

TERN=${TERN:-$top_builddir/src/tern}
command -v node >/dev/null 2>&1 || { echo "SKIP: node not installed"; exit 77; }
[ -d "$top_srcdir/tests/node_modules/warcio" ] || { echo "FAIL: npm warcio missing (scripts/deps installs it)"; exit 1; }

validate() {	# validate DESCRIPTION EXPECTED-STATUS JOBDIR ARGS...
	desc=$1 want=$2 job=$3
	shift 3
	(cd "$top_srcdir/tests/archive" && node "$mjs" "$job" "$@") >"$t/out" 2>&1
	got=$?
	# The expected-failure run's tally is not echoed: it is not this test's.
	[ "$want" = 0 ] && tail -1 "$t/out"
	if [ "$got" != "$want" ]; then
		echo "FAIL: $desc: exit $got, wanted $want"
		cat "$t/out"
		fails=$((fails + 1))
	else
		echo "ok: $desc"
	fi
}

for v in 1.1 1.0; do
	job="$t/job$v"
	flag=""
	[ "$v" = 1.0 ] && flag=--v10
	if ! "$sample" "$job" $flag >/dev/null; then
		echo "FAIL: warc_sample $flag"
		fails=$((fails + 1))
		continue
	fi
	validate "WARC/$v sample read by warcio, CDXJ lookups" 0 "$job" --version "$v" \
		--cdxj "$job/index.cdxj"
	if ! "$TERN" warc-index "$job" >"$t/index$v.cdxj" 2>"$t/index$v.err"; then
		echo "FAIL: tern warc-index: $(cat "$t/index$v.err")"
		fails=$((fails + 1))
	elif cmp -s "$t/index$v.cdxj" "$job/index.cdxj"; then
		echo "ok: tern warc-index writes the same CDXJ"
	else
		echo "FAIL: tern warc-index differs from warcindex_run"
		fails=$((fails + 1))
	fi
done

# One byte of one response body changed, the member recompressed in place:
# the block and payload digests no longer match and the reader must say so.
job="$t/job1.1"
f=$(ls "$job"/warcs/*.warc.gz | head -1)
(cd "$top_srcdir/tests" && node -e '
const fs = require("fs"), zlib = require("zlib");
const f = process.argv[1], d = fs.readFileSync(f);
const parts = []; let off = 0;
while (off < d.length) {
	// The shortest prefix that inflates is the member: members are self-delimiting.
	let len = 20;
	for (; off + len <= d.length; len++) {
		try { zlib.gunzipSync(d.subarray(off, off + len)); break; } catch (e) {}
	}
	parts.push(d.subarray(off, off + len)); off += len;
}
const i = parts.findIndex((p) => zlib.gunzipSync(p).toString("latin1").includes("WARC-Type: response\r\nWARC-Record-ID") && zlib.gunzipSync(p).toString("latin1").includes("http://example.com/\r\n"));
const rec = Buffer.from(zlib.gunzipSync(parts[i]));
const at = rec.lastIndexOf("</html>");
rec[at + 1] = "H".charCodeAt(0);
parts[i] = zlib.gzipSync(rec);
fs.writeFileSync(f, Buffer.concat(parts));
' "$f")
validate "tampered body rejected" 1 "$job"

if [ "$fails" -ne 0 ]; then
	echo "$fails failed"
	exit 1
fi
exit 0
