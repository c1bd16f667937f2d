// Independent check of a job's WARCs with webrecorder's warcio.js (npm), not
// with tern's own reader:
//   node warc_validate.mjs JOBDIR [--version 1.0|1.1] [--cdxj FILE]
// Every record of JOBDIR/warcs/*.warc.gz is iterated; the script checks the
// mandatory fields, record types, Content-Length, WARC-Block-Digest and
// WARC-Payload-Digest (recomputed), that each record is its own gzip member,
// warcinfo-first files, WARC-Concurrent-To and WARC-Warcinfo-ID linkage, and
// that revisits point at an earlier response with the same payload digest
// (identical-payload-digest, or server-not-modified for a 304 to a
// conditional request). With JOBDIR/crawl.log it compares the (URI, status,
// digest) set and the duplicate:digest annotations with the WARCs' revisit
// records and their profiles (a 304 line is a server-not-modified one); with --cdxj it looks every
// response and revisit up in the index (offset, length, file, digest).
// Prints "N passed, M failed" and exits non-zero on any failure.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { WARCParser } from "warcio";

const args = process.argv.slice(2);
const jobdir = args[0];
const version = args.includes("--version") ? args[args.indexOf("--version") + 1] : "1.1";
const cdxjPath = args.includes("--cdxj") ? args[args.indexOf("--cdxj") + 1] : null;
let passed = 0, failed = 0;

function check(ok, what) {
	if (ok) passed++;
	else { failed++; console.error("FAIL: " + what); }
}

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function sha1b32(bytes) {
	const h = createHash("sha1").update(bytes).digest();
	let bits = 0, acc = 0, out = "";
	for (const b of h) {
		acc = (acc << 8) | b; bits += 8;
		while (bits >= 5) { bits -= 5; out += B32[(acc >>> bits) & 31]; }
	}
	return "sha1:" + out;
}

function splitHead(block) {
	for (let i = 0; i + 3 < block.length; i++)
		if (block[i] === 13 && block[i + 1] === 10 && block[i + 2] === 13 && block[i + 3] === 10)
			return [block.subarray(0, i + 4), block.subarray(i + 4)];
	return [block, new Uint8Array()];
}

const TYPES = new Set(["warcinfo", "response", "resource", "request", "metadata", "revisit", "conversion", "continuation"]);
const dateRe = version === "1.0" ? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/ : /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;
const warcDir = jobdir + "/warcs";
const files = readdirSync(warcDir).sort();
check(files.length > 0, "no WARC files in " + warcDir);
check(!files.some((f) => f.endsWith(".open")), "a .open file is left: " + files.join(" "));
const nameRe = /^[^-]+-\d{17}-\d{5}-\d+~[^~]+~\d+\.warc\.gz$/;
const records = [];
const ids = new Set();

