# The marginal CPU per page of bench/endless.sh's rows: for each variant
# and WARC setting, points in order of pages, the extra CPU per extra page
# from the previous point (from 0 for the first), for the whole process,
# the loop thread and the other threads (LevelDB's compaction).
#   awk -f bench/endless.awk ROWS.tsv
# Output columns (tab-separated, one header line):
#   variant warc pages queued queues cpu_s pages_per_s rss_mb
#   marginal_ms loop_marginal_ms other_marginal_ms
BEGIN { FS = OFS = "\t" }
$11 == 0 { n++; v[n] = $1; w[n] = $2; p[n] = $3; wall[n] = $4; cpu[n] = $5; rss[n] = $6
	q[n] = $7; qs[n] = $8; loop[n] = $9; oth[n] = $10 }
END {
	print "variant", "warc", "pages", "queued", "queues", "cpu_s", "pages_per_s", "rss_mb",
	    "marginal_ms", "loop_marginal_ms", "other_marginal_ms"
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
	for (i = 1; i <= n; i++) {
		first = i == 1 || v[i] != v[i - 1] || w[i] != w[i - 1]
		dp = first ? p[i] : p[i] - p[i - 1]
		dc = first ? cpu[i] : cpu[i] - cpu[i - 1]
		dl = first ? loop[i] : loop[i] - loop[i - 1]
		do_ = first ? oth[i] : oth[i] - oth[i - 1]
		printf "%s\t%s\t%d\t%d\t%d\t%.2f\t%.0f\t%.1f\t%.3f\t%.3f\t%.3f\n", v[i], w[i], p[i], q[i], qs[i],
		    cpu[i], (wall[i] > 0 ? p[i] / wall[i] : 0), rss[i] / 1024,
		    (dp > 0 ? dc * 1000 / dp : 0), (dp > 0 ? dl * 1000 / dp : 0), (dp > 0 ? do_ * 1000 / dp : 0)
	}
}
