// bench/reportstall.sh's client: on the control socket SOCK, GET PATH
// (/report/queues by default) once while GET /status is asked again and again (one at a
// time, each on a new connection) until the report has arrived. Prints
// "QUEUES REPORT-MS REPORT-BYTES STATUS-MAX-MS STATUS-MEDIAN-MS ANSWERS".
import net from 'node:net';

const sock = process.argv[2];
const path = process.argv[3] || '/report/queues';

function get(path) {
	return new Promise((resolve) => {
		const t0 = process.hrtime.bigint();
		const c = net.createConnection(sock);
		let bytes = 0;
		const chunks = [];
		c.on('connect', () => c.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
		c.on('data', (d) => { bytes += d.length; if (chunks.length < 4) chunks.push(d); });
		c.on('close', () => resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, bytes, head: Buffer.concat(chunks).toString('latin1') }));
		c.on('error', () => {});
	});
}

const status = await get('/status');
const total = /"queues_total": (\d+)/.exec(status.head) || /"total": (\d+)/.exec(status.head);
let done = false;
const report = get(path).then((r) => { done = true; return r; });
const lat = [];
while (!done) lat.push((await get('/status')).ms);
const r = await report;
lat.sort((a, b) => a - b);
const med = lat.length ? lat[Math.floor(lat.length / 2)] : 0;
const max = lat.length ? lat[lat.length - 1] : 0;
console.log(`${total ? total[1] : '?'} ${r.ms.toFixed(0)} ${r.bytes} ${max.toFixed(1)} ${med.toFixed(1)} ${lat.length}`);
