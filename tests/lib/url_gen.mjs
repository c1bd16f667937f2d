// Writes the (base, ref) pairs of the URL differential test to stdout, one
// "base<TAB>ref" line each with \t \n \r \\ escaped: every real-world link
// of url_real.txt against several bases, then random compositions of tricky
// pieces (deterministic: a fixed-seed generator, so that failures repeat).
import { readFileSync } from 'node:fs';

const count = Number(process.argv[3] || 6000);
const real = readFileSync(process.argv[2], 'utf8').split('\n')
	.filter((l) => l !== '' && !l.startsWith('#'))
	.map((l) => l.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (m, c) =>
		c[0] === 'u' && c.length === 5 ? String.fromCharCode(parseInt(c.slice(1), 16)) :
		c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c));

const bases = [
	'http://example.com/a/b/c?q=1#f',
	'https://Example.COM:443/dir/file.html',
	'http://a/b/c/d;p?q',
	'http://h',
	'http://user:pw@h.example:8080/x/y/',
	'http://127.0.0.1/a',
	'http://[::1]/a/b',
	'https://xn--mnchen-3ya.de/%7Efoo/bar',
	'http://h.example/a?x#y',
	'https://www.example.org/',
	'',
];

let seed = 0x2545f491;
function rnd(n) {
	// xorshift32: small, deterministic, good enough to mix the pieces.
	seed ^= seed << 13; seed >>>= 0;
	seed ^= seed >>> 17;
	seed ^= seed << 5; seed >>>= 0;
	return seed % n;
}
const pick = (a) => a[rnd(a.length)];

const ws = ['', '', '', ' ', '\t', '\n', '\x00', '\x1f ', ' \r\n'];
const schemes = ['', '', 'http:', 'https:', 'HTTP:', 'hTtPs:', 'h\ttp:', 'javascript:',
	'mailto:', 'ftp:', 'data:', 'file:', 'ws:', 'x-y+z.1:'];
const slashes = ['', '/', '//', '//', '//', '\\', '\\\\', '/\\', '\\/', '///', '////'];
const users = ['', '', '', '%41%zz@', 'u%3Ap@', 'a/b@', 'a?b@', 'a#b@', 'u@', 'u:p@', '@', 'a@b@', 'u%20:p@', '\u00fc:@', 'a b:c@',
	':p@', 'u:@', 'a:b:c@', 'x;y=z@', 'a[b]@'];
const hosts = ['example.org', 'EXAMPLE.org', 'www.example.org', '127.1', '0x7f.1',
	'2130706433', '0177.0.0.1', '1.2.3.4.5', '256.1', '1.256', '0x100000000',
	'4294967295', '1.2.3.', '1.2..3', '0x', '0xg.1', '09.1', '08', '[::1]',
	'[1:2::3]', '[::ffff:1.2.3.4]', '[1::2::3]', '[gg::]', '[1:2:3:4:5:6:7:8]',
	'[1:2:3:4:5:6:7:8:9]', '[::1.2.3]', '[::1.2.3.04]', '[0:0:0:0:0:0:0:0]',
	'[1:0:0:2:0:0:0:3]', '[::1', 'm\u00fcnchen.de', 'M\u00dcNCHEN.DE',
	'xn--mnchen-3ya.de', 'xn--abc.com', 'fa\u00df.de', '\u2603.net', 'a_b.com',
	'ex%41mple.com', 'ex%zzample.com', '%2e', 'a..b', '.', 'a.b.', 'a<b', 'a%00b',
	'ab--c.com', '\uff21.com', 'a\u3002b', 'a\uff0eb', '', ' host', 'h\u00e9.example',
	'xn--n3h.net', 'a^b', 'a|b', 'a%b', '\u0661.com', 'xn--', 'x\u200dy.com',
	'[::]', '[0:0::0:1]', '[::ffff:0:0]', '[1:2:3:4:5:6:1.2.3.4]', '[1:2:3:4:5:6:7:1.2.3.4]',
	'[ABCD::EF]', '[::0001]', '[::00001]', '[1::]', '[:1]', '[1:]', '[::1%25eth0]',
	'0x7fffffff', '0.0.0.0', '00000', '0x0.0x0', '1.0x', '1.2.3.0x100', '1.2.0377.4',
	'\u00df', '\u03c2.gr', 'a\u200cb', '\u0130.com', 'xn--fa-hia.de', 'XN--FA-HIA.de',
	'\ud83d\udca9.la', '%F0%9F%92%A9.la', '%C3%BC.de', '%c3.de', 'a%2Eb', 'a%252eb',
	'\u00ad.com', 'a\u00adb.com', 'ab\u0308c.de', 'xn--mnchen-3ya.xn--de'];
const ports = ['', '', '', ':', ':80', ':443', ':8080', ':00080', ':99999', ':65535',
	':65536', ':-1', ':1a', ':0'];
const segs = ['a', 'b', '.', '..', '%2e', '%2E%2e', '.%2e', '%2e.', '', 'a b', '\u00e9',
	'{x}', '^|`', '%', '%zz', 'a;b=c', '"<>', '\x01\x7f', 'a\tb', '..\\..',
	'c.html', '~u', '%41', '?', '@', ':'];
const queries = ['', '', '?', '?a=b', '?a b', "?'\"", '?\u00e9', '?a=1&b=2', '?%',
	'??', '?a=`{}`', '?\x01', '?/../x'];
const frags = ['', '', '#', '#f', '#a b', '#`{}', '#\u00e9', '##', '#"<>', '#\x7f'];

function path() {
	let p = '';
	const n = rnd(5);
	for (let i = 0; i < n; i++)
		p += (i > 0 || rnd(3) > 0 ? pick(['/', '/', '\\']) : '') + pick(segs);
	return p;
}

function absolute() {
	return pick(ws) + pick(schemes) + pick(slashes) + pick(users) + pick(hosts) +
		pick(ports) + path() + pick(queries) + pick(frags) + pick(ws);
}

function relative() {
	const head = pick(['', '', '/', '//', '\\', '\\\\', './', '../', '../../', 'http:',
		'https:', 'HTTP:']);
	return pick(ws) + head + path().replace(/^[/\\]/, '') + pick(queries) +
		pick(frags) + pick(ws);
}

const esc = (s) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n')
	.replace(/\r/g, '\\r');
const out = [];
for (const b of bases)
	for (const r of real)
		out.push(esc(b) + '\t' + esc(r));
for (let i = 0; i < count; i++)
	out.push(esc(pick(bases)) + '\t' + esc(rnd(2) ? absolute() : relative()));
process.stdout.write(out.join('\n') + '\n');
