// Raw clients for the control socket tests: what curl and tern ctl never
// send. SOCK is the socket's path, or tcp:HOST:PORT for the console's TCP
// listener. Usage:
//   node ctl_raw.mjs SOCK send JSON-STRING   send the bytes, print the status
//   node ctl_raw.mjs SOCK bighead KB         a head of KB kilobytes
//   node ctl_raw.mjs SOCK bigbody MB         Content-Length MB megabytes, streamed
//   node ctl_raw.mjs SOCK flood N            N connections sending half a head each;
//                                            prints "STATUS=COUNT ..." once all closed
import net from 'node:net';

const [sock, mode, arg] = process.argv.slice(2);
const tcp = /^tcp:(.*):(\d+)$/.exec(sock);
const target = tcp ? { host: tcp[1], port: Number(tcp[2]) } : sock;

function exchange(payload, streamBody) {
	return new Promise((resolve) => {
		const c = net.createConnection(target);
		let got = '';
		let done = false;
		const finish = () => {
			if (done) return;
			done = true;
			const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
			resolve({ status: m ? Number(m[1]) : 0, body: m ? got.split('\r\n\r\n').slice(1).join('') : got });
			c.destroy();
		};
		c.on('data', (d) => { got += d.toString('latin1'); });
		c.on('end', finish);
		c.on('close', finish);
		c.on('error', (e) => { got = got || `error ${e.code}`; finish(); });
		c.on('connect', () => {
			c.write(payload);
			if (streamBody) {
				const chunk = Buffer.alloc(65536, 120);
				let left = streamBody;
				const pump = () => {
					while (left > 0 && !done) {
						left -= chunk.length;
						if (!c.write(chunk)) { c.once('drain', pump); return; }
					}
				};
				pump();
			}
		});
	});
}

if (mode === 'send') {
	const r = await exchange(JSON.parse(arg));
	console.log(r.status, r.body.trim());
} else if (mode === 'bighead') {
	const r = await exchange('GET /status HTTP/1.1\r\nX-Filler: ' + 'a'.repeat(Number(arg) * 1024) + '\r\n\r\n');
	console.log(r.status, r.body.trim());
} else if (mode === 'bigbody') {
	const n = Number(arg) * 1024 * 1024;
	const r = await exchange(`POST /settings HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${(n).toString(16)}\r\n`, n);
	console.log(r.status, r.body.trim());
} else if (mode === 'flood') {
	const all = [];
	for (let i = 0; i < Number(arg); i++) all.push(exchange('GET /status HTTP/1.1\r\nHost: slow'));
	const counts = {};
	for (const r of await Promise.all(all)) {
		counts[r.status] = (counts[r.status] || 0) + 1;
		if (!r.status) console.error('no answer:', r.body);
	}
	console.log(Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(' '));
} else {
	console.error('usage: ctl_raw.mjs SOCK send|bighead|bigbody|flood ARG');
	process.exit(2);
}
