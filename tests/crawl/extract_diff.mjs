// Differential test of tern's link extractor against parse5, the reference
// HTML5 parser. Two commands, driven by tests/crawl/extract_diff.sh:
//   node extract_diff.mjs gen DIR COUNT SEED   write generated pages to DIR
//   node extract_diff.mjs compare DIR ALLOWED  compare DIR/*.html with the
//                                              extractor's DIR/*.html.out
// The parse5 side parses the page into a tree (scripting disabled, so
// <noscript> content is markup, as tern reads it), walks every element in
// source order (template contents included), collects the same attributes
// under the same rules as src/crawl/extract.c, and resolves both sides' links with
// Node's URL against a fixed page URL. Links are compared as sets of
// "hop absolute-URL" lines, plus the meta robots flags. A difference must be
// listed in ALLOWED ("page-glob TAB +|- TAB line-glob TAB reason", + for a
// line only tern reports, - for one only parse5 reports) or the test fails.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'parse5';

const PAGE = 'http://example.com/dir/page.html?q=1';

// ---- a small deterministic PRNG (mulberry32) ----
function rng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6D2B79F5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

// ---- the generator: random compositions of tricky constructs ----
function generate(r, id) {
	let n = 0;
	const pick = (a) => a[Math.floor(r() * a.length)];
	const chance = (p) => r() < p;
	const url = () => {
		n++;
		return pick([
			`/p${id}/${n}.html`, `u${n}.html`, `../up${n}/`, `?q=${n}`, `#f${n}`,
			`//other.example/${n}`, `http://abs.example/${n}?a=1&amp;b=2`,
			`x${n}.html?a=1&copy=2&reg_id=${n}&lang=en&not_x=1`,
			`e&#x2F;${n}&#47;&#0;&#x110000;&#128;&#X41;&#65`,
			`  \t sp${n}.html \n `, `tab\t${n}\nnl.html`, `&quot;q${n}&QUOT;&AMP;`,
			`caf\u00e9${n}/\u65e5\u672c`, `nul\0${n}`, `a b ${n}.html`,
			`javascript:void(${n})`, `mailto:x${n}@example.com`, `data:text/plain,${n}`,
			`&notin;&notit;&ampx&amp;${n}`, `HTTP://UP.EXAMPLE/${n}`, `\\back\\${n}`,
		]);
	};
	const q = (v) => {
		const k = pick(['"', "'", '', '"', '"']);
		if (k === '') {
			v = v.replace(/[\s>"'=<`]/g, '');
			if (v === '')
				v = `e${n}`;
		} else {
			v = v.split(k).join('');
		}
		return `${k}${v}${k}`;
	};
	const cas = (s) => chance(0.2) ? s.toUpperCase() : s;
	const eq = () => pick(['=', '=', ' = ', '\n=\t']);
	const attr = (name, v) => ` ${cas(name)}${eq()}${q(v)}`;
	const css = () => {
		const u = url().replace(/[\0]/g, '');
		return pick([
			`a{background:url(${u.replace(/[\s"'()\\]/g, '')})}`,
			`b{background:url( "${u.replace(/["\n\\]/g, '')}" )}`,
			`c{background:URL('${u.replace(/['\n\\]/g, '')}')}`,
			`@import "${u.replace(/["\n\\]/g, '')}";`,
			`@import url(${u.replace(/[\s"'()\\]/g, '')}) screen;`,
			`/* url(no${n}.png) */`, `d{x:"url(no${n})"}`,
			`e{background:url(bad url${n}.png)}`, `f{background:url("esc\\61 pe${n}.png")}`,
			`g{background:url(es\\63 ape${n}.png)}`, `h{content:"str\\"ing${n}"}`,
			`i{background:url("bad\nstring${n}")}`, `#url(no${n}) x{}`, `5url(n${n})`,
			`@IMPORT '${u.replace(/['\n\\]/g, '')}'`, `j{background:xurl(n${n})}`,
		]);
	};
	const frags = [
		() => `<a${attr('href', url())}>t</a>`,
		() => `<A${attr('HREF', url())}${attr('href', url())}>dup</A>`,
		() => `<area${attr('href', url())}${chance(0.3) ? attr('rel', 'NoFollow') : ''}>`,
		() => `<link${attr('rel', pick(['stylesheet', 'icon', 'shortcut icon', 'canonical', 'alternate', 'dns-prefetch', 'preconnect', 'pingback', 'preload', 'Next', 'alternate stylesheet']))}${attr('href', url())}>`,
		() => `<link${attr('href', url())}>`,
		() => `<img${attr('src', url())}${chance(0.5) ? attr('srcset', `${url()} 1x, ${url()} 2x,${url()},, ${url()} 100w (a,b), ${url()}`) : ''}>`,
		() => `<image${attr('src', url())}>`,
		() => `<picture><source${attr('srcset', `${url()} 1x`)}${attr('src', url())}></picture>`,
		() => `<script${attr('src', url())}></script>`,
		() => `<iframe${attr('src', url())}><a href="${url()}"></iframe>`,
		() => `<embed${attr('src', url())}><object${attr('data', url())}></object>`,
		() => `<video${attr('src', url())}${attr('poster', url())}><track${attr('src', url())}></video><audio${attr('src', url())}></audio>`,
		() => `<base${attr('href', pick(['/b1/', 'http://base.example/x/', '../b2/', '', 'http://[bad/']))}>`,
		() => `<meta${attr('http-equiv', pick(['refresh', 'Refresh', 'content-type']))}${attr('content', pick([`0; url=${url()}`, `5;URL='${url()}'`, `3, ${url()}`, `1.5 url = "${url()}"`, `x; url=${url()}`, `7`, `0;u${url()}`, `0; urx=${url()}`]).replace(/"/g, ''))}>`,
		() => `<meta${attr('name', pick(['robots', 'ROBOTS', 'googlebot']))}${attr('content', pick(['noindex', 'nofollow', 'none', 'index, follow', 'NOINDEX,NOFOLLOW']))}>`,
		() => `<p${attr('style', css().replace(/["']/g, ''))}>s</p>`,
		() => `<div style="${css().replace(/"/g, "'")}">s</div>`,
		() => `<style>${css()} ${css()}</style>`,
		() => `<style>a{b:url(</abcdefghijklmnopqrstuvw${n}.png)}</styl</STYLES</style>`,
		() => `<style>${css()}</sty${pick(['le>', 'lex>', 'LE >', 'le foo=">">'])}${css()}</style>`,
		() => `<!-- <a href="${url()}"> -->`, () => `<!--><a href="${url()}">`,
		() => `<!---><a href="${url()}">`, () => `<!-- x --!><a href="${url()}">`,
		() => `<!-- <!-- <a href=${url()}> -- > --->`, () => `<?php <a href="x"> ?><a href="${url()}">`,
		() => `<!x <a href=no${n}>`, () => `</ <a href=no${n}>`, () => `</><a href="${url()}">`,
		() => `<!DOCTYPE html PUBLIC "a>b"><a href="${url()}">`, () => `<![CDATA[ x > <a href="${url()}"> ]]>`,
		() => `<title><a href="${url()}"></title>`, () => `<textarea><a href="${url()}"></textarea>`,
		() => `<xmp><a href="${url()}"></xmp>`, () => `<noembed><a href="${url()}"></noembed>`,
		() => `<noframes><a href="${url()}"></noframes>`, () => `<noscript><a href="${url()}"></noscript>`,
		() => `<script>var a="<a href='${url()}'>";</script>`,
		() => `<script><!--<script></script><a href="${url()}"></script>--></script>`,
		() => `<script><!-- x --><a href=no></script>`, () => `<script><!--></script><a href="${url()}">`,
		() => `<svg><a href="${url()}"><circle/></a><style><a href="${url()}"></style></svg>`,
		() => `<svg><![CDATA[ <a href="${url()}"> ]]></svg>`,
		() => `<svg><foreignObject><style>a{b:url(${url().replace(/[\s"'()\\]/g, '')})}</style></foreignObject></svg>`,
		() => `<svg><title><a href="${url()}"></title><desc><img src="${url()}"></desc></svg>`,
		() => `<math><mi><style>x{}</style></mi><mtext><a href="${url()}"></mtext></math>`,
		() => `<svg><g><p><a href="${url()}"></p></g></svg>`, () => `<svg><image href="${url()}"/><script>x</script></svg>`,
		() => `<svg><base href="/svgbase/"></svg>`,
		() => `<table><a href="${url()}"><tr><td><img src="${url()}"></td></tr></table>`,
		() => `<template><a href="${url()}"><img src="${url()}"></template>`,
		() => `<a/href="${url()}">`, () => `<a href=${url().replace(/[\s>"'=<`]/g, '')}/>`,
		() => `<a =x href="${url()}">`, () => `<a href="${url()}"title="t"style="x:url(${url().replace(/[\s"'()\\]/g, '')})">`,
		() => `<a\0 href="${url()}"><a href\0="${url()}"><a hr\0ef="x">`,
		() => `< a href=no${n}><3 <a href="${url()}">`, () => `<a href="${url()}"<b>`,
		() => `<div><p>text &amp; more<br/><span>x</span></p></div>`, () => `<b><i><a href="${url()}">x</b></i>`,
		() => `<form${attr('action', url())}><input name=a></form>`, () => `<body${attr('background', url())}>`,
		() => `<div><svg><g><a href="${url()}"></div><style><a href="${url()}"></style>`,
		() => `<svg><g></span><style><a href="${url()}"></style></svg>`,
		() => `<svg><g></foo><style><a href="${url()}"></style></svg>`,
		() => `<svg><font color=red><style>a{b:url(${url().replace(/[\s"'()\\]/g, '')})}</style></svg>`,
		() => `<svg><font><style><a href="${url()}"></style></font></svg>`,
		() => `<math><annotation-xml encoding="Text/HTML"><style><a href="${url()}"></style></annotation-xml></math>`,
		() => `<math><annotation-xml><style><a href="${url()}"></style></annotation-xml></math>`,
		() => `<svg><desc><p></desc><style><a href="${url()}"></style></svg>`,
		() => `<svg><foreignObject><div><svg><style><a href="${url()}"></style></svg></div></foreignObject></svg>`,
		() => `<svg><title><svg><title><a href="${url()}"></title></svg></title></svg>`,
		() => `<math><mi><mglyph><style><a href="${url()}"></style></mglyph></mi></math>`,
		() => `<svg></p><style><a href="${url()}"></style>`, () => `<svg><br><style>x{}</style>`,
		() => `<SCRIPT>x</SCRIPT ><a href="${url()}"><STYLE>y{}</Style><a href="${url()}">`,
		() => `<a href=x${n}<b>`, () => `<a "href"=no${n} href="${url()}">`, () => `<a href='${url()}'href=no>`,
		() => `<img srcset="${url()} 1x,&#x20;${url()} 2x">`, () => `<p style="b:url(&quot;${url().replace(/[\s"'()\\&]/g, '')}&quot;)">`,
		() => `<table><tr><td><table><a href="${url()}"></table></td></tr><base href="/tb/"></table>`,
		() => `<p><a href="${url()}"><div>x</a>y</div>`,
		() => `\n`, () => ' text < > & ',
	];
	const tails = ['', '', '', `<a href="cut${id}`, '<!-- unterminated', '<script>never closed <a href=no>', `<plaintext><a href="no">`, `<style>a{b:url(tail${id}.png`];
	let out = chance(0.5) ? '<!DOCTYPE html>' : '';
	if (chance(0.5))
		out += `<html><head>${frags[12]()}<title>x</title></head><body>`;
	const count = 5 + Math.floor(r() * 40);
	for (let i = 0; i < count; i++)
		out += pick(frags)();
	return out + pick(tails);
}

