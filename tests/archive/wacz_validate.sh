#!/bin/sh
# tern's WACZ packages checked without tern's code: a crawl of the test web
# packaged at its end (warc.wacz = true) and again by `tern wacz -o`, and a
# `crawl --workers 2` job packaged at its end (every worker's WARCs in one
# file). Each package must pass `unzip -t`; hold every WARC of the job
# stored (not deflated) and byte for byte; list every entry in
# datapackage.json (WACZ 1.1.1) with its sha256 and size as sha256sum and
# wc see them; carry the sha256 of datapackage.json in
# datapackage-digest.json; have a pages.jsonl whose every line parses as
# JSON, whose pages are the test web's HTML pages (from its own manifest)
# with their titles; and an index (compressed with its .idx, of one block
# for a crawl stopped early; plain when asked) whose every line points at
# a gzip member of a stored WARC holding that URI's record, its blocks and
# .idx as a reader looks them up (tests/archive/wacz_validate.mjs). The package's
# title and description (datapackage.json, at the top and in metadata)
# come from the job directory's name, from warc.wacz-title (a --workers
# job's too) or from -t and --description. Bad input gets an error;
# SIGINT leaves nothing.
. "$top_srcdir/tests/lib.sh"
need_cmd dnsmasq nats-server
for c in unzip node sha256sum; do
	command -v $c >/dev/null 2>&1 || fail "$c missing: run scripts/deps"
done

# 40 x 80 pages: about 4,800 captures, past the 3,000 lines of a block of
# the compressed index, so its .idx names two.
tw_start --hosts 40 --pages 80 --links 4 --kb 2
dns_start
cd "$TW_DIR" || fail "no work directory"
port=$TW_PORT
CRAWL_SETS="--set dns.servers=$DNS_SERVER --set fetch.allow-private-addresses=true
	--set politeness.min-delay-ms=0 --set politeness.delay-factor=0
	--set politeness.respect-crawl-delay-up-to-seconds=0 --set warc.max-size-bytes=2000000
	--set crawl.max-connections=64"

