// A tern WACZ opened in ReplayWeb.page as a person would: the viewer's own
// files (npm replaywebpage: index.html, ui.js, sw.js) and the package are
// served from one loopback origin (tests/archive/wacz_serve.mjs, with the Range
// requests the viewer reads a WACZ by), and Debian's chromium,
// driven by puppeteer-core, opens index.html?source=URL-OF-THE-WACZ.
//   node wacz_browser.mjs list|scroll|direct WACZ PAGES.JSONL CASES.JSON SHOTS-DIR
// CASES.JSON: {"image": {"url", "title", "h1"}, "link": {"url", "h1"},
//              "absent": URL, "title": TITLE, "desc": TEXT}
// Checks, each printed "ok: ..." (a failure exits 1 with the reason):
// list: the viewer opens on its Story tab with the package's title and
// description, Archive Info names the package by its title, the Pages view
// lists every page of pages.jsonl with its title, and the page with an
// image is opened by a click on its title; scroll: the Pages view and
// Archive Info name the package by its title, the list is scrolled to its
// end 20 times as a person looking for a page would, and the last page
// listed, clicked, must show its heading and title within 60 s (the
// viewer used to stall there, re-reading a plain index: doc/warc.md);
// then, as in direct, the viewer is opened at the image page's URL
// (#view=replay&url=). Then the page
// with an image replays inside the viewer's nested frames (shadow DOM, then
// the replay iframe) with its text and the image loaded from the archive; a
// link clicked inside the replay loads the linked page from the archive; a
// URL the crawl never fetched shows the viewer's not-found page. The
// screenshots go to SHOTS-DIR.
import fs from 'node:fs';
import path from 'node:path';
import { viewerOpen } from './wacz_serve.mjs';

const [mode, waczPath, pagesPath, casesPath, shots] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(casesPath, 'utf8'));
const pages = fs.readFileSync(pagesPath, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l));
fs.mkdirSync(shots, { recursive: true });

function fail(msg) {
	console.error('FAIL: ' + msg);
	process.exit(1);
}

const { page, origin, close } = await viewerOpen(waczPath).catch((e) => fail(e.message));
const shot = (name) => page.screenshot({ path: path.join(shots, name + '.png') });

async function until(what, fn, ms = 30000) {
	const end = Date.now() + ms;
	for (;;) {
		let v;
		try {
			v = await fn();
		} catch {
			v = null;
		}
		if (v) return v;
		if (Date.now() > end) {
			await shot('timeout');
			fail('timed out waiting for ' + what);
		}
		await new Promise((r) => setTimeout(r, 250));
	}
}

// The text of the viewer's UI, through every shadow root.
const uiText = () => page.evaluate(() => {
	const out = [];
	const walk = (n) => {
		if (n.shadowRoot) walk(n.shadowRoot);
		for (const c of n.childNodes) {
			if (c.nodeType === 3) out.push(c.textContent);
			else if (c.nodeType === 1) walk(c);
		}
	};
	walk(document.body);
	return out.join(' ').replace(/\s+/g, ' ');
});

// The replay iframe: found through the shadow roots (puppeteer's >>>), and
// the frame it holds once it shows a capture of url (or anything, when
// url is null).
async function replayFrame(what, url, ms = 30000) {
	return until(what, async () => {
		const el = await page.$('>>> iframe[name="___wb_replay_top_frame"], >>> iframe[src*="mp_/"]');
		if (!el) return null;
		const fr = await el.contentFrame();
		if (!fr || !fr.url().includes('mp_/')) return null;
		if (url !== null && !fr.url().endsWith('mp_/' + url)) return null;
		const ready = await fr.evaluate(() => document.readyState === 'complete' && document.body !== null);
		return ready ? fr : null;
	}, ms);
}

// Archive Info (from the viewer's menu) names the package by its title.
async function archiveInfo() {
	const opened = await until('the Archive Info menu item', () => page.evaluate(() => {
		const find = (root) => {
			for (const el of root.querySelectorAll('*')) {
				if (el.tagName === 'SL-MENU-ITEM' && el.textContent.includes('Archive Info')) return el;
				const f = el.shadowRoot && find(el.shadowRoot);
				if (f) return f;
			}
			return null;
		};
		const item = find(document);
		if (item) item.click();
		return item !== null;
	}));
	if (!opened) fail('no Archive Info in the menu');
	const shown = await until('Archive Info to name the package', async () => {
		const el = await page.$('>>> sl-dialog[label="Archive Info"][open] wr-item-info');
		const t = el && (await el.evaluate((e) => (e.shadowRoot || e).textContent.replace(/\s+/g, ' ')));
		return t && t.includes(cases.title) ? t : null;
	});
	await shot('archive-info');
	console.log(`ok: Archive Info names the package '${cases.title}': ${shown.trim().slice(0, 80)}`);
}

// The Pages view once it lists pages, with the package's title as its
// collection name.
async function pagesView(n) {
	return until(`the Pages view to list ${n} pages and name the package '${cases.title}'`, async () => {
		const t = await uiText();
		return t.includes(`${n.toLocaleString('en')} pages`) && t.includes(cases.title) ? t : null;
	});
}

