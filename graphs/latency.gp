# latency.gp - transaction latency percentiles vs client threads (median of
# the repeats): p50 solid, p95 dashed, p99 dotted; log y axis.
set title title_main."\n".subtitle
set xlabel "client threads"
set ylabel "latency (ms, log scale)"
set logscale y 10
set format y "%g"
plot for [i=1:n] file[i] using 1:10 with linespoints lt i dt 1 title label[i], \
     for [i=1:n] file[i] using 1:11 with linespoints lt i dt 2 lw 1.5 notitle, \
     for [i=1:n] file[i] using 1:12 with linespoints lt i dt 3 lw 1.5 notitle, \
     NaN with lines lc rgb "#777777" dt 1 title "p50", \
     NaN with lines lc rgb "#777777" dt 2 title "p95", \
     NaN with lines lc rgb "#777777" dt 3 title "p99"
