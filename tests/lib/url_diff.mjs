// The Node half of the URL differential test: resolves every pair of the
// pairs file with the WHATWG URL of Node (restricted to http and https, as
// url_resolve is), compares with the C driver's output, and fails on any
// difference not listed in the allowed-differences file.
//   node url_diff.mjs PAIRS C_OUTPUT ALLOWED
import { readFileSync } from 'node:fs';

const [pairsFile, cFile, allowedFile] = process.argv.slice(2);
const unesc = (s) => s.replace(/\\(.)/g, (m, c) =>
	c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c);
const pairs = readFileSync(pairsFile, 'utf8').split('\n').filter((l) => l !== '');
const cout = readFileSync(cFile, 'utf8').split('\n');
// Allowed lines: "ref-contains<TAB>SUBSTRING<TAB>reason" (SUBSTRING in the
// escaped ref), "ref-regex<TAB>REGEX<TAB>reason" (matching the escaped ref)
// or "pair<TAB>BASE<TAB>REF<TAB>reason" (escaped, exact).
const allowed = readFileSync(allowedFile, 'utf8').split('\n')
	.filter((l) => l !== '' && !l.startsWith('#')).map((l) => l.split('\t'));

function node(base, ref) {
	try {
		const u = base === '' ? new URL(ref) : new URL(ref, base);
		if (u.protocol !== 'http:' && u.protocol !== 'https:')
			return 'ERR';
		return u.href;
	} catch {
		return 'ERR';
	}
}

let diffs = 0, allowedDiffs = 0;
const used = new Set();
pairs.forEach((line, i) => {
	const tab = line.indexOf('\t');
	const b = line.slice(0, tab), r = line.slice(tab + 1);
	let want = node(unesc(b), unesc(r));
	if (want !== 'ERR' && want.length > 16384)
		want = 'ERR';
	const got = cout[i];
	if (got === want)
		return;
	const rule = allowed.findIndex((a) =>
		(a[0] === 'ref-contains' && r.includes(a[1])) ||
		(a[0] === 'ref-regex' && new RegExp(a[1], 'u').test(r)) ||
		(a[0] === 'pair' && a[1] === b && a[2] === r));
	if (rule >= 0) {
		allowedDiffs++;
		used.add(rule);
		return;
	}
	diffs++;
	if (diffs <= 50)
		console.log(`DIFF base=${JSON.stringify(unesc(b))} ref=${JSON.stringify(unesc(r))}\n` +
			`  node: ${want}\n  tern: ${got}`);
});
console.log(`url_diff: ${pairs.length} pairs compared, ${allowedDiffs} allowed ` +
	`differences (${used.size} rules), ${diffs} unlisted differences`);
process.exit(diffs === 0 && cout.length >= pairs.length ? 0 : 1);
