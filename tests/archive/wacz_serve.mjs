// The loopback origin a WACZ is opened from in ReplayWeb.page, for
// tests/archive/wacz_browser.mjs, bench/wacz-viewer.mjs and
// bench/cms/replay.mjs: GET and HEAD of the
// viewer's own files (npm replaywebpage: index.html, ui.js, sw.js) and of
// the package at /archive.wacz, with the single byte ranges the viewer
// reads a WACZ by. onRange(start, end), when given, is told of every read
// of the package.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.json': 'application/json',
	'.css': 'text/css', '.svg': 'image/svg+xml', '.wasm': 'application/wasm', '.wacz': 'application/wacz' };

export async function waczServe(waczPath, rwp, onRange = null) {
	const server = http.createServer((req, res) => {
		const u = new URL(req.url, 'http://127.0.0.1');
		const file = u.pathname === '/archive.wacz' ? waczPath
			: path.join(rwp, path.normalize(decodeURIComponent(u.pathname === '/' ? '/index.html' : u.pathname)));
		let st;
		try {
			st = fs.statSync(file);
		} catch {
			st = null;
		}
		if (!st || !st.isFile() || !(file === waczPath || file.startsWith(rwp + path.sep))) {
			res.writeHead(404, { 'Content-Type': 'text/plain' });
			res.end('not found');
			return;
		}
		const head = { 'Content-Type': types[path.extname(file)] || 'application/octet-stream', 'Accept-Ranges': 'bytes',
			'Cache-Control': 'no-store' };
		let start = 0, end = st.size - 1, code = 200;
		const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range || '');
		if (m && (m[1] !== '' || m[2] !== '')) {
			if (m[1] === '') {
				start = Math.max(st.size - Number(m[2]), 0);
			} else {
				start = Number(m[1]);
				if (m[2] !== '') end = Math.min(Number(m[2]), end);
			}
			if (start > end) {
				res.writeHead(416, { 'Content-Range': `bytes */${st.size}` });
				res.end();
				return;
			}
			code = 206;
			head['Content-Range'] = `bytes ${start}-${end}/${st.size}`;
		}
		head['Content-Length'] = end - start + 1;
		res.writeHead(code, head);
		if (file === waczPath && req.method !== 'HEAD' && onRange) onRange(start, end);
		if (req.method === 'HEAD') res.end();
		else fs.createReadStream(file, { start, end }).pipe(res);
	});
	await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
	return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

// What every script that opens a WACZ in ReplayWeb.page starts with: the
// viewer's files (npm replaywebpage in tests/node_modules, scripts/deps)
// and the package served from one origin (waczServe, onRange passed on),
// and Debian's chromium (CHROMIUM overrides), driven by puppeteer-core,
// with a new profile, so nothing is cached in the viewer's IndexedDB, and
// one page of the given viewport. close() stops the browser and the
// server and removes the profile. Throws if the viewer is not installed.
export async function viewerOpen(waczPath, { onRange = null, viewport = { width: 1360, height: 900 },
	protocolTimeout = null } = {}) {
	const rwp = path.join(here, '..', 'node_modules', 'replaywebpage');
	for (const f of ['index.html', 'ui.js', 'sw.js'])
		if (!fs.existsSync(path.join(rwp, f))) throw new Error(`${rwp}/${f} missing: run scripts/deps`);
	const { default: puppeteer } = await import('puppeteer-core');
	const { server, origin } = await waczServe(waczPath, rwp, onRange);
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-chromium-'));
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		...(protocolTimeout ? { protocolTimeout } : {}),
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync',
			`--user-data-dir=${profile}`],
	});
	const page = await browser.newPage();
	await page.setViewport(viewport);
	return {
		page, origin, close: async () => {
			await browser.close();
			server.close();
			fs.rmSync(profile, { recursive: true, force: true });
		},
	};
}

// Where each entry of a ZIP file's data lies: name -> [start, end) of its
// bytes in the file (from the central directory and the local headers;
// no ZIP64, which packages of the sizes measured never need).
export function zipEntries(file) {
	const fd = fs.openSync(file, 'r');
	const size = fs.fstatSync(fd).size;
	const tail = Buffer.alloc(Math.min(size, 65557));
	fs.readSync(fd, tail, 0, tail.length, size - tail.length);
	const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
	if (eocd < 0) throw new Error(`${file}: no end of central directory`);
	const n = tail.readUInt16LE(eocd + 10), cdSize = tail.readUInt32LE(eocd + 12), cdOff = tail.readUInt32LE(eocd + 16);
	const cd = Buffer.alloc(cdSize);
	fs.readSync(fd, cd, 0, cdSize, cdOff);
	const out = {};
	for (let i = 0, p = 0; i < n; i++) {
		const csize = cd.readUInt32LE(p + 20), nl = cd.readUInt16LE(p + 28), xl = cd.readUInt16LE(p + 30),
			cl = cd.readUInt16LE(p + 32), local = cd.readUInt32LE(p + 42);
		const name = cd.toString('utf8', p + 46, p + 46 + nl);
		const lh = Buffer.alloc(30);
		fs.readSync(fd, lh, 0, 30, local);
		const start = local + 30 + lh.readUInt16LE(26) + lh.readUInt16LE(28);
		out[name] = [start, start + csize];
		p += 46 + nl + xl + cl;
	}
	fs.closeSync(fd);
	return out;
}