// A stylesheet: a soup of the pieces CSS tokenization turns on.
function generateCss(r, id) {
	const pieces = ['url(', 'URL(', 'u\\72l(', '\\75 rl(', 'url( ', ')', ')', '"', "'", '\\', '\\\n', '\\41 ',
		'\\0', '\\110000', '\n', '\r\n', '\f', ' ', '\t', '/*', '*/', '@import', '@import ', '@im\\70 ort ',
		'@media ', ';', '{', '}', 'x.png', 'img/a b.png', '-', '#', '5', '(', ',', '\0', 'caf\u00e9', 'xurl(',
		'-url(', 'a', `p${id}.css`, '\x7f', '\x01', '.5', '+', 'e', '@', '\\\r\n', '\\)'];
	let out = '';
	const count = 10 + Math.floor(r() * 120);
	for (let i = 0; i < count; i++)
		out += pieces[Math.floor(r() * pieces.length)];
	return out;
}

function gen(dir, count, seed) {
	const r = rng(seed);
	fs.mkdirSync(dir, { recursive: true });
	for (let i = 0; i < count; i++) {
		fs.writeFileSync(path.join(dir, `gen-${String(i).padStart(4, '0')}.html`), generate(r, i));
		fs.writeFileSync(path.join(dir, `gen-css-${String(i).padStart(4, '0')}.css`), generateCss(r, i));
	}
	// Hostile pages: big and pathological, bounded by the caps on tern's side.
	const big = 'x'.repeat(10 * 1024 * 1024);
	fs.writeFileSync(path.join(dir, 'hostile-bigattr.html'), `<a href="ok1"><a href="${big}"><a href="ok2">`);
	fs.writeFileSync(path.join(dir, 'hostile-unterminated-comment.html'), `<a href=before><!--${'<a href=no>'.repeat(200000)}`);
	fs.writeFileSync(path.join(dir, 'hostile-unterminated-script.html'), `<a href=before><script>${'<a href=no>'.repeat(200000)}`);
	fs.writeFileSync(path.join(dir, 'hostile-many-tags.html'), '<div><a href="/same">'.repeat(200000));
	fs.writeFileSync(path.join(dir, 'hostile-many-attrs.html'), `<a ${'x '.repeat(200000)}href="/late"><a ${'href=/first '.repeat(1000)}>`);
	fs.writeFileSync(path.join(dir, 'hostile-nul.html'), '\0<a\0 href="/n\0ul">\0<img src=\0/a.png>'.repeat(1000));
	fs.writeFileSync(path.join(dir, 'hostile-deep-svg.html'), '<svg><g>'.repeat(5000) + '<a href="/deep">' + '<style><a href="/s"></style>');
	fs.writeFileSync(path.join(dir, 'hostile-svg-endtags.html'), '<svg>' + '<g>'.repeat(300) + '</x>'.repeat(100000) + '<a href="/after-endtags">');
	fs.writeFileSync(path.join(dir, 'hostile-lt.html'), '<'.repeat(100000) + '<a href="/after-lt">' + '</'.repeat(100000) + '<!'.repeat(100000));
}

