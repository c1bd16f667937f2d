/* tern's operator console: live figures and charts, action buttons and the
 * settings form. Hand-written, no framework, no build step; served by tern
 * itself under a Content-Security-Policy that allows this file and nothing
 * inline. Every request carries the job's token in the Authorization
 * header (the page has it in <meta name="tern-token">; empty on
 * control.sock, where the socket's owner-only mode is the check). Actions
 * are POSTs to the control socket's own routes (/pause, /settings, ...). */
'use strict';

/* The charts' value axis, pure: a round top for the largest value, and
 * labels with as many decimals as the step between them needs, so that no
 * two read the same (tests/ops/console_axis.sh loads this file under node). */
const ternAxis = (function () {
	function niceMax(v) {
		if (!(v > 0)) return 1;
		const e = Math.pow(10, Math.floor(Math.log10(v)));
		for (const m of [1, 2, 2.5, 5, 10]) if (v <= m * e) return m * e;
		return 10 * e;
	}

	/* Decimals that write step exactly: 0.25 needs 2, 0.00005 needs 5. */
	function decimals(step) {
		let d = 0;
		while (d < 12 && Math.abs(step * Math.pow(10, d) - Math.round(step * Math.pow(10, d))) >
		    1e-6 * Math.max(1, step * Math.pow(10, d)))
			d++;
		return d;
	}

	/* Large values by k, M and G; an axis whose top (4 steps) is under
	 * 0.01 by m (1e-3) or µ (1e-6), so that its labels stay short. */
	function label(v, step) {
		if (v >= 1e9) return (v / 1e9).toFixed(decimals(step / 1e9)) + 'G';
		if (v >= 1e6) return (v / 1e6).toFixed(decimals(step / 1e6)) + 'M';
		if (v >= 1e4) return (v / 1e3).toFixed(decimals(step / 1e3)) + 'k';
		if (v === 0) return '0';
		if (4 * step < 1e-5) return (v * 1e6).toFixed(decimals(step * 1e6)) + '\u00b5';
		if (4 * step < 1e-2) return (v * 1e3).toFixed(decimals(step * 1e3)) + 'm';
		return v.toFixed(decimals(step));
	}

	return { niceMax, label };
})();
if (typeof module === 'object' && module.exports) module.exports = ternAxis;

