# The table of doc/frontier.md, "What each key kind costs", from
# bench/kinds.sh's rows: for each point (label MODE-PAGES) and key kind,
# MB written by the crawl (keys and values put, keys deleted), LevelDB's
# MB read and written by compactions and memtable flushes, the seconds
# they took (wall clock, leveldb.stats), the compaction thread's CPU
# seconds shared out in proportion to them, and the live MB at the end
# with its bytes per queued URI.
#   awk -f bench/kinds.awk RUNS.tsv KINDS.tsv
# RUNS.tsv: bench/endless.sh's rows (pages, queued, loop and other CPU);
# a point's row is the one whose pages are within 2 % of the label's.
BEGIN { FS = OFS = "\t" }
FNR == NR { n++; rp[n] = $3; rq[n] = $7; rcpu[n] = $5; rloop[n] = $9; roth[n] = $5 - $9; next }
{
	l = $1; k = $3
	if (!(l in seen)) { seen[l] = 1; order[++m] = l }
	key = l SUBSEP k
	if (!(key in has)) { has[key] = 1; kinds[l] = kinds[l] " " k }
	wr[key] = ($5 + $6 + $8) / 1048576
	ent[key] = $4 + $7
	live[key] = $16 / 1048576
	cs[key] = $19; rd[key] = $20; wm[key] = $21
	tcs[l] += $19
}
END {
	print "label", "kind", "entries_written", "mb_written", "comp_read_mb", "comp_write_mb",
	    "comp_wall_s", "comp_cpu_s", "live_mb", "live_bytes_per_queued", "queued", "cpu_s", "other_cpu_s"
	for (i = 1; i <= m; i++) {
		l = order[i]; p = l; sub(/^[a-z]*-/, "", p)
		q = 0; oth = 0; cpu = 0
		for (j = 1; j <= n; j++)
			if (rp[j] >= p * 0.98 && rp[j] <= p * 1.02) { q = rq[j]; oth = roth[j]; cpu = rcpu[j] }
		c = split(substr(kinds[l], 2), ks, " ")
		for (x = 1; x <= c; x++) {
			key = l SUBSEP ks[x]
			printf "%s\t%s\t%d\t%.1f\t%.1f\t%.1f\t%.2f\t%.2f\t%.1f\t%.1f\t%d\t%.2f\t%.2f\n", l, ks[x],
			    ent[key], wr[key], rd[key], wm[key], cs[key],
			    (tcs[l] > 0 ? oth * cs[key] / tcs[l] : 0), live[key],
			    (q > 0 ? live[key] * 1048576 / q : 0), q, cpu, oth
		}
	}
}