// ---- CSS url() and @import, per CSS Syntax 3 tokenization ----
function cssLinks(s) {
	const out = [];
	s = s.replace(/\r\n|\r|\f/g, '\n').replace(/\0/g, '\uFFFD');
	let i = 0;
	const ws = (c) => c === ' ' || c === '\t' || c === '\n';
	const hex = (c) => /^[0-9a-fA-F]$/.test(c ?? '');
	const nameStart = (c) => c !== undefined && (/[a-zA-Z_]/.test(c) || c.charCodeAt(0) >= 0x80);
	const nameChar = (c) => nameStart(c) || /[0-9-]/.test(c ?? '');
	// A backslash before the end of input is a valid escape (of U+FFFD).
	const validEsc = (a, b) => a === '\\' && b !== '\n';
	const escape = () => {
		// after the backslash
		const c = s[i];
		if (c === undefined)
			return '\uFFFD';
		if (hex(c)) {
			let h = '';
			while (h.length < 6 && hex(s[i]))
				h += s[i++];
			if (ws(s[i]))
				i++;
			const cp = parseInt(h, 16);
			return (cp === 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) ? '\uFFFD' : String.fromCodePoint(cp);
		}
		i++;
		return c;
	};
	const startsIdent = (a, b, c) => {
		if (a === '-')
			return nameStart(b) || b === '-' || validEsc(b, c);
		if (nameStart(a))
			return true;
		return validEsc(a, b);
	};
	const name = () => {
		let r = '';
		for (;;) {
			if (nameChar(s[i]))
				r += s[i++];
			else if (validEsc(s[i], s[i + 1])) {
				i++;
				r += escape();
			} else
				return r;
		}
	};
	const string = (qc) => {
		let r = '';
		for (;;) {
			const c = s[i++];
			if (c === undefined || c === qc)
				return r;
			if (c === '\n') {
				i--;
				return null;
			}
			if (c === '\\') {
				if (s[i] === undefined)
					continue;
				if (s[i] === '\n') {
					i++;
					continue;
				}
				r += escape();
			} else
				r += c;
		}
	};
	const urlToken = () => {
		let r = '';
		while (ws(s[i]))
			i++;
		for (;;) {
			const c = s[i++];
			if (c === ')' || c === undefined)
				return r;
			if (ws(c)) {
				while (ws(s[i]))
					i++;
				if (s[i] === ')' || s[i] === undefined) {
					i++;
					return r;
				}
				bad();
				return null;
			}
			if (c === '"' || c === "'" || c === '(' || /[\x00-\x08\x0b\x0e-\x1f\x7f]/.test(c)) {
				bad();
				return null;
			}
			if (c === '\\') {
				if (validEsc(c, s[i]))
					r += escape();
				else {
					bad();
					return null;
				}
			} else
				r += c;
		}
	};
	const bad = () => {
		for (;;) {
			const c = s[i++];
			if (c === ')' || c === undefined)
				return;
			if (validEsc(c, s[i]))
				escape();
		}
	};
	const toks = [];
	while (i < s.length) {
		const c = s[i];
		if (c === '/' && s[i + 1] === '*') {
			const e = s.indexOf('*/', i + 2);
			i = e < 0 ? s.length : e + 2;
			toks.push({ t: 'ws' });
		} else if (ws(c)) {
			while (ws(s[i]))
				i++;
			toks.push({ t: 'ws' });
		} else if (c === '"' || c === "'") {
			i++;
			const v = string(c);
			toks.push(v === null ? { t: 'bad' } : { t: 'str', v });
		} else if (/[0-9]/.test(c) || ((c === '+' || c === '-' || c === '.') && /[0-9]/.test(s[i + 1] ?? '')) ||
			   ((c === '+' || c === '-') && s[i + 1] === '.' && /[0-9]/.test(s[i + 2] ?? ''))) {
			i++;
			while (/[0-9.]/.test(s[i] ?? ''))
				i++;
			if (startsIdent(s[i], s[i + 1], s[i + 2]))
				name();
			toks.push({ t: 'num' });
		} else if (startsIdent(c, s[i + 1], s[i + 2])) {
			const nm = name();
			if (s[i] === '(') {
				i++;
				if (nm.toLowerCase() === 'url') {
					let j = i;
					while (ws(s[j]))
						j++;
					if (s[j] === '"' || s[j] === "'") {
						i = j;
						toks.push({ t: 'urlfn' });
					} else {
						const v = urlToken();
						toks.push(v === null ? { t: 'bad' } : { t: 'url', v });
					}
				} else
					toks.push({ t: 'fn' });
			} else
				toks.push({ t: 'ident' });
		} else if (c === '@' && startsIdent(s[i + 1], s[i + 2], s[i + 3])) {
			i++;
			toks.push({ t: 'at', v: name().toLowerCase() });
		} else if (c === '#' && (nameChar(s[i + 1]) || validEsc(s[i + 1], s[i + 2]))) {
			i++;
			name();
			toks.push({ t: 'hash' });
		} else {
			i++;
			toks.push({ t: 'delim' });
		}
	}
	let imp = false;
	for (let k = 0; k < toks.length; k++) {
		const t = toks[k];
		if (t.t === 'ws')
			continue;
		if (t.t === 'url')
			out.push([t.v, imp]);
		else if (t.t === 'urlfn') {
			let j = k + 1;
			while (toks[j] && toks[j].t === 'ws')
				j++;
			if (toks[j] && toks[j].t === 'str')
				out.push([toks[j].v, imp]);
			k = j;
		} else if (t.t === 'str' && imp)
			out.push([t.v, true]);
		imp = t.t === 'at' && t.v === 'import';
	}
	return out.map(([v, im]) => ['E', v]);
}

