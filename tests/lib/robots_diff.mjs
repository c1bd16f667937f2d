// Differential test of tern's robots.txt parser (through tests/robots_driver)
// against the npm package robots-parser, over generated robots.txt files and
// paths plus the examples of RFC 9309.
//
// Where tern deliberately differs, tests/lib/robots_diff_allowed.txt names the
// difference and its RFC reason. Each name here has a rewrite of the input
// that makes robots-parser behave as tern means to (for example, decoding
// escaped unreserved characters before robots-parser sees them). A verdict
// that differs is explained only if robots-parser, given the input rewritten
// by some of the listed differences, agrees with tern; the smallest such set
// is reported. Anything else fails the test.
//
// usage: node robots_diff.mjs DRIVER ALLOWED_FILE
// env: ROBOTS_DIFF_SEED (default 9309), ROBOTS_DIFF_CASES (default 1500)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Robots = require('robots-parser');

const [driver, allowedFile] = process.argv.slice(2);
if (!driver || !allowedFile) {
	console.error('usage: node robots_diff.mjs DRIVER ALLOWED_FILE');
	process.exit(2);
}
const seed = Number(process.env.ROBOTS_DIFF_SEED || 9309);
const ncases = Number(process.env.ROBOTS_DIFF_CASES || 1500);
const ORIGIN = 'http://example.com';
const CAP = 500 * 1024;

// --- deterministic generation -------------------------------------------
let rngState = seed >>> 0;
function rnd() {
	rngState = (rngState + 0x6d2b79f5) >>> 0;
	let t = rngState;
	t = Math.imul(t ^ (t >>> 15), t | 1);
	t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
	return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rnd() * a.length)];
const chance = (p) => rnd() < p;
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));

const UA_VALUES = ['tern', 'Tern', 'TERN', 'tern/1.0', 'Tern/2.1 (+http://x.org/bot)', '*', '*',
	'otherbot', 'googlebot', 'ternbot', 'tern-x'];
const UA_SPICY = ['tern bot', '* everyone', 'tern;v=2', '', 'tern2', '*/1.0'];
const KEYS = {
	ua: ['User-agent', 'user-agent', 'USER-AGENT', 'User-Agent'],
	allow: ['Allow', 'allow', 'ALLOW'],
	disallow: ['Disallow', 'disallow', 'DISALLOW'],
	delay: ['Crawl-delay', 'crawl-delay'],
	other: ['Sitemap', 'Host', 'Noindex', 'Clean-param', 'X-Unknown'],
};
// Plain tokens first: most generated cases use only these, so agreement is
// the common outcome and differences stand out.
const PLAIN = ['a', 'b', 'ab', 'foo', 'bar', 'x', '.gif', '.html', '-', '_', '.', '~', '!', ',', ';',
	'=', '&', '+', '@', ':', '(', ')', "'", 'q=1', '/', '/', '/'];
const SPICY = ['%2F', '%2f', '%41', '%7e', '%7E', '%61b', '%C3%A9', '%c3%a9', '\u00e9', '\u00fc',
	'\u30c4', ' ', '[', ']', '|', '^', '`', '{', '}', '"', '<', '>', '%', '%zz', '%2', '%25', '\\',
	'\t', '\u0000'];
const DELAYS = ['1', '2', '0.5', '10', '0', '3.25', '', 'abc', '5s', '-1', '1e3', '0x10', '100000'];

function token(spicy) {
	return spicy && chance(0.25) ? pick(SPICY) : pick(PLAIN);
}

function genPattern(spicy) {
	let s = chance(0.85) ? '/' : pick(['*', '', 'x', '$']);
	const n = int(0, 4);
	for (let i = 0; i < n; i++) {
		if (chance(0.15)) s += '*';
		s += token(spicy);
	}
	if (chance(0.15)) s += '$';
	if (chance(0.05)) s += '$x';
	return s;
}

function ws() {
	return pick(['', '', '', ' ', '  ', '\t', ' \t']);
}

