# Plots of bench/run's results (gnuplot 5, pngcairo or png terminal).
#   gnuplot -e "curves='C.tsv'; store='S.tsv'; pps='PPS.tsv'; rss='RSS.tsv'; outdir='DIR'; sfx=''" bench/plot.gp
# curves: curve x pages wall cpu rss_kb queued C exit peak errors latency_ms
# seconds_at_90pc (one row per point). store: bench/frontierbench points (see bench/run).
# pps, rss: workload x tool matrices of medians (bench/stats.awk mode=matrix).
# have: the curves with points (e.g. "hosts conc"); pps/rss and store are
# defined only when there is something to draw (a partial run, --only).
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
if (exists("pps")) {
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
}
if (!exists("have")) { have = "" }

set style data linespoints
set logscale x
set ylabel "pages/s"
set y2label "peak RSS (MB)"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
if (strstrt(have, "hosts") > 0) {
set output outdir."/hosts".sfx.".png"
set title "tern: pages/s and peak RSS vs number of hosts"
set xlabel "hosts (every host a seed)"
plot curves using (strcol(1) eq "hosts" ? $2 : NaN):($3/$4) title "pages/s" lw 2 pt 7, \
     curves using (strcol(1) eq "hosts" ? $2 : NaN):($6/1024) axes x1y2 title "peak RSS MB" lw 2 pt 5
}

if (strstrt(have, "frontier") > 0) {
set output outdir."/frontier-crawl".sfx.".png"
set title "tern: pages/s and peak RSS vs queued URLs at the end of the crawl"
set xlabel "queued URLs"
plot curves using (strcol(1) eq "frontier" ? $7 : NaN):($3/$4) title "pages/s" lw 2 pt 7, \
     curves using (strcol(1) eq "frontier" ? $7 : NaN):($6/1024) axes x1y2 title "peak RSS MB" lw 2 pt 5
}

if (strstrt(have, "conc") > 0) {
set output outdir."/concurrency".sfx.".png"
set title "tern: pages/s, requests in flight and peak RSS vs crawl.max-connections"
set xlabel "connections C (2C hosts; 100 ms per response, 5 s at C = 10,000)"
set ylabel "pages/s, requests in flight at the server"
plot curves using (strcol(1) eq "conc" ? $2 : NaN):($3/$4) title "pages/s" lw 2 pt 7, \
     curves using (strcol(1) eq "conc" ? $2 : NaN):($2*1000/$12) with points title "C / latency (latency bound on pages/s)" pt 6 ps 1.5, \
     curves using (strcol(1) eq "conc" ? $2 : NaN):10 title "most requests in flight (server)" lw 2 pt 9, \
     curves using (strcol(1) eq "conc" ? $2 : NaN):($6/1024) axes x1y2 title "peak RSS MB" lw 2 pt 5
}

# The frontier alone: operations per second and RSS as the queue grows.
if (exists("store")) {
	set output outdir."/frontier".sfx.".png"
	set title "frontier alone (bench/frontierbench): ops/s and RSS vs URIs queued (1,000 queues)"
	set xlabel "URIs queued at once"
	set ylabel "operations/s"
	set y2label "RSS (MB)"
	plot store using 1:5 title "schedule/s" lw 2 pt 7, \
	     store using 1:9 title "next+finish/s" lw 2 pt 9, \
	     store using 1:($6/1024) axes x1y2 title "RSS with all queued MB" lw 2 pt 5, \
	     store using 1:($10/1024) axes x1y2 title "peak RSS MB" lw 2 pt 4
}

# The endless web (bench/endless.sh, rows by bench/endless.awk): marginal
# CPU per page, whole process and loop thread, and pages/s and RSS, as the
# frontier grows. endless: the .tsv; endlessbase (optional): the same
# curve of an earlier build, drawn dashed for comparison.
if (exists("endless")) {
	set output outdir."/endless-cpu".sfx.".png"
	set title "tern on the endless nginx web: marginal CPU per page vs queued URIs"
	set xlabel "queued URIs at the end of the point"
	set ylabel "marginal CPU ms per page (from the previous point)"
	unset y2label
	unset y2tics
	set ytics mirror
	sel(v, w) = (strcol(1) eq v && strcol(2) eq w)
	plot endless using (sel("endless", "false") ? $4 : NaN):9 title "whole process, WARC off" lw 2 pt 7, \
	     endless using (sel("endless", "false") ? $4 : NaN):10 title "loop thread, WARC off" lw 2 pt 9, \
	     endless using (sel("endless", "true") ? $4 : NaN):9 title "whole process, WARC on" lw 2 pt 5, \
	     endless using (sel("endless-hosts", "false") ? $4 : NaN):9 title "host-heavy, WARC off" lw 2 pt 11, \
	     (exists("endlessbase") ? endlessbase : endless) using (exists("endlessbase") && sel("endless", "false") ? $4 : NaN):9 \
		title "whole process, WARC off, before" lw 2 dt 2 pt 6
	set output outdir."/endless-rate".sfx.".png"
	set title "tern on the endless nginx web: pages/s and peak RSS vs queued URIs"
	set ylabel "pages/s (wall clock; the machine was shared)"
	set y2label "peak RSS (MB)"
	set ytics nomirror
	set y2tics
	plot endless using (sel("endless", "false") ? $4 : NaN):7 title "pages/s, WARC off" lw 2 pt 7, \
	     endless using (sel("endless", "true") ? $4 : NaN):7 title "pages/s, WARC on" lw 2 pt 5, \
	     endless using (sel("endless", "false") ? $4 : NaN):8 axes x1y2 title "peak RSS MB, WARC off" lw 2 pt 9, \
	     endless using (sel("endless-hosts", "false") ? $4 : NaN):8 axes x1y2 title "peak RSS MB, host-heavy" lw 2 pt 11
}

# One crawl to 100M queued URIs (bench/endless.sh --curve): curvewin, the
# windows of bench/endless-samples.awk (marginal CPU per page, whole
# process, loop thread and the others, and the anonymous RSS) drawn over
# the points of the separate runs (endlesspts: rows as endless above), x on
# a log scale.
if (exists("curvewin")) {
	set output outdir."/endless-100m".sfx.".png"
	set title "tern on the endless nginx web to 100M queued URIs, WARC on (one crawl)"
	set xlabel "queued URIs"
	set logscale x
	set ylabel "marginal CPU ms per page"
	set y2label "anonymous RSS (MB)"
	set ytics nomirror
	set y2tics
	set yrange [0:*]
	set y2range [0:*]
	set key top left
	plot curvewin using 1:3 title "whole process" with linespoints lw 2 pt 7 ps 0.6, \
	     curvewin using 1:4 title "loop thread" with linespoints lw 2 pt 9 ps 0.6, \
	     curvewin using 1:5 title "other threads (compaction, WARC pool)" with linespoints lw 2 pt 5 ps 0.6, \
	     curvewin using 1:6 axes x1y2 title "anonymous RSS MB (right)" with lines lw 2 dt 2, \
	     (exists("endlesspts") ? endlesspts : curvewin) using (exists("endlesspts") && strcol(1) eq "endless" && strcol(2) eq "true" ? $4 : NaN):9 \
		title "whole process, WARC on, separate runs" with points pt 4 ps 1.5
	unset logscale x
	set yrange [*:*]
	set y2range [*:*]
}