# The HTML pages of the test web with their titles, from its manifest:
# "/" is page 0, /p/K.html page K, /p/private/K.html private K.
awk -F'\t' '$2 == "allowed" { print $1 }' manifest.tsv |
	sed -n 's|^\(http://h\([0-9]*\)\.web\.test:[0-9]*/\)$|\1\th\2 page 0|p
		s|^\(http://h\([0-9]*\)\.web\.test:[0-9]*/p/\([0-9]*\)\.html\)$|\1\th\2 page \3|p
		s|^\(http://h\([0-9]*\)\.web\.test:[0-9]*/p/private/\([0-9]*\)\.html\)$|\1\th\2 private \3|p' |
	sort >want-pages.tsv
[ "$(wc -l <want-pages.tsv)" -ge 3000 ] || fail "too few pages in the manifest: $(wc -l <want-pages.tsv)"

# validate full|part WACZ JOBDIR...: the checks above against the WARCs
# of the job directories given; "part": a crawl stopped early, whose pages
# are some of the test web's.
validate() {
	scope=$1 wacz=$2
	shift 2
	v=$TW_DIR/v.$(basename "$wacz")
	rm -rf "$v"
	mkdir -p "$v/x"
	unzip -tq "$wacz" >"$v/unzip-t" 2>&1 || fail "unzip -t $wacz: $(cat "$v/unzip-t")"
	(cd "$v/x" && unzip -q "$wacz") || fail "unzip $wacz"

	# Every WARC of the jobs, stored and identical; nothing else in archive/.
	for d in "$@"; do ls "$d"/warcs/*.warc.gz; done | sort >"$v/warcs"
	[ -s "$v/warcs" ] || fail "no WARC in $*"
	while read -r w; do
		n=$(basename "$w")
		cmp -s "$w" "$v/x/archive/$n" || fail "archive/$n differs from $w"
		unzip -v "$wacz" "archive/$n" | grep -q " Stored .* archive/$n\$" ||
			fail "archive/$n is not stored: $(unzip -v "$wacz" "archive/$n")"
	done <"$v/warcs"
	[ "$(ls "$v/x/archive" | wc -l)" -eq "$(wc -l <"$v/warcs")" ] ||
		fail "archive/ holds $(ls "$v/x/archive" | wc -l) files for $(wc -l <"$v/warcs") WARCs"

	# datapackage.json: every entry but itself and its digest, hashed.
	(cd "$v/x" && find . -type f | sed 's|^\./||' | grep -v '^datapackage' | sort) >"$v/entries"
	node -e '
		const fs = require("fs");
		const dp = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
		const dg = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
		const bad = (m) => { console.error(m); process.exit(1); };
		if (dp.profile !== "data-package" || dp.wacz_version !== "1.1.1") bad("profile/version: " + JSON.stringify(dp).slice(0, 200));
		if (!/^tern\//.test(dp.software) || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(dp.created)) bad("software/created");
		if (dg.path !== "datapackage.json" || !/^sha256:[0-9a-f]{64}$/.test(dg.hash)) bad("digest: " + JSON.stringify(dg));
		console.log("datapackage.json " + dg.hash.slice(7));
		for (const r of dp.resources) {
			if (!/^sha256:[0-9a-f]{64}$/.test(r.hash) || !Number.isInteger(r.bytes) || r.name !== r.path.split("/").pop()) bad("resource " + JSON.stringify(r));
			console.log(r.path + " " + r.hash.slice(7) + " " + r.bytes);
		}' "$v/x/datapackage.json" "$v/x/datapackage-digest.json" >"$v/claimed" ||
		fail "datapackage.json or its digest malformed"
	(cd "$v/x" && sha256sum datapackage.json | awk '{ print $2 " " $1 }') >"$v/actual"
	while read -r e; do
		printf '%s %s %s\n' "$e" "$(sha256sum <"$v/x/$e" | cut -d' ' -f1)" "$(wc -c <"$v/x/$e")"
	done <"$v/entries" >>"$v/actual"
	sort "$v/claimed" >"$v/claimed.s"
	sort "$v/actual" >"$v/actual.s"
	cmp -s "$v/claimed.s" "$v/actual.s" ||
		fail "datapackage.json disagrees with sha256sum: $(diff "$v/claimed.s" "$v/actual.s" | head -5)"
	grep -q '^pages/pages.jsonl ' "$v/actual" && grep -q '^indexes/index.cdxj \|^indexes/index.idx ' "$v/actual" ||
		fail "index or pages missing: $(cat "$v/entries")"

	# pages.jsonl: JSON lines; the test web's HTML pages with their titles.
	node -e '
		const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n");
		const bad = (m) => { console.error(m); process.exit(1); };
		if (lines.pop() !== "") bad("no newline at the end");
		const h = JSON.parse(lines.shift());
		if (h.format !== "json-pages-1.0" || h.id !== "pages") bad("header: " + JSON.stringify(h));
		const ids = new Set();
		for (const l of lines) {
			const p = JSON.parse(l);
			if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/.test(p.ts)) bad("ts: " + l);
			if (!p.id || ids.has(p.id)) bad("id: " + l);
			ids.add(p.id);
			console.log(p.url + "\t" + (p.title || ""));
		}' "$v/x/pages/pages.jsonl" >"$v/pages.tsv" || fail "pages.jsonl: $(head -3 "$v/x/pages/pages.jsonl")"
	sort "$v/pages.tsv" >"$v/pages.s"
	if [ "$scope" = full ]; then
		cmp -s want-pages.tsv "$v/pages.s" ||
			fail "pages differ from the test web's HTML pages: $(diff want-pages.tsv "$v/pages.s" | head -5)"
	else
		[ -s "$v/pages.s" ] && [ -z "$(comm -13 want-pages.tsv "$v/pages.s")" ] ||
			fail "pages not of the test web: $(comm -13 want-pages.tsv "$v/pages.s" | head -5)"
	fi

	# The index (plain, or compressed with its .idx; tests/archive/wacz_validate.mjs):
	# each line at a gzip member of its URL, and every capture indexed.
	node "$top_srcdir/tests/archive/wacz_validate.mjs" "$v/x" >"$v/index" || fail "index of $wacz"
	if [ -f "$v/x/indexes/index.cdx.gz" ]; then
		unzip -v "$wacz" indexes/index.cdx.gz | grep -q " Stored .* indexes/index.cdx.gz\$" ||
			fail "indexes/index.cdx.gz is not stored"
		zcat "$v/x/indexes/index.cdx.gz" >"$v/lines.cdxj"
	else
		cp "$v/x/indexes/index.cdxj" "$v/lines.cdxj"
	fi
	warc_captured_uris "$v"/x/archive/*.warc.gz | grep "^http" >"$v/captured"
	[ "$(sed 's/.*{"url":"\([^"]*\)".*/\1/' "$v/lines.cdxj" | sort -u)" = "$(cat "$v/captured")" ] ||
		fail "the index's URLs differ from the WARCs' captures"
	pass "$(basename "$wacz"): $(wc -l <"$v/warcs") WARCs stored, $(wc -l <"$v/entries") entries hashed, $(wc -l <"$v/pages.s") pages, index $(cat "$v/index")"
}

# titled WACZ TITLE [DESCRIPTION]: datapackage.json names the package so,
# where WACZ 1.1.1 says (title, description) and where ReplayWeb.page
# reads (metadata.title, metadata.desc); no description when none is given.
titled() {
	unzip -p "$1" datapackage.json | node -e '
		const dp = JSON.parse(require("fs").readFileSync(0, "utf8"));
		const [title, desc] = process.argv.slice(1);
		const m = dp.metadata || {};
		if (dp.title !== title || m.title !== title) {
			console.error(`title ${JSON.stringify(dp.title)}, metadata.title ${JSON.stringify(m.title)}`);
			process.exit(1);
		}
		if (dp.description !== desc || m.desc !== desc) {
			console.error(`description ${JSON.stringify(dp.description)}, metadata.desc ${JSON.stringify(m.desc)}`);
			process.exit(1);
		}' "$2" ${3+"$3"} || fail "$(basename "$1") is not titled '$2'${3+ with its description}"
	pass "$(basename "$1") is titled '$2'${3+ and described}"
}

# One process, the package written at the end of the crawl.
# shellcheck disable=SC2086
"$TERN" crawl -j "$TW_DIR/job" -s seeds.txt $CRAWL_SETS --set warc.wacz=true >crawl.out 2>&1 ||
	fail "tern crawl exited $?: $(cat crawl.out)"
grep -q Sanitizer crawl.out && fail "sanitizer: $(cat crawl.out)"
grep -q "^tern: wacz: $TW_DIR/job/job.wacz: " crawl.out || fail "no package said: $(tail -5 crawl.out)"
validate full "$TW_DIR/job/job.wacz" "$TW_DIR/job"
# Seeds on 40 hosts: the job directory's name.
titled "$TW_DIR/job/job.wacz" job

# The same job by `tern wacz -o`, titled and described.
"$TERN" wacz "$TW_DIR/job" -o "$TW_DIR/again.wacz" -t "Forty hosts, «again»" \
	--description "The test web: *forty* hosts." >wacz.out 2>&1 || fail "tern wacz: $(cat wacz.out)"
grep -q Sanitizer wacz.out && fail "sanitizer: $(cat wacz.out)"
validate full "$TW_DIR/again.wacz" "$TW_DIR/job"
titled "$TW_DIR/again.wacz" "Forty hosts, «again»" "The test web: *forty* hosts."

# Two workers: one package, both workers' WARCs.
# shellcheck disable=SC2086
"$TERN" crawl --workers 2 -j "$TW_DIR/wk" -s seeds.txt $CRAWL_SETS --set warc.wacz=true \
	--set cluster.partitions=16 --set cluster.partition-by=queue --set "warc.wacz-title=Two workers" \
	--set "warc.wacz-description=One crawl, two processes." >workers.out 2>&1 ||
	fail "tern crawl --workers exited $?: $(cat workers.out)"
grep -q Sanitizer workers.out && fail "sanitizer: $(cat workers.out)"
ls wk/w0/*.wacz wk/w1/*.wacz >/dev/null 2>&1 && fail "a worker wrote its own package"
# Which worker crawls which host is the leases' call: say it, not judge it.
echo "note: WARCs of w0: $(ls wk/w0/warcs | wc -l), of w1: $(ls wk/w1/warcs | wc -l)"
validate full "$TW_DIR/wk/wk.wacz" "$TW_DIR/wk/w0" "$TW_DIR/wk/w1"
titled "$TW_DIR/wk/wk.wacz" "Two workers" "One crawl, two processes."
# The setting is the job's: `tern resume` of the workers packages again.
rm -f wk/wk.wacz
"$TERN" resume "$TW_DIR/wk" >resume.out 2>&1 || fail "tern resume of the workers: $(cat resume.out)"
[ -f wk/wk.wacz ] && grep -q "^tern: wacz: $TW_DIR/wk/wk.wacz: " resume.out ||
	fail "tern resume of the workers job did not package it: $(cat resume.out)"

# A crawl stopped early: fewer captures than a block, an index of one
# block; and the plain index, asked for.
# shellcheck disable=SC2086
"$TERN" crawl -j "$TW_DIR/small" -s seeds.txt $CRAWL_SETS --set crawl.max-pages=40 >small.out 2>&1 ||
	fail "tern crawl (small) exited $?: $(cat small.out)"
"$TERN" wacz "$TW_DIR/small" >>small.out 2>&1 || fail "tern wacz (small): $(cat small.out)"
validate part "$TW_DIR/small/small.wacz" "$TW_DIR/small"
grep -q '^compressed [0-9]* 1$' "$TW_DIR/v.small.wacz/index" || fail "the small job's index: $(cat "$TW_DIR/v.small.wacz/index")"
"$TERN" wacz "$TW_DIR/small" --index plain -o "$TW_DIR/plain.wacz" >>small.out 2>&1 ||
	fail "tern wacz --index plain: $(cat small.out)"
validate part "$TW_DIR/plain.wacz" "$TW_DIR/small"
grep -q '^plain [0-9]*$' "$TW_DIR/v.plain.wacz/index" || fail "--index plain: $(cat "$TW_DIR/v.plain.wacz/index")"
"$TERN" wacz "$TW_DIR/small" --index zipnum >bad.out 2>&1
[ $? -eq 2 ] && grep -q "compressed or plain" bad.out || fail "--index zipnum: $(cat bad.out)"
tw_stop

# Bad input: a clear error, exit 1 (2 for usage), no package left behind.
mkdir -p empty/warcs
"$TERN" wacz empty >bad.out 2>&1
[ $? -eq 1 ] && grep -q "no WARC file" bad.out || fail "empty job: $(cat bad.out)"
"$TERN" wacz "$TW_DIR/nowhere" >bad.out 2>&1
[ $? -eq 2 ] && grep -q "nowhere: No such file or directory" bad.out || fail "missing job: $(cat bad.out)"
mkdir notjob
"$TERN" wacz notjob >bad.out 2>&1
[ $? -eq 2 ] && grep -q "notjob is not a tern job directory" bad.out || fail "not a job: $(cat bad.out)"
"$TERN" wacz >bad.out 2>&1
[ $? -eq 2 ] || fail "no JOBDIR: $(cat bad.out)"
printf 'not a WARC\n' | gzip >empty/warcs/bad.warc.gz
"$TERN" wacz empty >bad.out 2>&1
[ $? -eq 1 ] && grep -q "bad.warc.gz" bad.out || fail "damaged WARC: $(cat bad.out)"
ls empty/*.wacz empty/*.tmp* >/dev/null 2>&1 && fail "a failed run left files: $(ls empty)"
pass "bad input refused with a message, nothing left behind"

# SIGINT while it reads a WARC that never ends (a FIFO with a silent
# writer): exit 1, said, and nothing left.
mkdir -p slow/warcs
cp "$(ls small/warcs/*.warc.gz | head -1)" slow/warcs/
mkfifo slow/warcs/zz.warc.gz
sleep 120 >slow/warcs/zz.warc.gz &
track_pid $!
"$TERN" wacz slow >intr.out 2>&1 &
wp=$!
track_pid $wp
i=0
until ls -l /proc/$wp/fd 2>/dev/null | grep -q 'zz.warc.gz'; do
	[ $i -lt 300 ] || fail "tern wacz never opened the FIFO: $(cat intr.out)"
	sleep 0.1
	i=$((i + 1))
done
kill -INT $wp
wait $wp
rc=$?
[ $rc -eq 1 ] && grep -q "interrupted: no package written" intr.out || fail "SIGINT: exit $rc: $(cat intr.out)"
[ "$(ls slow)" = warcs ] || fail "an interrupted run left files: $(ls slow)"
pass "SIGINT abandons the package and leaves nothing"