// ---- HTML: walk parse5's tree in source order ----
const HTMLWS = /^[ \t\n\f\r]+|[ \t\n\f\r]+$/g;
const tokens = (v, seps) => v.split(seps).filter((x) => x).map((x) => x.toLowerCase());

function srcset(v) {
	const out = [];
	let i = 0;
	const isws = (c) => ' \t\n\f\r'.includes(c);
	while (i < v.length) {
		while (i < v.length && (isws(v[i]) || v[i] === ','))
			i++;
		if (i >= v.length)
			break;
		const s = i;
		while (i < v.length && !isws(v[i]))
			i++;
		let u = v.slice(s, i);
		if (u.endsWith(',')) {
			out.push(u.replace(/,+$/, ''));
			continue;
		}
		out.push(u);
		let paren = false;
		for (; i < v.length; i++) {
			if (paren) {
				if (v[i] === ')')
					paren = false;
			} else if (v[i] === '(')
				paren = true;
			else if (v[i] === ',') {
				i++;
				break;
			}
		}
	}
	return out;
}

function refresh(v) {
	// The HTML "shared declarative refresh steps".
	let i = 0;
	const isws = (c) => c !== undefined && ' \t\n\f\r'.includes(c);
	while (isws(v[i]))
		i++;
	const d = i;
	while (/[0-9]/.test(v[i] ?? ''))
		i++;
	if (i === d && v[i] !== '.')
		return null;
	while (/[0-9.]/.test(v[i] ?? ''))
		i++;
	if (i < v.length) {
		if (!(v[i] === ';' || v[i] === ',' || isws(v[i])))
			return null;
		while (isws(v[i]))
			i++;
		if (v[i] === ';' || v[i] === ',')
			i++;
		while (isws(v[i]))
			i++;
	}
	if (i >= v.length)
		return null;
	const rest = v.slice(i);
	const m = /^url[ \t\n\f\r]*=[ \t\n\f\r]*/i.exec(rest);
	let u;
	if (m)
		u = rest.slice(m[0].length);
	else if (/^u/i.test(rest))
		return rest;
	else
		u = rest;
	if (u[0] === '"' || u[0] === "'") {
		const qc = u[0];
		u = u.slice(1);
		const e = u.indexOf(qc);
		if (e >= 0)
			u = u.slice(0, e);
	}
	return u;
}