try {
	const img = cases.image;
	const source = `${origin}/index.html?source=${encodeURIComponent(origin + '/archive.wacz')}`;
	if (mode === 'list') {
		await page.goto(source);
		// A package with a description opens on the Story tab.
		await until('the Story tab with the title and description', async () => {
			const t = await uiText();
			return t.includes(cases.title) && t.includes(cases.desc);
		});
		await shot('story');
		console.log(`ok: the Story tab shows the package's title '${cases.title}' and its description`);
		await archiveInfo();
		await page.goto(`${source}#view=pages`);
		await page.reload();
		// The Pages view: every page of pages.jsonl, titled.
		const want = pages.filter((p) => p.title);
		if (want.length === 0) fail('pages.jsonl has no titled page');
		const text = await until('the Pages view to list the pages', async () => {
			const t = await uiText();
			return t.includes(`${pages.length} pages`) && want.every((p) => t.includes(p.title)) ? t : null;
		});
		for (const p of pages)
			if (!text.includes(p.url)) fail(`the Pages view does not list ${p.url}`);
		await shot('pages');
		console.log(`ok: the Pages view lists the ${pages.length} pages of pages.jsonl, ${want.length} with their titles`);
		// The page with an image, opened from the list by its title.
		await page.locator(`::-p-text(${img.title})`).setTimeout(15000).click();
	} else {
		if (mode === 'scroll') {
			await page.goto(source);
			await pagesView(pages.length);
			console.log(`ok: the Pages view of ${pages.length} pages names the package '${cases.title}'`);
			await archiveInfo();
			await page.keyboard.press('Escape');
			// The list, scrolled to its end as a person looking for a page
			// would (it loads more as it goes), then its last page clicked.
			const scroller = await page.$('>>> ul.scroller');
			for (let i = 0; i < 20; i++) {
				await scroller.evaluate((ul) => ul.scrollTo(0, ul.scrollHeight));
				await new Promise((r) => setTimeout(r, 250));
			}
			const link = await scroller.evaluateHandle((ul) => {
				const li = [...ul.querySelectorAll('li.page-entry')].pop();
				const a = li.querySelector('wr-page-entry').shadowRoot.querySelector('a');
				a.scrollIntoView();
				return a;
			});
			const listed = await scroller.evaluate((ul) => ul.querySelectorAll('li.page-entry').length);
			const u = await link.evaluate((a) => new URLSearchParams(a.hash.slice(1)).get('url'));
			const want = pages.find((p) => p.url === u);
			if (!want) fail(`the last page listed, ${u}, is not in pages.jsonl`);
			await shot('pages-scrolled');
			const t0 = Date.now();
			await link.click();
			const fr = await replayFrame(`${u}, clicked after scrolling, to replay`, u, 60000);
			const got = await until(`${u}'s heading`, () => fr.evaluate(() => {
				const h1 = document.querySelector('h1');
				return h1 ? { h1: h1.textContent.trim(), title: document.title } : null;
			}), 60000 - (Date.now() - t0));
			if (got.title !== want.title) fail(`${u} replayed with title '${got.title}', wanted '${want.title}'`);
			await shot('scrolled-replay');
			console.log(`ok: after scrolling the Pages list (${listed} of ${pages.length} listed), ${u} opened from it ` +
				`shows '${got.h1}' in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		}
		if (!pages.some((p) => p.url === img.url && p.title === img.title))
			fail(`${img.url} is not in pages.jsonl with its title`);
		await page.goto(`${source}#view=replay&url=${encodeURIComponent(img.url)}`);
	}
	let fr = await replayFrame('the page with an image to replay', img.url);
	const seen = await until('its text and image', () => fr.evaluate(() => {
		const h1 = document.querySelector('h1');
		const im = [...document.images];
		if (!h1 || im.length === 0 || !im.every((i) => i.complete)) return null;
		return { h1: h1.textContent.trim(), loaded: im.filter((i) => i.naturalWidth > 0).length, n: im.length,
			title: document.title };
	}));
	if (seen.h1 !== img.h1) fail(`replayed heading '${seen.h1}', wanted '${img.h1}'`);
	if (seen.loaded !== seen.n) fail(`${seen.n - seen.loaded} of ${seen.n} images did not load from the archive`);
	if (seen.title !== img.title) fail(`replayed title '${seen.title}', wanted '${img.title}'`);
	await shot('replay-image');
	console.log(`ok: ${img.url} replays in the nested frame: heading '${seen.h1}', ${seen.n} image(s) loaded`);

	// A link clicked inside the replay loads the linked capture.
	const link = cases.link;
	const clicked = await fr.evaluate((u) => {
		const a = [...document.links].find((l) => l.href === u);
		if (!a) return false;
		a.click();
		return true;
	}, link.url);
	if (!clicked) fail(`no link to ${link.url} in the replayed page`);
	fr = await replayFrame('the linked page to replay', link.url);
	const h1 = await until('the linked page\'s heading', () =>
		fr.evaluate(() => document.querySelector('h1')?.textContent.trim()));
	if (h1 !== link.h1) fail(`after the click the heading is '${h1}', wanted '${link.h1}'`);
	await shot('replay-link');
	console.log(`ok: a click inside the replay loaded ${link.url} ('${h1}')`);

	// A URL the crawl never fetched: the viewer's not-found page.
	await page.goto(`${source}#view=replay&url=${encodeURIComponent(cases.absent)}`);
	fr = await replayFrame('the absent page\'s frame', cases.absent);
	const nf = await until('the not-found message', () => fr.evaluate(() => {
		const t = document.body.innerText;
		return /Archived Page Not Found|not found in this archive/i.test(t) ? t : null;
	}));
	if (!nf.includes(cases.absent)) fail(`the not-found page does not name ${cases.absent}: ${nf.slice(0, 200)}`);
	await shot('not-found');
	console.log(`ok: ${cases.absent}, never crawled, shows ReplayWeb.page's not-found page`);
} finally {
	await close();
}