if (typeof document !== 'undefined') (function () {
	const token = document.querySelector('meta[name="tern-token"]')?.content || '';
	const page = document.body.dataset.page || '';
	const live = document.body.dataset.live === '1';
	const POLL_MS = 1000;
	const RING_MS = 3600 * 1000;

	function headers(json) {
		const h = {};
		if (token) h.Authorization = 'Bearer ' + token;
		if (json) h['Content-Type'] = 'application/json';
		return h;
	}

	async function call(method, path, body) {
		const r = await fetch(path, {
			method,
			headers: headers(body !== undefined),
			body: body !== undefined ? JSON.stringify(body) : undefined,
			cache: 'no-store',
			credentials: 'omit',
		});
		let data = null;
		const text = await r.text();
		try { data = JSON.parse(text); } catch (e) { data = { text }; }
		return { ok: r.ok, status: r.status, data };
	}

	function fmt(n, digits) {
		if (n === null || n === undefined || Number.isNaN(n)) return '–';
		return Number(n).toLocaleString('en-US', {
			minimumFractionDigits: digits || 0, maximumFractionDigits: digits || 0 });
	}

	function duration(s) {
		s = Math.max(0, Math.floor(s));
		const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600);
		const m = Math.floor(s % 3600 / 60), sec = s % 60;
		const two = (v) => String(v).padStart(2, '0');
		return (d > 0 ? d + 'd ' : '') + two(h) + ':' + two(m) + ':' + two(sec);
	}

	/* The result area: what the crawl answered to the last action. */
	function show(kind, text) {
		const el = document.getElementById('result');
		if (!el) return;
		el.hidden = false;
		el.className = 'result ' + kind;
		el.textContent = text;
	}

	function describe(action, res) {
		const d = res.data || {};
		if (!res.ok) return action + ': refused (' + res.status + '): ' + (d.error || d.text || '');
		const parts = [];
		if (d.state) parts.push('state ' + d.state);
		if (d.note) parts.push(d.note);
		if (d.checkpoint) parts.push('checkpoint ' + d.checkpoint + ' in ' + fmt(d.ms, 1) + ' ms');
		if (d.reconsidered !== undefined) parts.push(d.reconsidered + ' retired queues back to inactive');
		if (d.applied) {
			for (const [k, when] of Object.entries(d.applied)) parts.push(k + ' applies ' + when);
		}
		return action + ': done' + (parts.length ? ' — ' + parts.join('; ') : '');
	}

	function setState(s) {
		const el = document.getElementById('state');
		if (el && s.state) {
			el.textContent = s.state;
			el.dataset.state = s.state;
		}
		const r = document.getElementById('reason');
		if (r) r.textContent = s.reason || '';
	}

	/* Action buttons. */
	for (const b of document.querySelectorAll('button[data-action]')) {
		b.addEventListener('click', async () => {
			const action = b.dataset.action;
			if (b.dataset.confirm && !window.confirm(b.dataset.confirm)) return;
			b.disabled = true;
			try {
				const res = await call('POST', '/' + action);
				show(res.ok ? 'ok' : 'bad', describe(action, res));
				if (res.ok && res.data && res.data.state) setState(res.data);
				if (res.ok && b.dataset.reload) setTimeout(() => location.reload(), 600);
			} catch (e) {
				show('bad', action + ': ' + e.message);
			} finally {
				b.disabled = false;
			}
		});
	}

	/* The settings form: only changed fields are sent, as tern.conf text. */
	function initial(el) {
		if (el.tagName !== 'SELECT') return el.defaultValue;
		for (const o of el.options) if (o.defaultSelected) return o.value;
		return el.options.length ? el.options[0].value : '';
	}

	const form = document.getElementById('settings');
	if (form) {
		form.addEventListener('submit', async (ev) => {
			ev.preventDefault();
			const changes = {};
			for (const el of form.querySelectorAll('[name]')) {
				if (initial(el) !== el.value) changes[el.name] = el.value;
			}
			if (Object.keys(changes).length === 0) {
				show('ok', 'nothing changed');
				return;
			}
			const res = await call('POST', '/settings', changes);
			show(res.ok ? 'ok' : 'bad', describe('settings', res));
			if (res.ok) {
				for (const el of form.querySelectorAll('[name]')) {
					if (!(el.name in changes)) continue;
					if (el.tagName === 'SELECT') {
						for (const o of el.options) o.defaultSelected = o.selected;
					} else {
						el.defaultValue = el.value;
					}
					el.closest('tr')?.classList.add('changed');
				}
				if (res.data && res.data.state) setState(res.data);
			}
		});
	}

	/* Charts: points [t_ms, value]; drawn on a canvas, no library. */
	function drawChart(canvas, points, unit) {
		const ratio = window.devicePixelRatio || 1;
		const w = canvas.clientWidth || canvas.width, h = canvas.clientHeight || canvas.height;
		if (canvas.width !== Math.round(w * ratio)) {
			canvas.width = Math.round(w * ratio);
			canvas.height = Math.round(h * ratio);
		}
		const g = canvas.getContext('2d');
		g.setTransform(ratio, 0, 0, ratio, 0, 0);
		g.clearRect(0, 0, w, h);
		const left = 56, right = 8, top = 8, bottom = 22;
		const pw = w - left - right, ph = h - top - bottom;
		g.font = '11px system-ui, sans-serif';
		g.fillStyle = '#667';
		g.strokeStyle = '#dde';
		g.lineWidth = 1;
		if (points.length < 2) {
			g.fillText('waiting for data…', left + 8, top + ph / 2);
			return;
		}
		const t0 = points[0][0], t1 = points[points.length - 1][0];
		let max = 0;
		for (const p of points) if (p[1] !== null && p[1] > max) max = p[1];
		/* Bytes come whole: a trickle's axis reads 0 to 4 B, never mB. */
		max = ternAxis.niceMax(unit === 'B' ? Math.max(max, 4) : max);
		for (let i = 0; i <= 4; i++) {
			const y = top + ph - ph * i / 4;
			g.beginPath();
			g.moveTo(left, y + 0.5);
			g.lineTo(left + pw, y + 0.5);
			g.stroke();
			g.fillText(ternAxis.label(max * i / 4, max / 4) + unit, 4, y + 4);
		}
		const span = Math.max(1, t1 - t0);
		for (let i = 0; i <= 3; i++) {
			const t = t0 + span * i / 3;
			const d = new Date(t);
			const label = String(d.getHours()).padStart(2, '0') + ':' +
			    String(d.getMinutes()).padStart(2, '0') + (span < 600000 ? ':' +
			    String(d.getSeconds()).padStart(2, '0') : '');
			const x = left + pw * i / 3;
			g.fillText(label, Math.min(x, left + pw - 44), h - 6);
		}
		g.strokeStyle = '#2a6fdb';
		g.lineWidth = 1.5;
		g.beginPath();
		let pen = false;
		for (const p of points) {
			if (p[1] === null) { pen = false; continue; }
			const x = left + pw * (p[0] - t0) / span;
			const y = top + ph - (max > 0 ? ph * p[1] / max : 0);
			if (pen) g.lineTo(x, y); else g.moveTo(x, y);
			pen = true;
		}
		g.stroke();
	}

	/* Samples are cumulative [t_ms, pages, bytes, in_flight, queued]; rates
	 * come from consecutive samples. bytes may be null (an old progress.log). */
	let history = [];	/* from progress.log, older than the ring */
	let ring = [];		/* from the crawl's memory */
	let range = 0;		/* seconds shown; 0: the whole crawl */
	let since = 0;

	function series(name) {
		const all = history.filter((p) => ring.length === 0 || p[0] < ring[0][0]).concat(ring);
		const from = range > 0 && all.length ? all[all.length - 1][0] - range * 1000 : 0;
		const out = [];
		for (let i = 1; i < all.length; i++) {
			const a = all[i - 1], b = all[i];
			if (b[0] < from) continue;
			const dt = (b[0] - a[0]) / 1000;
			if (dt <= 0) continue;
			let v;
			if (name === 'pages_per_s') v = Math.max(0, (b[1] - a[1]) / dt);
			else if (name === 'bytes_per_s') v = a[2] === null || b[2] === null ? null : Math.max(0, (b[2] - a[2]) / dt);
			else if (name === 'in_flight') v = b[3];
			else v = b[4];
			out.push([b[0], v]);
		}
		return out;
	}

	function redraw() {
		for (const c of document.querySelectorAll('canvas[data-series]')) {
			const name = c.dataset.series;
			drawChart(c, series(name), c.dataset.unit || '');
		}
	}

	function update(s) {
		setState(s);
		const v = {
			pages: fmt(s.pages), failures: fmt(s.failures), in_flight: fmt(s.in_flight),
			queued: fmt(s.frontier.uris.queued), discovered: fmt(s.frontier.uris.discovered),
			pages_per_s: fmt(s.pages_per_s, 1), pages_per_s_avg: fmt(s.pages_per_s_avg, 1),
			mb_per_s: fmt(s.mb_per_s, 2), mb: fmt(s.bytes / 1e6, 1),
			rss_mb: s.rss_kb > 0 ? fmt(s.rss_kb / 1024) : '–', elapsed: duration(s.seconds),
			dropped: s.dropped || 'none',
		};
		for (const [k, text] of Object.entries(v)) {
			for (const el of document.querySelectorAll('[data-k="' + k + '"]')) el.textContent = text;
		}
		if (s.frontier && s.frontier.queues) {
			// The state words of the page are written with hyphens.
			for (const [k, n] of Object.entries(s.frontier.queues)) {
				const q = k.replace(/_/g, '-');
				for (const el of document.querySelectorAll('[data-q="' + q + '"]')) el.textContent = fmt(n);
			}
		}
	}

	let polling = false;
	async function poll() {
		if (polling || document.hidden) return;
		polling = true;
		try {
			const res = await call('GET', '/console/api/live?since=' + since);
			if (res.ok && res.data) {
				update(res.data);
				for (const p of res.data.samples || []) ring.push(p);
				if (ring.length) since = ring[ring.length - 1][0];
				const cut = Date.now() - RING_MS;
				while (ring.length > 0 && ring[0][0] < cut) ring.shift();
				if (page === 'overview') redraw();
			}
		} catch (e) {
			/* The crawl may have ended; the next poll tries again. */
		} finally {
			polling = false;
		}
	}

	async function loadHistory() {
		try {
			const res = await call('GET', '/console/api/history');
			if (res.ok && res.data && Array.isArray(res.data.samples)) {
				history = res.data.samples;
				redraw();
			}
		} catch (e) { /* charts keep the ring only */ }
	}

	for (const b of document.querySelectorAll('button[data-range]')) {
		b.addEventListener('click', () => {
			range = Number(b.dataset.range);
			for (const o of document.querySelectorAll('button[data-range]')) o.classList.toggle('on', o === b);
			redraw();
		});
	}

	/* Offline the long view is all there is: drawn once. */
	if (page === 'overview') {
		loadHistory();
		if (live) setInterval(loadHistory, 60000);
		window.addEventListener('resize', redraw);
	}
	if (live) {
		poll();
		setInterval(poll, POLL_MS);
	}
})();
