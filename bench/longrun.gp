# gnuplot -e "tsv='longrun.tsv'; png='longrun.png'" bench/longrun.gp:
# bench/longrun.sh's samples, memory and store size against pages visited.
set terminal pngcairo size 900,500 font ",10"
set output png
set datafile separator "\t"
set key top left
set xlabel "pages visited (millions)"
set ylabel "MB"
set y2label "store on disk (MB)"
set y2tics
set ytics nomirror
set grid
set title "A continuous crawl revisiting the same URIs: memory and store"
plot tsv using ($2/1e6):($3/1024) skip 1 with lines lw 2 title "RSS", \
     tsv using ($2/1e6):($4/1024) skip 1 with lines dt 2 title "peak RSS", \
     tsv using ($2/1e6):($5/1048576) skip 1 axes x1y2 with lines lw 2 title "store (state/)"
