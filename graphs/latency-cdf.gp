# latency-cdf.gp - the latency distribution per client thread count: the
# fraction of transactions at or under each latency (log x), from the
# histograms in latency.csv with every repeat's buckets added, one curve per
# variant and CPU count, one panel per thread count. The generated
# latency-cdf.gp names the data files (cdffile), entries (cdflabel) and
# which curves each panel holds (pstart); the plot is built from indices.
unset xtics
set xtics autofreq
set logscale x 10
set xrange [xmin:xmax]
set yrange [0:1.02]
set xlabel "transaction latency (ms, log scale)"
set ylabel "fraction of transactions at or under"
set ytics 0.25
set key inside right bottom vertical Left reverse font ",8" samplen 2
# In a multiplot the footnote would sit on the bottom panels: it goes under the title.
unset label 99
set multiplot layout nrows, ncols title title_main."\n".subtitle.(exists("footnote") && strlen(footnote) > 0 ? "\n".footnote : "")
do for [q = 1:npanel] {
    set title sprintf("%d client thread%s", pthreads[q], pthreads[q] == 1 ? "" : "s")
    cmd = ""
    do for [s = pstart[q]:pstart[q + 1] - 1] {
        cmd = cmd.(strlen(cmd) ? ", " : "").sprintf("cdffile[%d] using 1:2 with steps lt %d title cdflabel[%d]", s, s - pstart[q] + 1, s)
    }
    eval "plot ".cmd
}
unset multiplot
