// The operator console in a real browser: Debian's chromium, headless,
// driven by puppeteer-core, against a running crawl of the test web.
//   node console_browser.mjs live URL JOBDIR SHOTS-DIR TERN
//   node console_browser.mjs offline URL JOBDIR SHOTS-DIR TERN
// live walks every page and action while the crawl runs, and stops it;
// offline opens the console `tern console` serves once the crawl has ended,
// whose crawl.log then holds a hostile line, and checks that it shows as
// text. Each step prints "ok: ..." and a failure exits 1 with the reason.
// The pages' screenshots go to SHOTS-DIR so a person can look at them.
import puppeteer from 'puppeteer-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [mode, url, job, shots, tern] = process.argv.slice(2);
const base = url.replace(/\/console\/.*$/, '');
const token = url.replace(/^.*token=/, '');
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-chromium-'));
fs.mkdirSync(shots, { recursive: true });

function fail(msg) {
	console.error('FAIL: ' + msg);
	process.exit(1);
}

function ctlState() {
	const out = execFileSync(tern, ['ctl', job, 'status'], { encoding: 'utf8' });
	return JSON.parse(out).state;
}

async function until(what, fn, ms = 30000) {
	const end = Date.now() + ms;
	for (;;) {
		const v = await fn();
		if (v) return v;
		if (Date.now() > end) fail('timed out waiting for ' + what);
		await new Promise((r) => setTimeout(r, 250));
	}
}

const browser = await puppeteer.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	headless: true,
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync',
		`--user-data-dir=${profile}`],
});
let exitCode = 0;