function parse5Links(html) {
	const doc = parse(html, { scriptingEnabled: false, sourceCodeLocationInfo: true });
	const els = [];
	// Iterative pre-order walk: hostile pages nest deeper than the stack.
	const stack = [doc];
	while (stack.length) {
		const node = stack.pop();
		// Elements without a source location are the tree builder's own
		// (implied html/head/body, formatting elements cloned by the
		// adoption agency): no tag in the source stands for them.
		if (node.tagName !== undefined && node.sourceCodeLocation)
			els.push({ off: node.sourceCodeLocation.startOffset, seq: els.length, el: node });
		const kids = [...(node.childNodes ?? [])];
		if (node.content)
			kids.unshift(node.content);
		for (let k = kids.length - 1; k >= 0; k--)
			stack.push(kids[k]);
	}
	els.sort((a, b) => a.off - b.off || a.seq - b.seq);
	const links = [];
	let base = null, meta = 0;
	const add = (hop, ref) => {
		ref = ref.replace(HTMLWS, '');
		if (ref !== '')
			links.push([hop, ref, base]);
	};
	for (const { el } of els) {
		const html = el.namespaceURI === 'http://www.w3.org/1999/xhtml';
		const a = {};
		for (const at of el.attrs)
			if (!at.namespace && !(at.name in a))
				a[at.name] = at.value;
		const tag = el.tagName.toLowerCase();
		const rel = a.rel !== undefined ? tokens(a.rel, /[ \t\n\f\r]+/) : [];
		if ((tag === 'a' || tag === 'area') && a.href !== undefined)
			add('L', a.href);
		else if (tag === 'link' && a.href !== undefined) {
			const emb = ['stylesheet', 'icon', 'apple-touch-icon', 'apple-touch-icon-precomposed', 'mask-icon', 'modulepreload', 'prefetch', 'prerender', 'preload', 'manifest'];
			if (rel.some((x) => emb.includes(x)))
				add('E', a.href);
			else if (!rel.some((x) => ['pingback', 'dns-prefetch', 'preconnect'].includes(x)))
				add('L', a.href);
		} else if (tag === 'img' || tag === 'source') {
			if (a.src !== undefined)
				add('E', a.src);
			if (a.srcset !== undefined)
				srcset(a.srcset).forEach((u) => add('E', u));
		} else if (['script', 'iframe', 'frame', 'embed', 'audio', 'track'].includes(tag) && a.src !== undefined)
			add('E', a.src);
		else if (tag === 'object' && a.data !== undefined)
			add('E', a.data);
		else if (tag === 'video') {
			if (a.src !== undefined)
				add('E', a.src);
			if (a.poster !== undefined)
				add('E', a.poster);
		} else if (tag === 'base' && html && a.href !== undefined && base === null)
			base = a.href.replace(HTMLWS, '');
		else if (tag === 'meta') {
			if (a['http-equiv'] !== undefined && a['http-equiv'].toLowerCase() === 'refresh') {
				if (a.content !== undefined) {
					const u = refresh(a.content);
					if (u !== null)
						add('R', u);
				}
			} else if (a.name !== undefined && a.name.replace(HTMLWS, '').toLowerCase() === 'robots' && a.content !== undefined) {
				const t = tokens(a.content, /[ \t\n\f\r,]+/);
				if (t.includes('nofollow') || t.includes('none'))
					meta |= 1;
				if (t.includes('noindex') || t.includes('none'))
					meta |= 2;
			}
		} else if (tag === 'style' && html) {
			const text = el.childNodes.map((c) => c.value ?? '').join('');
			cssLinks(text).forEach(([h, u]) => add(h, u));
		}
		if (a.style !== undefined)
			cssLinks(a.style).forEach(([h, u]) => add(h, u));
	}
	return { links, meta };
}

