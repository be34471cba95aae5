# timeseries.gp - each level's --report-interval periods (intervals.csv):
# throughput (solid, left axis) and p95 latency (dashed, right axis) over the
# level's measured time, one small panel per level, so warmup, checkpoints
# and stalls show. The generated timeseries.gp names the panels' data files
# (tsfile) and titles (tstitle).
# In a multiplot the footnote would sit on the bottom panels: it goes under the title.
unset label 99
set multiplot layout nrows, ncols title title_main."\n".subtitle.(exists("footnote") && strlen(footnote) > 0 ? "\n".footnote : "")
set xrange [0:tmax]
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set format y "%.1s%c"
set format y2 "%g"
set xlabel "s" offset 0,0.8 font ",8"
set tics font ",8"
set key off
do for [q = 1:npanel] {
    set title tstitle[q] font ",9" offset 0,-0.6
    # The legend once, in the first panel: what the two lines are.
    if (q == 1) { set key inside top right font ",7" samplen 2 } else { set key off }
    plot tsfile[q] using 1:2 axes x1y1 with lines lt 1 dt 1 title "tps", \
         tsfile[q] using 1:3 axes x1y2 with lines lt 2 dt 2 title "p95 ms"
}
unset multiplot
