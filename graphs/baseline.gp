# baseline.gp - normalised scaling (throughput over the first point's, per
# thread or task) of the database curves beside the kernel baseline
# (micro.csv tests, fs.csv file create/remove): is the limit the server or
# the kernel? One panel per CPU count: a database curve is only compared
# with kernel figures measured on as many CPUs.
# The generated baseline.gp names, per panel, which curves (cidx) and kernel
# series (midx) it holds; the plot command is assembled from their indices
# only (no data is ever evaluated as text).
set xlabel "client threads / benchmark tasks"
set ylabel "normalised throughput (x first point)"
set yrange [0:ymax]
# Panels stacked, each the full width; the key at the right of each, small,
# because a panel may hold many kernel series.
set key outside right top vertical Left reverse font ",8" spacing 0.9 samplen 2 maxrows 40
# In a multiplot the footnote would sit on the bottom panels: it goes under the title.
unset label 99
set multiplot layout npanel, 1 title title_main."\n".subtitle.(exists("footnote") && strlen(footnote) > 0 ? "\n".footnote : "")
do for [p = 1:npanel] {
    set title (pcpus[p] > 0 ? sprintf("%d CPU%s", pcpus[p], pcpus[p] == 1 ? "" : "s") : "CPUs unknown")
    cmd = "x with lines lc rgb '#777777' dt 3 lw 1 title 'ideal (linear)'"
    do for [q = cstart[p]:cstart[p + 1] - 1] {
        cmd = cmd.sprintf(", file[%d] using 1:8 with linespoints lt %d title label[%d]", cidx[q], cidx[q], cidx[q])
    }
    do for [q = mstart[p]:mstart[p + 1] - 1] {
        cmd = cmd.sprintf(", mfile[%d] using 1:2 with linespoints lt %d dt 2 lw 1.5 pt 6 title mlabel[%d]", midx[q], n + midx[q], midx[q])
    }
    eval "plot ".cmd
}
unset multiplot
