# throughput.gp - throughput vs client threads: median of the repeats with
# min/max error bars, the ideal line (dotted: linear from the first point up
# to the server's CPU count, flat after) and
# the Universal Scalability Law fit (dashed), one colour per curve.
set title title_main."\n".subtitle
set xlabel "client threads"
set ylabel "throughput (transactions/s)"
# A log axis (logy, from dbscale plot --log-y or curves over 10x apart)
# keeps a slow curve readable beside a fast one.
if (exists("logy") && logy) {
    set logscale y 10
    set yrange [ymin:ymax]
    set ylabel "throughput (transactions/s, log scale)"
} else {
    set yrange [0:ymax]
}
set format y "%.0f"
# Curves with fewer than 3 thread counts have no fit (an empty loop would
# still try to open a file, hence the macro).
fits = nfit > 0 ? "for [i=1:nfit] fitfile[i] using 1:2 with lines lt fitlt[i] dt 2 lw 1.5 notitle, NaN with lines lc rgb '#777777' dt 2 lw 1.5 title 'USL fit'," : ""
plot for [i=1:n] file[i] using 1:2:3:4 with yerrorlines lt i title label[i], \
     for [i=1:n] file[i] using 1:13 with lines lt i dt 3 lw 1 notitle, \
     @fits \
     NaN with lines lc rgb "#777777" dt 3 lw 1 title "ideal: linear up to the server's CPUs, flat after"
