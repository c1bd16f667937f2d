// Prints the request and response records of a job's WARCs with npm warcio, an
// independent reader, for the tests of what tern sends (tests/fetch_headers.sh,
// tests/fetch_proxy.sh, tests/fetch_auth.sh):
//   node warc_requests.mjs JOBDIR
// One JSON object a line: the record's type, WARC-Target-URI,
// WARC-IP-Address (null when absent), and for a request its head as
// recorded (request line and headers, CRLFs kept).
import { readFileSync, readdirSync } from "node:fs";
import { WARCParser } from "warcio";

const jobdir = process.argv[2];
const files = readdirSync(jobdir + "/warcs").filter((f) => /\.warc\.gz$/.test(f)).sort();
for (const file of files) {
	const parser = new WARCParser([readFileSync(jobdir + "/warcs/" + file)],
		{ parseHttp: false, keepHeadersCase: true });
	for await (const rec of parser) {
		const body = Buffer.from(await rec.readFully());
		if (rec.warcType !== "request" && rec.warcType !== "response")
			continue;
		const h = (n) => rec.warcHeaders.headers.get(n);
		if (h("WARC-Target-URI").startsWith("dns:"))
			continue;
		console.log(JSON.stringify({ type: rec.warcType, uri: h("WARC-Target-URI"),
			ip: h("WARC-IP-Address") ?? null,
			head: rec.warcType === "request" ? body.toString("latin1") : null }));
	}
}