function genBody(spicy) {
	const eol = pick(['\n', '\n', '\r\n', '\r']);
	const lines = [];
	if (chance(0.05)) lines.push('Disallow: ' + genPattern(spicy));
	const groups = int(0, 5);
	for (let g = 0; g < groups; g++) {
		const nua = int(1, 3);
		for (let i = 0; i < nua; i++) {
			lines.push(ws() + pick(KEYS.ua) + ws() + ':' + ws() +
				(spicy && chance(0.3) ? pick(UA_SPICY) : pick(UA_VALUES)) + ws());
			if (spicy && chance(0.1)) lines.push('');
			if (spicy && chance(0.08)) lines.push(pick(KEYS.other) + ': http://example.com/s.xml');
		}
		const nrules = int(0, 6);
		for (let i = 0; i < nrules; i++) {
			const r = rnd();
			if (r < 0.45) lines.push(pick(KEYS.disallow) + ws() + ':' + ws() + genPattern(spicy) + ws());
			else if (r < 0.8) lines.push(pick(KEYS.allow) + ws() + ':' + ws() + genPattern(spicy) + ws());
			else if (r < 0.87) lines.push(pick(KEYS.delay) + ':' + ws() + pick(DELAYS));
			else if (r < 0.92) lines.push(pick(KEYS.disallow) + ':');
			else if (r < 0.96) lines.push('# ' + genPattern(spicy));
			else lines.push(spicy ? pick(KEYS.other) + ': ' + genPattern(spicy) : '');
		}
		if (chance(0.3)) lines.push('');
	}
	if (spicy && chance(0.1)) lines.push('Disallow ' + genPattern(spicy));
	let body = lines.join(eol) + (chance(0.8) ? eol : '');
	if (spicy && chance(0.05)) body = '\ufeff' + body;
	return body;
}

// A path that the rules are likely to match: a pattern with its wildcards
// filled in.
function pathFromPattern(p) {
	let s = p.replace(/\$$/, '').replace(/\*/g, () => (chance(0.5) ? '' : token(false) + token(false)));
	if (!s.startsWith('/')) s = '/' + s;
	if (chance(0.3)) s += token(false);
	return s;
}

function genPath(spicy) {
	let s = '/' + pick(['a', 'b', 'foo', 'x', 'ab', 'example', 'p']);
	const n = int(0, 5);
	for (let i = 0; i < n; i++) s += token(spicy);
	if (chance(0.15)) s += '?' + token(spicy) + '=' + token(spicy);
	return s;
}

// What tern is handed: the path and query of the URL a browser would
// request, which robots-parser derives the same way.
function pathQuery(raw) {
	let u;
	try {
		u = new URL(raw, ORIGIN + '/');
	} catch {
		return null;
	}
	if (u.host !== 'example.com') return null;
	return u.pathname + u.search;
}

// --- cases ------------------------------------------------------------------
const cases = [];
function addCase(body, agent, rawPaths) {
	const paths = [];
	for (const raw of rawPaths) {
		const pq = pathQuery(raw);
		if (pq !== null) paths.push(pq);
	}
	cases.push({ body, agent, paths });
}

const RFC_5_1 = 'User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\n' +
	'User-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\n' +
	'User-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\nUser-Agent: quxbot\n';
const RFC_5_2 = 'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n';
const RFC_PATHS = ['/', '/example/', '/example/page.html', '/example/page.htm', '/example/allowed.gif',
	'/example/other.gif', '/a.gif', '/a.gif?x', '/publications/', '/publications/x.gif', '/example/page/',
	'/example/page/disallowed.gif', '/example/page/allowed.gif', '/robots.txt'];
for (const agent of ['foobot', 'barbot', 'bazbot', 'quxbot', 'tern']) {
	addCase(RFC_5_1, agent, RFC_PATHS);
	addCase(RFC_5_2, agent, RFC_PATHS);
}
addCase('User-agent: *\nDisallow: /foo/bar/%62%61%7A\nDisallow: /foo/bar/\u30c4\n' +
	'Disallow: /foo/bar?baz=https://foo.bar\nDisallow: /this/path/exactly$\nDisallow: /this/*/exactly\n',
	'tern', ['/foo/bar/baz', '/foo/bar/%E3%83%84', '/foo/bar/\u30c4', '/foo/bar?baz=https://foo.bar',
		'/this/path/exactly', '/this/path/exactly/x', '/this/a/b/exactly', '/foo/bar']);

