# Medians, minima and maxima of bench/run's rows (tab-separated: workload
# tool rep pages coverage wall cpu rss_kb server_cpu exit), as the markdown
# table (mode=table) or the tern/peer ratios (mode=ratios).
function med(s,    a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	lo = a[1]; hi = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function fmt(s, f) {
	m = med(s)
	if (lo == hi)
		return sprintf(f, m)
	return sprintf(f " [" f "-" f "]", m, lo, hi)
}
$1 != "lowmem" && $1 != "hosts" && $1 != "hosts0" && $1 != "frontier" && $1 != "conc" {
	k = $1 SUBSEP $2
	if (!(k in n)) { order[++nk] = k }
	n[k]++
	pps = $6 > 0 ? $4 / $6 : 0
	cpk = $4 > 0 ? $7 * 1000 / $4 : 0
	P[k] = P[k] " " $4; C[k] = C[k] " " $5; WA[k] = WA[k] " " $6
	R[k] = R[k] " " pps; U[k] = U[k] " " cpk; M[k] = M[k] " " $8 / 1024; S[k] = S[k] " " $9
	if (!($1 in seenw)) { seenw[$1] = 1; wl[++nw] = $1 }
}
END {
	if (mode == "table") {
		for (i = 1; i <= nk; i++) {
			k = order[i]; split(k, kk, SUBSEP)
			printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", kk[1], kk[2], n[k],
				fmt(P[k], "%d"), fmt(C[k], "%.3f"), fmt(WA[k], "%.1f"), fmt(R[k], "%.0f"),
				fmt(U[k], "%.3f"), fmt(M[k], "%.1f"), fmt(S[k], "%.1f")
		}
		exit
	}
	if (mode == "matrix") {
		# Median pages/s (col=R) or peak RSS MB (col=M) per workload and
		# tool, for gnuplot's clustered histograms; "-" where missing.
		nt = split("tern tern+warc wget2 scrapy wrk", tools, " ")
		printf "workload"
		for (j = 1; j <= nt; j++) printf "\t%s", tools[j]
		printf "\n"
		for (i = 1; i <= nw; i++) {
			printf "%s", wl[i]
			for (j = 1; j <= nt; j++) {
				k = wl[i] SUBSEP tools[j]
				printf "\t%s", (k in n) ? (col == "M" ? med(M[k]) : med(R[k])) : "-"
			}
			printf "\n"
		}
		exit
	}
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		t = w SUBSEP "tern"; g = w SUBSEP "wget2"; s = w SUBSEP "scrapy"; r = w SUBSEP "wrk"
		x = w SUBSEP "tern+warc"
		if (!(t in n)) continue
		tr = med(R[t]); tu = med(U[t]); tm = med(M[t])
		gr = (g in n) ? med(R[g]) : 0; gu = (g in n) ? med(U[g]) : 0; gm = (g in n) ? med(M[g]) : 0
		sr = (s in n) ? med(R[s]) : 0; su = (s in n) ? med(U[s]) : 0; sm = (s in n) ? med(M[s]) : 0
		wr = (r in n) ? med(R[r]) : 0
		xr = (x in n) ? med(R[x]) : 0
		bu = gu; if (su > 0 && (bu == 0 || su < bu)) bu = su
		bm = gm; if (sm > 0 && (bm == 0 || sm < bm)) bm = sm
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w,
			(gr > 0 ? sprintf("%.2f", tr / gr) : "-"), (gr > 0 && xr > 0 ? sprintf("%.2f", xr / gr) : "-"),
			(sr > 0 ? sprintf("%.1f", tr / sr) : "-"),
			(wr > 0 ? sprintf("%.2f", tr / wr) : "-"), (gu > 0 ? sprintf("%.2f", tu / gu) : "-"),
			(bu > 0 ? sprintf("%.2f", tu / bu) : "-"), (gm > 0 ? sprintf("%.2f", tm / gm) : "-"),
			(bm > 0 ? sprintf("%.2f", tm / bm) : "-")
	}
}