function resolve(hop, ref, base) {
	let b = PAGE;
	if (base !== null) {
		try {
			b = new URL(base, PAGE).href;
		} catch {
			b = PAGE;
		}
	}
	try {
		return `${hop} ${new URL(ref, b).href}`;
	} catch {
		return `${hop} INVALID ${JSON.stringify(ref)} base ${JSON.stringify(base)}`;
	}
}

function unescape(s) {
	return s.replace(/\\(.)/g, (m, c) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c] ?? c);
}

function globRe(g) {
	return new RegExp('^' + g.split('*').map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 's');
}

function compare(dir, allowedFile) {
	const allowed = fs.readFileSync(allowedFile, 'utf8').split('\n')
		.filter((l) => l.trim() !== '' && !l.startsWith('#'))
		.map((l) => {
			const [page, sign, line, reason] = l.split('\t');
			if (!reason)
				throw new Error(`${allowedFile}: malformed line: ${l}`);
			return { page: globRe(page), sign, line: globRe(line), used: 0 };
		});
	const pages = fs.readdirSync(dir).filter((f) => f.endsWith('.html') || f.endsWith('.css')).sort();
	let bad = 0, allowedCount = 0, links = 0;
	for (const p of pages) {
		const html = fs.readFileSync(path.join(dir, p), 'utf8');
		const ref = p.endsWith('.css') ?
			{ links: cssLinks(html).map(([h, u]) => [h, u.replace(HTMLWS, ''), null]).filter(([, u]) => u !== ''), meta: 0 } :
			parse5Links(html);
		const want = new Set(ref.links.map(([h, u, b]) => resolve(h, u, b)));
		want.add(`#meta ${ref.meta}`);
		const got = new Set();
		for (const line of fs.readFileSync(path.join(dir, p + '.out'), 'utf8').split('\n')) {
			if (line === '' || line.startsWith('#dropped'))
				continue;
			if (line.startsWith('#meta')) {
				got.add(line);
				continue;
			}
			const [hop, , base, r] = line.split('\t');
			got.add(resolve(hop, unescape(r), base === '-' ? null : unescape(base)));
		}
		links += got.size;
		const diffs = [];
		for (const g of got)
			if (!want.has(g))
				diffs.push(['+', g]);
		for (const w of want)
			if (!got.has(w))
				diffs.push(['-', w]);
		for (const [sign, line] of diffs) {
			const a = allowed.find((x) => x.sign === sign && x.page.test(p) && x.line.test(line));
			if (a) {
				a.used++;
				allowedCount++;
				continue;
			}
			bad++;
			const shown = line.length > 200 ? line.slice(0, 200) + '...' : line;
			console.log(`DIFF ${p} ${sign} ${shown}`);
		}
	}
	console.log(`extract_diff: ${pages.length} pages and stylesheets compared, ${links} distinct links from tern, ` +
		`${allowedCount} listed differences, ${bad} unlisted differences`);
	return bad ? 1 : 0;
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'gen')
	gen(args[0], Number(args[1]), Number(args[2]));
else if (cmd === 'compare')
	process.exitCode = compare(args[0], args[1]);
else if (cmd === 'css') {
	// Debug aid: print what the reference CSS tokenizer finds in a file.
	for (const [h, u] of cssLinks(fs.readFileSync(args[0], 'utf8')))
		console.log(`${h}\t${u}`);
} else {
	console.error('usage: extract_diff.mjs gen DIR COUNT SEED | compare DIR ALLOWED | css FILE');
	process.exitCode = 2;
}