async function live(page) {
	await page.setViewport({ width: 1360, height: 900 });
	const errors = [];
	page.on('pageerror', (e) => errors.push(e.message));
	page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
	page.on('dialog', (d) => d.accept());
	const text = (sel) => page.$eval(sel, (e) => e.textContent.trim());
	const num = async (sel) => Number((await text(sel)).replace(/,/g, ''));
	const shot = (name) => page.screenshot({ path: path.join(shots, name + '.png'), fullPage: true });
	// The answer an action shows, once it is this action's.
	const result = async (what) => until(what + ' result', async () => {
		const r = await page.$eval('#result', (e) => (e.hidden ? '' : e.textContent));
		return r.startsWith(what + ':') ? r : null;
	});

	// Without the token: the login page only.
	let res = await page.goto(base + '/console/');
	if (res.status() !== 401) fail('overview without the token: ' + res.status());
	if (!(await page.$('input[name="token"]'))) fail('no login form');
	if ((await page.content()).includes(job)) fail('the login page shows the job');
	await page.type('input[name="token"]', token);
	await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
	if (!page.url().includes('token=')) fail('login form did not carry the token');
	/* The browser logs the login page's 401; from here on, nothing. */
	errors.length = 0;
	console.log('ok: login page, then the overview with the token');

	// The overview: counts move, charts draw.
	const p0 = await num('[data-k="pages"]');
	await until('pages to move', async () => (await num('[data-k="pages"]')) > p0);
	const p1 = await num('[data-k="pages"]');
	await until('pages to move again', async () => (await num('[data-k="pages"]')) > p1);
	if ((await text('#state')) !== 'RUNNING') fail('state ' + (await text('#state')));
	await new Promise((r) => setTimeout(r, 2500));
	const drawn = await page.$$eval('canvas[data-series]', (cs) => cs.map((c) => {
		const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
		let ink = 0;
		for (let i = 3; i < d.length; i += 4) if (d[i] > 0) ink++;
		return ink;
	}));
	if (drawn.length !== 4 || drawn.some((n) => n < 500)) fail('charts not drawn: ' + drawn);
	await shot('overview');
	console.log(`ok: overview counts move (${p0} -> ${p1} -> more), four charts drawn`);

	// Queues retire (a small budget) and the crawl is held EMPTY.
	await until('every queue retired (EMPTY)', async () => (await text('#state')) === 'EMPTY', 90000);
	if (ctlState() !== 'EMPTY') fail('tern ctl status: ' + ctlState());
	const retired = await num('[data-q="retired"]');
	if (retired < 1) fail('no retired queue on the overview');
	await Promise.all([page.waitForNavigation(), page.click('nav a[data-p="queues"]')]);
	await page.select('select[name="state"]', 'retired');
	await Promise.all([page.waitForNavigation(), page.click('form.filter button[type="submit"]')]);
	if (!page.url().includes('state=retired')) fail('filter URL ' + page.url());
	const states = await page.$$eval('table.queues tbody .qs', (e) => e.map((x) => x.textContent));
	if (states.length !== retired || states.some((s) => s !== 'RETIRED'))
		fail(`retired filter: ${states} (overview said ${retired})`);
	await shot('queues-retired');
	// Sorted by size, through the same form.
	await page.select('select[name="sort"]', 'size');
	await Promise.all([page.waitForNavigation(), page.click('form.filter button[type="submit"]')]);
	const sizes = await page.$$eval('table.queues tbody tr', (rows) => rows.map((r) =>
		Number(r.children[3].textContent.replace(/,/g, ''))));
	for (let i = 1; i < sizes.length; i++) if (sizes[i] > sizes[i - 1]) fail('not sorted by size: ' + sizes);
	console.log(`ok: queues page, ${retired} retired queues filtered, sorted by size`);

	// A queue's page.
	await Promise.all([page.waitForNavigation(), page.click('table.queues tbody td.key a')]);
	if (!(await page.$('table.fields'))) fail('no queue fields');
	const nextUris = await page.$$eval('ol.uris li', (l) => l.length);
	const logRows = await page.$$eval('table.log tbody tr', (l) => l.length);
	if (nextUris < 1 || logRows < 1) fail(`queue page: ${nextUris} next URIs, ${logRows} log lines`);
	await shot('queue');
	console.log(`ok: a queue's page: Heritrix fields, ${nextUris} next URIs, ${logRows} log lines`);

	// Settings: raise the budget through the form; retired queues come back.
	await Promise.all([page.waitForNavigation(), page.click('nav a[data-p="settings"]')]);
	const input = await page.$('input[name="frontier.queue-total-budget"]');
	if (!input) fail('no frontier.queue-total-budget field');
	await input.click({ clickCount: 3 });
	await input.type('-1');
	await page.click('#settings .bar button[type="submit"]');
	const applied = await result('settings');
	if (!/frontier\.queue-total-budget applies now/.test(applied)) fail('settings result: ' + applied);
	await shot('settings');
	await until('the crawl running again', async () => ctlState() === 'RUNNING');
	await Promise.all([page.waitForNavigation(), page.click('nav a[data-p="overview"]')]);
	await until('no retired queue left', async () => (await num('[data-q="retired"]')) === 0);
	console.log('ok: budget raised from the settings form; retired queues came back, RUNNING');

	// Pause and unpause with the buttons; tern ctl agrees.
	await page.click('button[data-action="pause"]');
	let r = await result('pause');
	if (!/pause: done/.test(r)) fail('pause: ' + r);
	await until('PAUSED', async () => ctlState() === 'PAUSED');
	await until('the page to say PAUSED', async () => (await text('#state')) === 'PAUSED');
	await shot('overview-paused');
	await page.click('button[data-action="unpause"]');
	r = await result('unpause');
	if (!/unpause: done/.test(r)) fail('unpause: ' + r);
	await until('RUNNING', async () => ctlState() === 'RUNNING');
	console.log('ok: pause and unpause buttons; tern ctl status agrees');

	// A checkpoint from its page.
	await Promise.all([page.waitForNavigation(), page.click('nav a[data-p="checkpoints"]')]);
	await page.click('button[data-action="checkpoint"]');
	r = await result('checkpoint');
	const m = /checkpoint (cp\d+-\d{14})/.exec(r);
	if (!m) fail('checkpoint: ' + r);
	if (!fs.existsSync(path.join(job, 'checkpoints', m[1], 'valid'))) fail('no valid ' + m[1]);
	await page.waitForNavigation({ timeout: 10000 });
	if (!(await page.content()).includes(m[1])) fail('checkpoint not listed');
	await shot('checkpoints');
	console.log('ok: checkpoint ' + m[1] + ' taken from its page and listed');

	// Hosts and the crawl log, filtered.
	await Promise.all([page.waitForNavigation(), page.click('nav a[data-p="hosts"]')]);
	const hosts = await page.$$eval('table.hosts tbody td.key', (l) => l.map((x) => x.textContent));
	if (hosts.length < 2) fail('hosts: ' + hosts);
	await shot('hosts');
	await Promise.all([page.waitForNavigation(), page.click('nav a[data-p="log"]')]);
	await page.type('input[name="host"]', hosts[0]);
	await page.type('input[name="status"]', '2xx');
	await Promise.all([page.waitForNavigation(), page.click('form.filter button[type="submit"]')]);
	const uris = await page.$$eval('table.log tbody td.uri:nth-child(4)', (l) => l.map((x) => x.textContent));
	const codes = await page.$$eval('table.log tbody td:nth-child(2)', (l) => l.map((x) => x.textContent));
	if (uris.length < 1 || uris.some((u) => !u.includes('//' + hosts[0])) || codes.some((c) => !/^2\d\d$/.test(c)))
		fail(`log filter ${hosts[0]} 2xx: ${uris.slice(0, 3)} ${codes.slice(0, 3)}`);
	await shot('log');
	console.log(`ok: hosts page (${hosts.length} hosts) and the log filtered by host and status`);

	// Stop with its button (a confirmation dialog, accepted). The page's
	// next polls find no crawl: errors from here on are expected.
	if (errors.length) fail('errors in the page: ' + errors.join(' | '));
	await Promise.all([page.waitForNavigation(), page.click('nav a[data-p="overview"]')]);
	await page.click('button[data-action="stop"]');
	r = await result('stop');
	if (!/stop: done/.test(r)) fail('stop: ' + r);
	console.log('ok: stop button');
}

