// The index of an extracted WACZ package, read with Node's zlib only (no
// tern code): either indexes/index.cdxj, or indexes/index.cdx.gz with
// indexes/index.idx. The compressed form: a !meta line, then one line per
// block, sorted, each naming its block's first "SURT TIMESTAMP", offset and
// length; the blocks contiguous from 0 to the end, each one gzip member of
// 3000 lines (the last of 1 to 3000). With the lines sorted across blocks,
// a reader that takes the last idx line whose key is not after the one it
// looks for finds it in that block (or, when the key spans blocks, in
// the next ones). Every line
// must be "SURT TIMESTAMP JSON", sorted, name a WARC under archive/, and its
// (offset, length) must be one gzip member of that WARC holding a record
// of the line's URL.
//   node wacz_validate.mjs DIR
// prints "plain N" or "compressed N BLOCKS" (N lines); exits 1 with the
// reason on the first fault.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = process.argv[2];
const fail = (m) => {
	console.error('FAIL: ' + m);
	process.exit(1);
};
const plain = path.join(dir, 'indexes/index.cdxj');
const gz = path.join(dir, 'indexes/index.cdx.gz');
const idx = path.join(dir, 'indexes/index.idx');
let lines, form;

if (fs.existsSync(plain)) {
	if (fs.existsSync(gz) || fs.existsSync(idx)) fail('both a plain and a compressed index');
	lines = fs.readFileSync(plain, 'utf8').split('\n');
	if (lines.pop() !== '') fail('index.cdxj does not end with a newline');
	form = 'plain';
} else {
	if (!fs.existsSync(gz) || !fs.existsSync(idx)) fail('no index.cdxj, nor index.cdx.gz with index.idx');
	const data = fs.readFileSync(gz);
	const ilines = fs.readFileSync(idx, 'utf8').split('\n');
	if (ilines.pop() !== '') fail('index.idx does not end with a newline');
	const meta = ilines.shift();
	if (!meta.startsWith('!meta 0 ')) fail('index.idx: no !meta line: ' + meta);
	const m = JSON.parse(meta.slice(8));
	if (m.format !== 'cdxj-gzip-1.0' || m.filename !== 'index.cdx.gz') fail('!meta: ' + meta);
	lines = [];
	const keys = [];
	let off = 0;
	for (const [b, l] of ilines.entries()) {
		const sp = l.indexOf(' {');
		const key = l.slice(0, sp), j = JSON.parse(l.slice(sp + 1));
		if (!/^\S+ \d{14}$/.test(key)) fail('idx key: ' + l);
		if (keys.length > 0 && key < keys[keys.length - 1]) fail('idx not sorted: ' + l);
		if (j.filename !== 'index.cdx.gz' || j.offset !== off || !(j.length > 0)) fail('idx line: ' + l);
		let block;
		try {
			const member = data.subarray(off, off + j.length);
			const one = zlib.gunzipSync(member);
			// One member: its trailer's size is the whole block's.
			if (member.readUInt32LE(member.length - 4) !== one.length % 2 ** 32)
				fail(`block at ${off}+${j.length} is more than one gzip member`);
			block = one.toString('utf8').split('\n');
		} catch (e) {
			fail(`block at ${off}+${j.length} is not gzip: ${e.message}`);
		}
		if (block.pop() !== '') fail(`block at ${off} does not end with a newline`);
		const last = b === ilines.length - 1;
		if (last ? block.length === 0 || block.length > 3000 : block.length !== 3000)
			fail(`block ${b} at ${off}: ${block.length} lines`);
		if (!block[0].startsWith(key + ' {')) fail(`block at ${off} starts '${block[0].slice(0, 80)}', idx says '${key}'`);
		keys.push(key);
		lines.push(...block);
		off += j.length;
	}
	if (off !== data.length) fail(`the blocks cover ${off} of ${data.length} bytes`);
	if (ilines.length === 0) fail('index.idx names no block');
	form = `compressed ${lines.length} ${ilines.length}`;
}

const warcs = new Map();
let prev = '';
for (const l of lines) {
	const m = /^(\S+) (\d{14}) (\{.*\})$/.exec(l);
	if (!m) fail('not a CDXJ line: ' + l);
	if (l < prev) fail('not sorted: ' + l);
	prev = l;
	const j = JSON.parse(m[3]);
	if (!warcs.has(j.filename)) {
		const f = path.join(dir, 'archive', j.filename);
		if (!fs.existsSync(f)) fail(`${j.filename} is not under archive/`);
		warcs.set(j.filename, fs.readFileSync(f));
	}
	const w = warcs.get(j.filename), off = Number(j.offset), len = Number(j.length);
	let rec;
	try {
		rec = zlib.gunzipSync(w.subarray(off, off + len)).toString('latin1');
	} catch (e) {
		fail(`${j.url}: no gzip member at ${j.filename} ${off}+${len}`);
	}
	const head = rec.slice(0, rec.indexOf('\r\n\r\n'));
	if (!head.includes(`\r\nWARC-Target-URI: ${j.url}\r\n`)) fail(`${j.url}: the record at ${off} is another's`);
}
console.log(form === 'plain' ? `plain ${lines.length}` : form);
