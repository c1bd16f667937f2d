# Plots of bench/run's results (gnuplot 5, pngcairo or png terminal).
#   gnuplot -e "curves='C.tsv'; pps='PPS.tsv'; rss='RSS.tsv'; outdir='DIR'; sfx=''" bench/plot.gp
# curves: curve x pages wall cpu rss_kb queued C exit (one row per point).
# pps, rss: workload x tool matrices of medians (bench/stats.awk mode=matrix).
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 900,560 font "DejaVu Sans,11" noenhanced
} else {
	set terminal png size 900,560 noenhanced
}
set datafile separator "\t"
set datafile missing "-"
set grid
set key top left

# Workloads: median pages/s and peak RSS per tool.
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set logscale y
set output outdir."/workloads-pps".sfx.".png"
set title "Pages/s per workload (median; log scale; higher is better)"
set ylabel "pages/s"
plot for [i=2:6] pps using i:xtic(1) title columnheader(i)
set output outdir."/workloads-rss".sfx.".png"
set title "Peak RSS per workload (median; log scale; lower is better)"
set ylabel "peak RSS (MB)"
plot for [i=2:6] rss using i:xtic(1) title columnheader(i)
unset logscale y
unset style

set style data linespoints
set logscale x
set output outdir."/hosts".sfx.".png"
set title "tern: pages/s and peak RSS vs number of hosts"
set xlabel "hosts (every host a seed)"
set ylabel "pages/s"
set y2label "peak RSS (MB)"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
plot curves using (strcol(1) eq "hosts" ? $2 : NaN):($3/$4) title "pages/s" lw 2 pt 7, \
     curves using (strcol(1) eq "hosts" ? $2 : NaN):($6/1024) axes x1y2 title "peak RSS MB" lw 2 pt 5

set output outdir."/frontier".sfx.".png"
set title "tern: pages/s and peak RSS vs queued URLs at the end of the crawl"
set xlabel "queued URLs"
plot curves using (strcol(1) eq "frontier" ? $7 : NaN):($3/$4) title "pages/s" lw 2 pt 7, \
     curves using (strcol(1) eq "frontier" ? $7 : NaN):($6/1024) axes x1y2 title "peak RSS MB" lw 2 pt 5

set output outdir."/concurrency".sfx.".png"
set title "tern: pages/s and peak RSS vs crawl.max-connections (100 ms per response)"
set xlabel "connections C (2C hosts)"
plot curves using (strcol(1) eq "conc" ? $2 : NaN):($3/$4) title "pages/s" lw 2 pt 7, \
     curves using (strcol(1) eq "conc" ? $2 : NaN):($2/0.1) title "C / 100 ms (latency bound)" lw 1 dt 2 pt 0, \
     curves using (strcol(1) eq "conc" ? $2 : NaN):($6/1024) axes x1y2 title "peak RSS MB" lw 2 pt 5
