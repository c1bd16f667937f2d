# The marginal CPU per page of bench/endless.sh's rows: for each variant
# and WARC setting, points in order of pages, the extra CPU per extra page
# from the previous point (from 0 for the first), for the whole process,
# the loop thread and the rest (the whole less the loop: LevelDB's
# compaction thread; the rows' own sample of the other threads can miss a
# thread that ended before the last sample).
#   awk -f bench/endless.awk ROWS.tsv
# Output columns (tab-separated, one header line):
#   variant warc pages queued queues cpu_s pages_per_s rss_mb
#   marginal_ms loop_marginal_ms other_marginal_ms runs
# (pages/s: mean pages over mean wall seconds).
BEGIN { FS = OFS = "\t" }
$11 == 0 { n++; v[n] = $1; w[n] = $2; p[n] = $3; wall[n] = $4; cpu[n] = $5; rss[n] = $6
	q[n] = $7; qs[n] = $8; loop[n] = $9; oth[n] = $5 - $9 }
END {
	print "variant", "warc", "pages", "queued", "queues", "cpu_s", "pages_per_s", "rss_mb",
	    "marginal_ms", "loop_marginal_ms", "other_marginal_ms", "runs"
	# Insertion sort by variant, warc, pages (a handful of rows).
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && (v[j - 1] "\t" w[j - 1] > v[j] "\t" w[j] ||
		    (v[j - 1] == v[j] && w[j - 1] == w[j] && p[j - 1] > p[j])); j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			t = w[j]; w[j] = w[j - 1]; w[j - 1] = t
			t = p[j]; p[j] = p[j - 1]; p[j - 1] = t
			t = wall[j]; wall[j] = wall[j - 1]; wall[j - 1] = t
			t = cpu[j]; cpu[j] = cpu[j - 1]; cpu[j - 1] = t
			t = rss[j]; rss[j] = rss[j - 1]; rss[j - 1] = t
			t = q[j]; q[j] = q[j - 1]; q[j - 1] = t
			t = qs[j]; qs[j] = qs[j - 1]; qs[j - 1] = t
			t = loop[j]; loop[j] = loop[j - 1]; loop[j - 1] = t
			t = oth[j]; oth[j] = oth[j - 1]; oth[j - 1] = t
		}
	# Repetitions of a point (same variant and WARC, pages within 2 %)
	# become one: the mean of each figure, their number in runs.
	m = 0
	for (i = 1; i <= n; i++) {
		if (m > 0 && v[i] == V[m] && w[i] == Wa[m] && p[i] <= P[m] / R[m] * 1.02) {
			R[m]++; P[m] += p[i]; WALL[m] += wall[i]; CPU[m] += cpu[i]; RSS[m] += rss[i]
			Q[m] += q[i]; QS[m] += qs[i]; L[m] += loop[i]; O[m] += oth[i]
			continue
		}
		m++; R[m] = 1; V[m] = v[i]; Wa[m] = w[i]; P[m] = p[i]; WALL[m] = wall[i]; CPU[m] = cpu[i]
		RSS[m] = rss[i]; Q[m] = q[i]; QS[m] = qs[i]; L[m] = loop[i]; O[m] = oth[i]
	}
	for (i = 1; i <= m; i++) {
		P[i] /= R[i]; WALL[i] /= R[i]; CPU[i] /= R[i]; RSS[i] /= R[i]; Q[i] /= R[i]; QS[i] /= R[i]
		L[i] /= R[i]; O[i] /= R[i]
		first = i == 1 || V[i] != V[i - 1] || Wa[i] != Wa[i - 1]
		dp = first ? P[i] : P[i] - P[i - 1]
		dc = first ? CPU[i] : CPU[i] - CPU[i - 1]
		dl = first ? L[i] : L[i] - L[i - 1]
		do_ = first ? O[i] : O[i] - O[i - 1]
		printf "%s\t%s\t%d\t%d\t%d\t%.2f\t%.0f\t%.1f\t%.3f\t%.3f\t%.3f\t%d\n", V[i], Wa[i], P[i], Q[i], QS[i],
		    CPU[i], (WALL[i] > 0 ? P[i] / WALL[i] : 0), RSS[i] / 1024,
		    (dp > 0 ? dc * 1000 / dp : 0), (dp > 0 ? dl * 1000 / dp : 0), (dp > 0 ? do_ * 1000 / dp : 0), R[i]
	}
}
