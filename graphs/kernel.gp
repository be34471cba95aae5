# kernel.gp - a `dbscale micro` / `dbscale fs` results directory: ops/s
# (median of the samples) against tasks, one panel per test, every series
# (processes or threads, at a CPU count) with its linear line dotted in its
# colour: tasks x the one-task rate, the line a perfectly scaling kernel
# path would follow. The generated kernel.gp names the panels (tname), the
# series of panel P (tidx[tstart[P] .. tstart[P+1]-1]) and their entries
# (mwhat); the plot command is built from indices only.
set xlabel "tasks"
set ylabel "operations/s"
set yrange [0:*]
set format y "%.1s%c"
set key inside left top vertical Left reverse font ",8" spacing 0.9 samplen 2
# In a multiplot the footnote would sit on the bottom panels: it goes under the title.
unset label 99
set multiplot layout nrows, ncols title title_main."\n".subtitle.(exists("footnote") && strlen(footnote) > 0 ? "\n".footnote : "")
do for [q = 1:ntest] {
    set title tname[q]
    cmd = "NaN with lines lc rgb '#777777' dt 3 lw 1 title 'linear (tasks x one task)'"
    do for [r = tstart[q]:tstart[q + 1] - 1] {
        i = tidx[r]
        c = r - tstart[q] + 1
        cmd = cmd.sprintf(", mfile[%d] using 1:3 with linespoints lt %d title mwhat[%d]", i, c, i)
        cmd = cmd.sprintf(", mfile[%d] using 1:4 with lines lt %d dt 3 lw 1 notitle", i, c)
    }
    eval "plot ".cmd
}
unset multiplot
