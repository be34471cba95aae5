# cpus.gp - throughput vs the number of CPUs the server may use, one curve
# per client thread count: the "does it use all the cores?" picture.
# Colour = thread count (ltv), dash = results directory/engine (dtv, named
# in the legend by gname; never dt 3, the ideal's dots); the
# dotted ideal-linear line is drawn for each group's best curve only.
set title title_main."\n".subtitle
set xlabel "server CPUs"
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
plot for [i=1:n] file[i] using 1:2:3:4 with yerrorlines lt ltv[i] dt dtv[i] title label[i], \
     for [i=1:n] file[i] using 1:(ideal[i] ? $5 : NaN) with lines lt ltv[i] dt 3 lw 1 notitle, \
     for [g=1:ngroup] NaN with lines lc rgb "#777777" dt gdt[g] title gname[g], \
     NaN with lines lc rgb "#777777" dt 3 lw 1 title "ideal linear from the fewest CPUs"