// Edge cases.
addCase('', 'tern', ['/', '/a']);
addCase('# only\n# comments\n', 'tern', ['/', '/a']);
addCase('User-agent: *\nDisallow: /\n', 'tern', ['/', '/robots.txt', '/robots.txt?x', '/a']);
addCase('User-agent: tern\u0000\nDisallow: /a\u0000b\n', 'tern', ['/a\u0000b', '/a']);
{
	let big = 'User-agent: *\nDisallow: /early\n';
	while (big.length < CAP - 30) big += '# padding padding padding padding padding\n';
	big += 'Disallow: /straddling-the-cap\nDisallow: /late\n';
	addCase(big, 'tern', ['/early', '/straddling-the-cap', '/stra', '/late']);
	addCase('User-agent: *\nDisallow: /' + 'a'.repeat(100000) + '\n', 'tern',
		['/' + 'a'.repeat(100000), '/' + 'a'.repeat(99999)]);
}

for (let i = 0; i < ncases; i++) {
	const spicy = i % 3 === 2;
	const body = genBody(spicy);
	const paths = [];
	const pats = [...body.matchAll(/allow\s*:\s*([^\r\n#]*)/gi)].map((m) => m[1].trim());
	for (let j = 0; j < 12; j++) paths.push(genPath(spicy));
	for (const p of pats) paths.push(pathFromPattern(p));
	for (let j = 0; j < 3 && pats.length; j++) paths.push(pathFromPattern(pick(pats)));
	addCase(body, chance(0.9) ? 'tern' : 'otherbot', paths);
}

// --- tern's answers ---------------------------------------------------------
const chunks = [];
for (const c of cases) {
	const body = Buffer.from(c.body, 'utf8');
	const agent = Buffer.from(c.agent, 'utf8');
	chunks.push(Buffer.from(`C ${agent.length} ${body.length} ${c.paths.length}\n`), agent, body);
	for (const p of c.paths) {
		const b = Buffer.from(p, 'utf8');
		chunks.push(Buffer.from(`${b.length}\n`), b);
	}
}
const run = spawnSync(driver, [], { input: Buffer.concat(chunks), maxBuffer: 1 << 28 });
if (run.status !== 0) {
	console.error(`robots_diff: driver failed (${run.status}): ${run.stderr}`);
	process.exit(1);
}
const outLines = run.stdout.toString().split('\n');

// --- the deliberate differences as input rewrites ---------------------------
function mapLines(body, fn) {
	return body.split(/(\r\n|\r|\n)/).map((part, i) => (i % 2 ? part : fn(part))).join('');
}
function fieldOf(line) {
	const noComment = line.split('#')[0];
	const idx = noComment.indexOf(':');
	if (idx < 0) return null;
	return { key: noComment.slice(0, idx).trim().toLowerCase(), value: noComment.slice(idx + 1).trim() };
}
const isUnreserved = (ch) => /^[A-Za-z0-9\-._~]$/.test(ch);
function decodeUnreserved(s) {
	return s.replace(/%([0-9A-Fa-f]{2})/g, (m, h) => {
		const ch = String.fromCharCode(parseInt(h, 16));
		return isUnreserved(ch) ? ch : m;
	});
}

const REWRITES = {
	'body-cap': {
		body(b) {
			const bytes = Buffer.from(b, 'utf8');
			if (bytes.length <= CAP) return b;
			let n = CAP;
			if (bytes[n] !== 0x0a && bytes[n] !== 0x0d) while (n > 0 && bytes[n - 1] !== 0x0a && bytes[n - 1] !== 0x0d) n--;
			return bytes.subarray(0, n).toString('utf8');
		},
	},
	'other-records': {
		body: (b) => mapLines(b, (line) => {
			const f = fieldOf(line);
			return f && !['user-agent', 'allow', 'disallow', 'crawl-delay'].includes(f.key) ? '' : line;
		}),
	},
	'ua-token': {
		body: (b) => mapLines(b, (line) => {
			const f = fieldOf(line);
			if (!f || f.key !== 'user-agent') return line;
			const v = /^\*(\s|$)/.test(f.value) ? '*' : (/^[A-Za-z0-9_-]*/.exec(f.value)[0]);
			return 'User-agent: ' + v;
		}),
	},
	'crawl-delay-syntax': {
		body: (b) => mapLines(b, (line) => {
			const f = fieldOf(line);
			if (!f || f.key !== 'crawl-delay') return line;
			if (!/^(\d+\.?\d*|\.\d+)$/.test(f.value)) return 'Crawl-delay: x';
			return Number(f.value) > 86400 ? 'Crawl-delay: 86400' : line;
		}),
	},
	'unreserved-decoding': { body: decodeUnreserved, path: decodeUnreserved },
	'path-escaping': {
		path: (p) => p.replace(/[\x00-\x20\x7f"<>[\\\]^`{|}]/g,
			(c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')),
	},
	'empty-specific-group': { body: (b) => b + '\nDisallow:\n' },
	'implicit-robots-txt': { verdict: (path) => (path === '/robots.txt' ? true : undefined) },
};
const ORDER = Object.keys(REWRITES);

const allowed = new Map();
for (const line of readFileSync(allowedFile, 'utf8').split('\n')) {
	const t = line.trim();
	if (!t || t.startsWith('#')) continue;
	const m = /^(\S+)\s+(.+)$/.exec(t);
	if (!m || !REWRITES[m[1]]) {
		console.error(`robots_diff: ${allowedFile}: unknown entry "${t}"`);
		process.exit(1);
	}
	allowed.set(m[1], m[2]);
}
const usable = ORDER.filter((k) => allowed.has(k));

function oracle(body, agent, path, set) {
	let b = body;
	let p = path;
	for (const k of ORDER) {
		if (!set.includes(k)) continue;
		if (REWRITES[k].verdict) {
			const v = REWRITES[k].verdict(path);
			if (v !== undefined) return { allowed: v };
		}
		if (REWRITES[k].body) b = REWRITES[k].body(b);
		if (REWRITES[k].path && p !== null) p = REWRITES[k].path(p);
	}
	const r = new Robots(ORIGIN + '/robots.txt', b);
	const d = r.getCrawlDelay(agent);
	return {
		allowed: p === null ? undefined : r.isAllowed(ORIGIN + p, agent),
		delay: d === undefined ? -1 : Math.round(d * 1000),
	};
}

// The smallest set of listed differences under which robots-parser agrees.
function explain(c, path, want) {
	const get = (set) => oracle(c.body, c.agent, path, set);
	const ok = (set) => (path === null ? get(set).delay === want : get(set).allowed === want);
	if (!ok(usable)) return null;
	let set = [...usable];
	for (const k of usable) {
		const smaller = set.filter((x) => x !== k);
		if (ok(smaller)) set = smaller;
	}
	return set;
}

let pairs = 0;
let agree = 0;
const explained = new Map();
const failures = [];
cases.forEach((c, i) => {
	const line = outLines[i] || '';
	const m = /^(-?\d+) ([01]*)$/.exec(line);
	if (!m || m[2].length !== c.paths.length) {
		failures.push(`case ${i}: driver output "${line.slice(0, 80)}"`);
		return;
	}
	const base = oracle(c.body, c.agent, null, []);
	const tally = (why, what) => {
		if (why === null) failures.push(what);
		else for (const k of why) explained.set(k, (explained.get(k) || 0) + 1);
	};
	const delay = Number(m[1]);
	if (base.delay !== delay) {
		tally(explain(c, null, delay),
			`case ${i} agent ${c.agent}: crawl delay tern ${delay} ms, robots-parser ${base.delay} ms\n${JSON.stringify(c.body)}`);
	}
	c.paths.forEach((p, j) => {
		pairs++;
		const ours = m[2][j] === '1';
		const theirs = oracle(c.body, c.agent, p, []).allowed;
		if (ours === theirs) {
			agree++;
			return;
		}
		tally(explain(c, p, ours),
			`case ${i} agent ${c.agent} path ${JSON.stringify(p)}: tern ${ours}, robots-parser ${theirs}\n${JSON.stringify(c.body)}`);
	});
});

console.log(`robots_diff: seed ${seed}, ${cases.length} robots.txt files, ${pairs} (file, path) pairs, ` +
	`${agree} identical verdicts`);
for (const k of ORDER) {
	if (explained.has(k)) console.log(`  deliberate difference ${k}: ${explained.get(k)}`);
}
if (failures.length) {
	console.log(`robots_diff: ${failures.length} unexplained differences; first ones:`);
	for (const f of failures.slice(0, 15)) console.log('  ' + f);
	process.exit(1);
}
console.log('robots_diff: no unexplained difference');