for (const file of files.filter((f) => f.endsWith(".warc.gz"))) {
	check(nameRe.test(file), "file name pattern: " + file);
	const data = readFileSync(warcDir + "/" + file);
	const parser = new WARCParser([data], { parseHttp: false, keepHeadersCase: true });
	let first = true, warcinfoId = null;
	for await (const rec of parser) {
		const block = await rec.readFully();
		const h = (n) => rec.warcHeaders.headers.get(n);
		const r = { file, type: rec.warcType, id: h("WARC-Record-ID"), uri: h("WARC-Target-URI"),
			date: h("WARC-Date"), pd: h("WARC-Payload-Digest"), h, block,
			offset: parser.offset };
		r.length = parser.recordLength;
		const where = `${file}@${r.offset} (${r.type} ${r.uri ?? ""})`;
		check(rec.warcHeaders.protocol === "WARC/" + version, where + ": version line " + rec.warcHeaders.protocol);
		check(TYPES.has(r.type), where + ": record type");
		check(/^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$/.test(r.id ?? ""), where + ": WARC-Record-ID " + r.id);
		check(!ids.has(r.id), where + ": duplicate record id");
		ids.add(r.id);
		check(dateRe.test(r.date ?? ""), where + ": WARC-Date " + r.date);
		check(Number(h("Content-Length")) === block.length, where + ": Content-Length");
		check(h("WARC-Block-Digest") === sha1b32(block), where + ": WARC-Block-Digest");
		check(r.uri === undefined || r.uri === null || !r.uri.startsWith("<"), where + ": bracketed Target-URI");
		// The member alone is a complete gzip file holding exactly this record.
		const member = gunzipSync(data.subarray(r.offset, r.offset + r.length));
		check(member.subarray(0, 10).toString() === "WARC/" + version + "\r\n" && member.subarray(-4).toString() === "\r\n\r\n" &&
			member.length === member.indexOf("\r\n\r\n") + 4 + block.length + 4, where + ": not one record per gzip member");
		if (first) {
			check(r.type === "warcinfo", file + ": first record is " + r.type);
			check(h("WARC-Filename") === file, file + ": WARC-Filename " + h("WARC-Filename"));
			check(h("Content-Type") === "application/warc-fields", file + ": warcinfo Content-Type");
			check(new TextDecoder().decode(block).includes(`format: WARC File Format ${version}`), file + ": warcinfo format");
			warcinfoId = r.id;
			first = false;
		} else {
			check(h("WARC-Warcinfo-ID") === warcinfoId, where + ": WARC-Warcinfo-ID");
		}
		if (r.type === "response" || r.type === "revisit" || r.type === "request") {
			const isDns = r.uri.startsWith("dns:");
			const ct = h("Content-Type");
			if (isDns) {
				check(ct === "text/dns", where + ": dns Content-Type");
			} else {
				check(ct === "application/http;msgtype=" + (r.type === "request" ? "request" : "response"), where + ": Content-Type " + ct);
				const [head, payload] = splitHead(block);
				r.head = new TextDecoder("latin1").decode(head);
				r.status = r.type === "request" ? null : r.head.split(" ")[1];
				if (r.type === "response")
					check(r.pd === sha1b32(payload), where + ": WARC-Payload-Digest");
				if (r.type === "revisit") {
					const profile = h("WARC-Profile");
					check(payload.length === 0, where + ": revisit block holds more than headers");
					if (profile === `http://netpreserve.org/warc/${version}/revisit/server-not-modified`) {
						check(r.status === "304", where + ": server-not-modified revisit of a " + r.status);
						check(!h("WARC-Truncated"), where + ": server-not-modified revisit is not truncated");
						r.profile = "server-not-modified";
					} else {
						check(profile === `http://netpreserve.org/warc/${version}/revisit/identical-payload-digest`, where + ": WARC-Profile " + profile);
						check(h("WARC-Truncated") === "length", where + ": revisit WARC-Truncated");
						r.profile = "digest";
					}
				}
				check(!/^transfer-encoding:/im.test(r.head) || r.type === "request", where + ": Transfer-Encoding left in a stored head with a de-chunked body");
			}
		}
		if (r.type === "request" || r.type === "metadata")
			r.concurrentTo = h("WARC-Concurrent-To");
		records.push(r);
	}
	check(!first, file + ": no records");
}

// Linkage: one request per HTTP response or revisit, in the same file, same
// URI and date; metadata tied to a response or revisit.
const byId = new Map(records.map((r) => [r.id, r]));
const captures = records.filter((r) => (r.type === "response" || r.type === "revisit") && !r.uri.startsWith("dns:"));
const requestsFor = new Map();
for (const r of records.filter((x) => x.type === "request" || x.type === "metadata")) {
	const target = byId.get(r.concurrentTo);
	check(target && (target.type === "response" || target.type === "revisit"), `${r.type} ${r.uri}: WARC-Concurrent-To ${r.concurrentTo}`);
	if (!target) continue;
	check(target.file === r.file && target.uri === r.uri && target.date === r.date, `${r.type} ${r.uri}: not in the set of its response`);
	if (r.type === "request") requestsFor.set(target.id, (requestsFor.get(target.id) ?? 0) + 1);
}
for (const c of captures)
	check(requestsFor.get(c.id) === 1, `${c.uri}: ${requestsFor.get(c.id) ?? 0} request records`);
// Revisits name an earlier response with the same payload digest.
for (const v of captures.filter((r) => r.type === "revisit")) {
	const orig = captures.find((r) => r.type === "response" && r.uri === v.h("WARC-Refers-To-Target-URI") && r.date === v.h("WARC-Refers-To-Date"));
	check(orig && orig.pd === v.pd, `revisit ${v.uri}: no original ${v.h("WARC-Refers-To-Target-URI")} ${v.h("WARC-Refers-To-Date")} with digest ${v.pd}`);
}

