# The samples of bench/endless.sh --curve (OUT-samples.tsv) in windows of
# at least MIN pages (default 100000): for each window the queued URIs at
# its end, the marginal CPU per page inside it (whole process, loop
# thread, the others), the anonymous RSS and the store's bytes per queued
# URI at its end.
#   awk [-v min=N] -f bench/endless-samples.awk OUT-samples.tsv
# Output columns (tab-separated, one header line):
#   queued pages marginal_ms loop_marginal_ms other_marginal_ms anon_mb state_bytes_per_uri
BEGIN { FS = OFS = "\t"; if (min == "") min = 100000
	print "queued", "pages", "marginal_ms", "loop_marginal_ms", "other_marginal_ms", "anon_mb",
	    "state_bytes_per_uri" }
NR == 1 { next }
$2 == "" || $2 == 0 { next }
!have { p0 = $2; l0 = $5; o0 = $6; have = 1; next }
$2 - p0 >= min {
	dp = $2 - p0
	printf "%d\t%d\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\n", $3, $2, ($5 - l0 + $6 - o0) * 1000 / dp,
	    ($5 - l0) * 1000 / dp, ($6 - o0) * 1000 / dp, $7 / 1024, ($3 > 0 ? $9 / $3 : 0)
	p0 = $2; l0 = $5; o0 = $6
}