async function offline(page) {
	const errors = [];
	page.on('pageerror', (e) => errors.push(e.message));
	await page.setViewport({ width: 1360, height: 900 });
	await page.goto(url);
	const state = await page.$eval('#state', (e) => e.textContent);
	if (state !== 'OFFLINE') fail('offline state: ' + state);
	await page.screenshot({ path: path.join(shots, 'offline-overview.png'), fullPage: true });
	// The hostile line the test appended to crawl.log, shown as text.
	await page.goto(base + '/console/log?token=' + token + '&host=evil.web.test');
	const cells = await page.$$eval('table.log tbody td', (l) => l.map((x) => x.textContent));
	const all = cells.join(' ');
	if (!all.includes('<script>window.__xss=1</script>') || !all.includes('"><img src=x onerror=window.__xss=2>'))
		fail('the hostile line is not shown as text: ' + all.slice(0, 300));
	const injected = await page.evaluate(() => ({
		xss: window.__xss,
		scripts: document.querySelectorAll('main script').length,
		imgs: document.querySelectorAll('main img').length,
	}));
	if (injected.xss !== undefined || injected.scripts || injected.imgs)
		fail('markup from crawl.log reached the page: ' + JSON.stringify(injected));
	await page.screenshot({ path: path.join(shots, 'offline-log-hostile.png'), fullPage: true });
	if (errors.length) fail('errors in the page: ' + errors.join(' | '));
	console.log('ok: offline console; a hostile crawl.log line shown as text, nothing injected');
}

try {
	const page = await browser.newPage();
	if (mode === 'live')
		await live(page);
	else
		await offline(page);
} catch (e) {
	console.error('FAIL: ' + (e.stack || e));
	exitCode = 1;
} finally {
	await browser.close();
	fs.rmSync(profile, { recursive: true, force: true });
}
process.exit(exitCode);