// The same records through warcio's own HTTP parsing and content decoding:
// the status it reads matches, and a de-chunked body is not re-dechunked.
for (const file of files) {
	const parser = new WARCParser([readFileSync(warcDir + "/" + file)]);
	for await (const rec of parser) {
		if (rec.warcType !== "response" || rec.warcTargetURI.startsWith("dns:")) { await rec.readFully(); continue; }
		const mine = captures.find((c) => c.id === rec.warcHeaders.headers.get("WARC-Record-ID"));
		check(mine && String(rec.httpHeaders.statusCode) === mine.status, `${rec.warcTargetURI}: warcio status ${rec.httpHeaders?.statusCode}`);
		const raw = splitHead(mine.block)[1];
		const content = await rec.readFully(true);
		if (!rec.httpHeaders.headers.get("Content-Encoding"))
			check(Buffer.compare(Buffer.from(content), Buffer.from(raw)) === 0, `${rec.warcTargetURI}: warcio decodes the stored body differently`);
		else
			check(content.length > 0, `${rec.warcTargetURI}: content coding not decodable`);
	}
}

// crawl.log equivalence.
if (existsSync(jobdir + "/crawl.log")) {
	const key = (u, s, d) => `${u} ${s} ${d}`;
	const fromWarc = new Set(captures.map((c) => key(c.uri, c.status, c.pd)));
	// Every capture written as a revisit has duplicate:digest (doc/formats.md,
	// "crawl.log"); a 304's is the server-not-modified profile, any other the
	// identical-payload-digest one.
	const dupWarc = new Set(captures.filter((c) => c.type === "revisit").map((c) => c.profile + " " + c.uri));
	const fromLog = new Set(), dupLog = new Set();
	for (const line of readFileSync(jobdir + "/crawl.log", "utf8").split("\n")) {
		const f = line.trim().split(/\s+/);
		if (f.length < 12 || !/^https?:/.test(f[3]) || Number(f[1]) <= 0) continue;
		fromLog.add(key(f[3], f[1], f[9]));
		for (const a of f[11].split(","))
			if (a === "duplicate:digest")
				dupLog.add((f[1] === "304" ? "server-not-modified" : "digest") + " " + f[3]);
	}
	for (const k of fromLog) check(fromWarc.has(k), "crawl.log entry without a WARC record: " + k);
	for (const k of fromWarc) check(fromLog.has(k), "WARC record without a crawl.log entry: " + k);
	check([...dupLog].sort().join() === [...dupWarc].sort().join(), `duplicate: lines ${[...dupLog]} vs revisits ${[...dupWarc]}`);
}

// CDXJ: sorted bytewise, and every capture found with its exact location.
if (cdxjPath) {
	const lines = readFileSync(cdxjPath, "utf8").split("\n").filter((l) => l.length > 0);
	const sorted = [...lines].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
	check(lines.join("\n") === sorted.join("\n"), "CDXJ not sorted bytewise");
	check(lines.length === captures.length, `CDXJ has ${lines.length} lines for ${captures.length} captures`);
	const entries = lines.map((l) => {
		const m = /^(\S+) (\d{14}) (\{.*\})$/.exec(l);
		check(m !== null, "CDXJ line shape: " + l);
		return m ? { key: m[1], ts: m[2], j: JSON.parse(m[3]) } : null;
	}).filter(Boolean);
	for (const c of captures) {
		const e = entries.find((x) => x.j.url === c.uri && x.j.offset === String(c.offset) && x.j.filename === c.file);
		check(e !== undefined, "CDXJ lookup: " + c.uri);
		if (!e) continue;
		check(e.j.length === String(c.length), `${c.uri}: CDXJ length ${e.j.length} vs ${c.length}`);
		check("sha1:" + e.j.digest === c.pd, `${c.uri}: CDXJ digest`);
		check(e.ts === c.date.replace(/[-:T]/g, "").slice(0, 14), `${c.uri}: CDXJ timestamp`);
		check(e.j.status === c.status, `${c.uri}: CDXJ status`);
		check(c.type !== "revisit" || e.j.mime === "warc/revisit", `${c.uri}: CDXJ revisit mime`);
		check(!e.key.includes("://"), `${c.uri}: CDXJ key keeps the scheme: ${e.key}`);
	}
}

console.log(`${records.length} records in ${files.length} files; ${captures.length} HTTP captures`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
