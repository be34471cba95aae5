# timeseries.gp - each level's --report-interval periods (intervals.csv):
# throughput (solid, left axis) and p95 latency (dashed, right axis) over the
# level's measured time, one small panel per level, so warmup, checkpoints
# and stalls show. The generated timeseries.gp names the panels' data files
# (tsfile) and titles (tstitle).
# In a multiplot the footnote would sit on the bottom panels: it goes under
# the title, and so does what the axes are, said once for every panel (a
# legend inside a panel covered its data).
unset label 99
axes_note = "tps: solid line, left axis;  p95 latency ms: dashed line, right axis;  x: seconds into the level"
set multiplot layout nrows, ncols title title_main."\n".subtitle.(exists("footnote") && strlen(footnote) > 0 ? "\n".footnote : "")."\n".axes_note
set xrange [0:tmax]
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
# plain numbers (12000, 600, 0.5): "%.1s%c" printed 600 as "600.0"
set format y "%g"
set format y2 "%g"
set xlabel "s" offset 0,0.8 font ",8"
set tics font ",8"
set key off
do for [q = 1:npanel] {
    set title tstitle[q] font ",9" offset 0,-0.6
    plot tsfile[q] using 1:2 axes x1y1 with lines lt 1 dt 1 notitle, \
         tsfile[q] using 1:3 axes x1y2 with lines lt 2 dt 2 notitle
}
unset multiplot
