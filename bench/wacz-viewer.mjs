// How fast ReplayWeb.page shows a page of a tern WACZ (bench/wacz-viewer.sh
// runs it over packages of many sizes, both index forms):
//   node bench/wacz-viewer.mjs direct|scroll WACZ URL [TIMEOUT-S]
// The package and the viewer's files (npm replaywebpage) are served from
// one loopback origin (tests/archive/wacz_serve.mjs) to Debian's chromium, driven
// by puppeteer-core, with a new profile each run (nothing cached in the
// viewer's IndexedDB). direct: the viewer is opened at URL
// (#view=replay&url=) and the time is from the navigation until URL's
// <h1> is shown in the replay frame. scroll: the viewer is opened at its
// Pages view; once it lists the pages, the list is scrolled to its end
// 20 times, 250 ms apart, as a person looking for a page would, then the
// last page listed is clicked, and the time is from the click until its
// <h1> is shown (URL is not used). Printed: one JSON line with the times
// in ms (null past the timeout), and the reads of the package's index
// entries (indexes/*) the viewer made, with their bytes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tests = path.join(here, '..', 'tests');
const { viewerOpen, zipEntries } = await import(path.join(tests, 'archive', 'wacz_serve.mjs'));
const [mode, waczPath, url, timeoutArg] = process.argv.slice(2);
const timeout = Number(timeoutArg || 120) * 1000;

const entries = zipEntries(waczPath);
const index = Object.entries(entries).filter(([n]) => n.startsWith('indexes/')).map(([, r]) => r);
const stats = { indexReads: 0, indexBytes: 0, reads: 0 };
const { page, origin, close } = await viewerOpen(waczPath, { protocolTimeout: timeout + 60000, onRange: (start, end) => {
	stats.reads++;
	for (const [s, e] of index)
		if (start < e && end >= s) {
			stats.indexReads++;
			stats.indexBytes += Math.min(end + 1, e) - Math.max(start, s);
		}
} });

// fn's first truthy value, or null once the time is out.
async function until(fn, end) {
	for (;;) {
		let v;
		try {
			v = await fn();
		} catch {
			v = null;
		}
		if (v) return v;
		if (Date.now() > end) return null;
		await new Promise((r) => setTimeout(r, 100));
	}
}

// The replay frame once it shows a capture of u with its <h1>.
async function shown(u, end) {
	return until(async () => {
		const el = await page.$('>>> iframe[name="___wb_replay_top_frame"], >>> iframe[src*="mp_/"]');
		const fr = el && (await el.contentFrame());
		if (!fr || !fr.url().endsWith('mp_/' + u)) return null;
		return fr.evaluate(() => document.querySelector('h1')?.textContent.trim() || null);
	}, end);
}

const out = { mode, wacz: path.basename(waczPath), index: Object.keys(entries).filter((n) => n.startsWith('indexes/')) };
try {
	const source = `${origin}/index.html?source=${encodeURIComponent(origin + '/archive.wacz')}`;
	const t0 = Date.now();
	if (mode === 'direct') {
		await page.goto(`${source}#view=replay&url=${encodeURIComponent(url)}`);
		const h1 = await shown(url, t0 + timeout);
		out.renderMs = h1 ? Date.now() - t0 : null;
	} else {
		await page.goto(source);
		const n = await until(() => page.evaluate(() => {
			const find = (root) => {
				for (const el of root.querySelectorAll('*')) {
					if (el.matches('ul.scroller') && el.querySelector('li.page-entry')) return el;
					const f = el.shadowRoot && find(el.shadowRoot);
					if (f) return f;
				}
				return null;
			};
			const ul = find(document);
			return ul ? ul.querySelectorAll('li.page-entry').length : 0;
		}), t0 + timeout);
		out.listMs = n ? Date.now() - t0 : null;
		if (n) {
			const scroller = await page.$('>>> ul.scroller');
			for (let i = 0; i < 20; i++) {
				await scroller.evaluate((ul) => ul.scrollTo(0, ul.scrollHeight));
				await new Promise((r) => setTimeout(r, 250));
			}
			out.listed = await scroller.evaluate((ul) => ul.querySelectorAll('li.page-entry').length);
			// The last page listed, and the URL its link opens.
			const link = await scroller.evaluateHandle((ul) => {
				const li = [...ul.querySelectorAll('li.page-entry')].pop();
				const a = li.querySelector('wr-page-entry').shadowRoot.querySelector('a');
				a.scrollIntoView();
				return a;
			});
			const last = await link.evaluate((a) => new URLSearchParams(a.hash.slice(1)).get('url'));
			const before = { ...stats };
			const t1 = Date.now();
			await link.click();
			const h1 = await until(() => shown(last, Date.now()), t1 + timeout);
			out.clicked = last;
			out.renderMs = h1 ? Date.now() - t1 : null;
			out.indexReadsAfterClick = stats.indexReads - before.indexReads;
		}
	}
} finally {
	Object.assign(out, stats);
	console.log(JSON.stringify(out));
	await close();
}
// The viewer's service worker may still be busy with a stalled index.
process.exit(0);
