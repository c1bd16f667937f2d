// The order promises of the WARC writer and its thread pool (doc/warc.md,
// "Building on other threads"), checked on a job with npm warcio:
//   node warc_order.mjs JOBDIR [--exact] [--max-size BYTES]
// Files are read in serial order (".open" ones too, up to a torn last
// member, as a kill -9 leaves them). Checked:
//   - the records of one capture are consecutive, in the writer's order: a
//     response or revisit, then its request (same URI, WARC-Concurrent-To
//     the response), then at most one metadata record (same);
//   - every record names its own file's warcinfo (WARC-Warcinfo-ID), so a
//     capture built for a file that was rotated meanwhile was rebuilt;
//   - with --max-size, no file passes it unless it holds one capture;
//   - the crawl.log lines that carry a digest (dns:, robots.txt, pages), in
//     their order, are found among the WARC's dns and response/revisit
//     records in theirs, each with the same URI and digest: a line is never
//     on disk before its record. --exact: one for one, nothing more (a crawl
//     that ended normally).
// Prints "N passed, M failed"; exits non-zero on any failure.
import { readFileSync, readdirSync } from "node:fs";
import { WARCParser } from "warcio";

const args = process.argv.slice(2);
const jobdir = args[0];
const exact = args.includes("--exact");
const maxSize = args.includes("--max-size") ? Number(args[args.indexOf("--max-size") + 1]) : 0;
let passed = 0, failed = 0;

function check(ok, what) {
	if (ok) passed++;
	else if (++failed <= 20) console.error("FAIL: " + what);
}

const serialRe = /^[^-]+-\d{17}-(\d{5})-\d+~[^~]+~\d+\.warc\.gz(\.open)?$/;
const files = readdirSync(jobdir + "/warcs").filter((f) => serialRe.test(f))
	.sort((a, b) => Number(serialRe.exec(a)[1]) - Number(serialRe.exec(b)[1]));
check(files.length > 0, "no WARC files");

// The captures in file order: [uri, digest] of each dns or HTTP capture.
const captures = [];
for (const file of files) {
	const data = readFileSync(jobdir + "/warcs/" + file);
	const parser = new WARCParser([data], { parseHttp: false, keepHeadersCase: true });
	const recs = [];
	try {
		for await (const rec of parser) {
			await rec.readFully();
			const h = (n) => rec.warcHeaders.headers.get(n);
			recs.push({ type: rec.warcType, id: h("WARC-Record-ID"), uri: h("WARC-Target-URI"),
				info: h("WARC-Warcinfo-ID"), to: h("WARC-Concurrent-To"),
				pd: h("WARC-Payload-Digest"), bd: h("WARC-Block-Digest"),
				end: parser.offset + parser.recordLength });
		}
	} catch (e) {
		// A kill may cut the last member of an .open file short.
		check(file.endsWith(".open"), file + ": " + e.message);
	}
	// A kill right after a rotation may leave the new .open file with no
	// whole record yet (recovery removes it on resume): nothing can refer to
	// it, since crawl.log lines come after their records.
	if (recs.length > 0 || !file.endsWith(".open"))
		check(recs.length > 0 && recs[0].type === "warcinfo", file + ": does not start with warcinfo");
	let n = 0;
	for (let i = 1; i < recs.length; i++) {
		const r = recs[i], where = `${file} record ${i} (${r.type} ${r.uri})`;
		check(r.info === recs[0].id, where + ": WARC-Warcinfo-ID is not its file's");
		if (r.type === "response" && r.uri.startsWith("dns:")) {
			captures.push([r.uri, r.bd]);
			n++;
			continue;
		}
		check(r.type === "response" || r.type === "revisit", where + ": a capture starts with " + r.type);
		const q = recs[i + 1];
		if (q === undefined && file.endsWith(".open"))
			break;	// the kill came between the two records' writes
		check(q !== undefined && q.type === "request" && q.uri === r.uri && q.to === r.id,
			where + ": not followed by its request");
		i++;
		const m = recs[i + 1];
		if (m !== undefined && m.type === "metadata") {
			check(m.uri === r.uri && m.to === r.id, where + ": metadata of another capture follows");
			i++;
		}
		captures.push([r.uri, r.pd]);
		n++;
	}
	if (maxSize > 0 && !file.endsWith(".open") && n > 1)
		check(data.length <= maxSize, `${file}: ${data.length} bytes with ${n} captures, past ${maxSize}`);
}

// crawl.log: timestamp status size URI hops via mime thread start+duration
// digest source annotations.
// A kill may cut the last line short (stdio writes crawl.log in 64 KiB
// pieces, not a line at a time); tern repairs that tail when the job is
// opened again (job_log_repair), so a line without its newline is not one.
const logText = readFileSync(jobdir + "/logs/crawl.log", "latin1");
const lines = logText.slice(0, logText.lastIndexOf("\n") + 1).split("\n").filter((l) => l !== "")
	.map((l) => l.split(/ +/)).filter((f) => f.length >= 10 && f[9] !== "-");
check(lines.length > 0, "no crawl.log line with a digest");
let j = 0, unmatched = 0;
for (const f of lines) {
	const want = [f[3], f[9]];
	const from = j;
	while (j < captures.length && (captures[j][0] !== want[0] || captures[j][1] !== want[1]))
		j++;
	if (j === captures.length) {
		unmatched++;
		check(false, `crawl.log line for ${want[0]} ${want[1]}: no record after capture ${from} of ${captures.length}`);
		j = from;
		continue;
	}
	if (exact)
		check(j === from, `crawl.log line for ${want[0]}: ${j - from} captures without a line before its record`);
	passed++;
	j++;
}
if (exact)
	check(j === captures.length && unmatched === 0,
		`${captures.length - j} captures after the last crawl.log line's`);
console.log(`${lines.length} lines, ${captures.length} captures in ${files.length} files: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
