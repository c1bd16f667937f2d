#!/bin/sh
# The console charts' value axis (src/ops/console/console.js, ternAxis),
# loaded under node: for tops from 1e-6 (a crawl of a few bytes a second
# in MB/s) to 1e11, the five labels from 0 to the top are all different,
# each reads back as its value, and each fits the chart's margin (8
# characters). A crawl crawling 100 bytes/s once showed "0.0001" four times.
set -u
: "${top_srcdir:?}"
command -v node >/dev/null 2>&1 || { echo "FAIL: node is not installed (scripts/deps)"; exit 1; }
node - "$top_srcdir/src/ops/console/console.js" <<'JS'
const axis = require(process.argv[2]);
let fails = 0, rows = 0;
const scale = { k: 1e3, M: 1e6, G: 1e9, m: 1e-3, '\u00b5': 1e-6 };
for (let e = -6; e <= 10; e++) {
	for (const m of [1, 1.2, 1.5, 2, 2.2, 2.5, 3, 4, 5, 6, 7.5, 9, 9.99]) {
		const v = m * Math.pow(10, e), max = axis.niceMax(v), step = max / 4;
		const labels = [0, 1, 2, 3, 4].map((i) => axis.label(max * i / 4, step));
		rows++;
		const why = [];
		if (!(max >= v)) why.push(`top ${max} under ${v}`);
		if (new Set(labels).size !== 5) why.push('labels repeat');
		labels.forEach((l, i) => {
			const unit = scale[l.slice(-1)] || 1;
			const back = parseFloat(l) * unit;
			if (Math.abs(back - max * i / 4) > step * 1e-6) why.push(`${l} is not ${max * i / 4}`);
			if (l.length > 8) why.push(`${l} is too wide`);
		});
		if (why.length) {
			console.log(`FAIL: largest ${v}: ${labels.join(' ')}: ${why.join('; ')}`);
			fails++;
		}
	}
}
console.log(`${rows - fails} of ${rows} axes ok, e.g. ${[0, 1, 2, 3, 4].map((i) => axis.label(0.0002 * i / 4, 0.00005)).join(' ')}`);
process.exit(fails ? 1 : 0);
JS
