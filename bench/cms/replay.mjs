// A post of bench/cms's WordPress site replayed from tern's WACZ in
// ReplayWeb.page, as tests/archive/wacz_browser.mjs does for the test web: the
// viewer's files (npm replaywebpage, installed in tests/node_modules by
// scripts/deps) and the package served from one loopback origin, Debian's
// chromium driven by puppeteer-core opening the viewer at the post's URL.
//   node bench/cms/replay.mjs WACZ SAMPLE.JSON SHOTS-DIR
// SAMPLE.JSON (bench/cms/site.php sample): {"url", "title", "h1", "comments"}.
// Checks, each printed "ok: ...": the post replays with its title and
// heading; every image of the site in it (featured image, the image in the
// text, in whichever srcset size chromium picks) loads from the archive
// (lazy images are made eager first); its comment thread is there with its
// reply links. Images from other sites (Gravatar avatars) are counted, not
// required: the crawl's scope is the site. Screenshots: SHOTS-DIR/post.png
// (the viewer) and post-full.png (the viewer as tall as the post).
import fs from 'node:fs';
import path from 'node:path';
import { viewerOpen } from '../../tests/archive/wacz_serve.mjs';

const [waczPath, samplePath, shots] = process.argv.slice(2);
const sample = JSON.parse(fs.readFileSync(samplePath, 'utf8'));
const site = new URL(sample.url).host;
fs.mkdirSync(shots, { recursive: true });

function fail(msg) {
	console.error('FAIL: ' + msg);
	process.exit(1);
}

// The viewer's files and the package from one loopback origin, as the
// tests serve them.
const { page, origin, close } = await viewerOpen(waczPath, { viewport: { width: 1360, height: 1000 } })
	.catch((e) => fail(e.message));

async function until(what, fn, ms = 60000) {
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
			await page.screenshot({ path: path.join(shots, 'timeout.png') });
			fail('timed out waiting for ' + what);
		}
		await new Promise((r) => setTimeout(r, 250));
	}
}

try {
	const t0 = Date.now();
	const source = `${origin}/index.html?source=${encodeURIComponent(origin + '/archive.wacz')}`;
	await page.goto(`${source}#view=replay&url=${encodeURIComponent(sample.url)}`);
	const fr = await until('the post to replay', async () => {
		const el = await page.$('>>> iframe[name="___wb_replay_top_frame"], >>> iframe[src*="mp_/"]');
		if (!el) return null;
		const f = await el.contentFrame();
		if (!f || !f.url().endsWith('mp_/' + sample.url)) return null;
		const ready = await f.evaluate(() => document.readyState === 'complete' && document.body !== null);
		return ready ? f : null;
	});
	const shown = Date.now() - t0;
	// Lazy images load when scrolled to; make them all load now.
	await fr.evaluate(() => {
		for (const i of document.images) i.loading = 'eager';
	});
	const seen = await until('the post\'s images', () => fr.evaluate((host) => {
		const h1 = document.querySelector('h1');
		// The replayed src names the original URL after the viewer's prefix.
		const ours = [...document.images].filter((i) => i.currentSrc.includes('//' + host + '/'));
		if (!h1 || ours.length === 0 || !ours.every((i) => i.complete)) return null;
		return {
			h1: h1.textContent.trim(), title: document.title, n: ours.length,
			loaded: [...new Set(ours.filter((i) => i.naturalWidth > 0).map((i) => i.currentSrc.replace(/.*mp_\//, '')))],
			broken: ours.filter((i) => i.naturalWidth === 0).map((i) => i.currentSrc),
			other: document.images.length - ours.length,
			replies: [...document.links].filter((a) => /[?&]replytocom=/.test(a.href)).length,
			comments: document.querySelectorAll('.wp-block-comment-template li, li.comment').length,
		};
	}, site));
	if (seen.title !== sample.title) fail(`replayed title '${seen.title}', wanted '${sample.title}'`);
	if (seen.h1 !== sample.h1) fail(`replayed heading '${seen.h1}', wanted '${sample.h1}'`);
	console.log(`ok: ${sample.url} replays in ${(shown / 1000).toFixed(1)} s: '${seen.title}'`);
	if (seen.broken.length) fail(`${seen.broken.length} of ${seen.n} images did not load: ${seen.broken.join(' ')}`);
	if (seen.n < 2) fail(`only ${seen.n} image of the site in the post, wanted its featured and its own image`);
	console.log(`ok: ${seen.n} images of the site loaded from the archive (${seen.loaded.join(' ')}); ` +
		`${seen.other} from other sites (avatars) not in scope`);
	if (seen.comments < sample.comments)
		fail(`${seen.comments} comments shown, the post has ${sample.comments}`);
	if (seen.replies < 1) fail('no reply links in the comment thread');
	console.log(`ok: ${seen.comments} comments shown with ${seen.replies} ?replytocom= reply links`);
	await page.screenshot({ path: path.join(shots, 'post.png') });
	// The whole post: the viewer as tall as the replayed page.
	const h = await fr.evaluate(() => document.documentElement.scrollHeight);
	await page.setViewport({ width: 1360, height: Math.min(h + 200, 8000) });
	await new Promise((r) => setTimeout(r, 1000));
	await page.screenshot({ path: path.join(shots, 'post-full.png') });
	console.log(`ok: screenshots ${shots}/post.png and post-full.png`);
} finally {
	await close();
}
