// Clients for bench/consolebench.sh.
//   node consolebench.mjs watch URL SECONDS
//     a headless chromium (Debian's, through puppeteer-core) on the
//     console's overview, its script polling every second, and the page
//     reloaded every second on top of that, for SECONDS
//   node consolebench.mjs requests URL SECONDS
//     the same requests the browser makes each second (the overview, its
//     style, script and icon, the long view and the live figures), from
//     node: the console's own cost without a browser competing for the CPU
//   node consolebench.mjs probe URL
//     against a crawl holding many queues: the time of the queues page in
//     key order, sorted by size (a walk over every queue in loop steps), its
//     second page (the finished walk kept), and the longest GET /status
//     answered while the sorted walk ran (is the loop ever held?)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const [mode, url, arg] = process.argv.slice(2);
const base = url.replace(/\/console\/.*$/, '');
const token = url.replace(/^.*token=/, '');
const auth = { Authorization: 'Bearer ' + token };

async function timed(p) {
	const t0 = performance.now();
	const r = await fetch(base + p, { headers: auth });
	const body = await r.text();
	return { ms: performance.now() - t0, status: r.status, bytes: body.length };
}

if (mode === 'watch') {
	// puppeteer-core lives in tests/node_modules.
	const require = createRequire(path.join(path.dirname(new URL(import.meta.url).pathname),
		'..', 'tests', 'package.json'));
	const puppeteer = require('puppeteer-core');
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-bench-chromium-'));
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync',
			`--user-data-dir=${profile}`],
	});
	const page = await browser.newPage();
	let loads = 0;
	const end = Date.now() + Number(arg) * 1000;
	try {
		await page.goto(url);
		while (Date.now() < end) {
			await new Promise((r) => setTimeout(r, 1000));
			await page.reload().catch(() => {});
			loads++;
		}
	} catch (e) {
		/* The crawl ended (its time limit) while a page loaded. */
	}
	await browser.close();
	fs.rmSync(profile, { recursive: true, force: true });
	console.log(`loads=${loads}`);
} else if (mode === 'requests') {
	const end = Date.now() + Number(arg) * 1000;
	let loads = 0, since = 0;
	try {
		while (Date.now() < end) {
			const t0 = Date.now();
			for (const p of ['/console/', '/console/static/console.css', '/console/static/console.js',
				'/console/static/favicon.svg', '/console/api/history']) await timed(p);
			const r = await fetch(base + '/console/api/live?since=' + since, { headers: auth });
			const live = await r.json();
			if (live.samples && live.samples.length) since = live.samples[live.samples.length - 1][0];
			loads++;
			await new Promise((res) => setTimeout(res, Math.max(0, 1000 - (Date.now() - t0))));
		}
	} catch (e) {
		/* The crawl ended (its time limit). */
	}
	console.log(`loads=${loads}`);
} else if (mode === 'probe') {
	const keyed = await timed('/console/queues');
	let worst = 0, polls = 0, running = true;
	const poller = (async () => {
		while (running) {
			const s = await timed('/status');
			worst = Math.max(worst, s.ms);
			polls++;
			await new Promise((r) => setTimeout(r, 20));
		}
	})();
	const sorted = await timed('/console/queues?sort=size');
	running = false;
	await poller;
	const second = await timed('/console/queues?sort=size&page=2');
	const retired = await timed('/console/queues?state=retired&sort=errors');
	console.log(`keyed_ms=${keyed.ms.toFixed(1)} keyed_bytes=${keyed.bytes} ` +
		`sorted_ms=${sorted.ms.toFixed(1)} sorted_status=${sorted.status} sorted_bytes=${sorted.bytes} ` +
		`page2_ms=${second.ms.toFixed(1)} filtered_sorted_ms=${retired.ms.toFixed(1)} ` +
		`status_worst_ms=${worst.toFixed(1)} status_polls=${polls}`);
} else {
	console.error('usage: consolebench.mjs watch|requests URL SECONDS | probe URL');
	process.exit(2);
}
