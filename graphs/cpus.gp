# cpus.gp - throughput vs the number of CPUs the server may use, one curve
# per client thread count: the "does it use all the cores?" picture.
# Colour = thread count (ltv), dash = results directory/engine (dtv); the
# dotted ideal-linear line is drawn for each group's best curve only.
set title title_main."\n".subtitle
set xlabel "server CPUs"
set ylabel "throughput (transactions/s)"
set yrange [0:ymax]
set format y "%.0f"
plot for [i=1:n] file[i] using 1:2:3:4 with yerrorlines lt ltv[i] dt dtv[i] title label[i], \
     for [i=1:n] file[i] using 1:(ideal[i] ? $5 : NaN) with lines lt ltv[i] dt 3 lw 1 notitle, \
     NaN with lines lc rgb "#777777" dt 3 lw 1 title "ideal linear from the fewest CPUs"
