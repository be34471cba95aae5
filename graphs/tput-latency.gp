# tput-latency.gp - throughput vs p95 latency, one point per thread count
# (labelled), joined in thread order: where more clients stop buying work
# and only buy waiting. Column 15 says which points carry their label:
# dbscale leaves out a label that would land on one already drawn.
set title title_main."\n".subtitle
set xlabel "p95 latency (ms)"
set ylabel "throughput (transactions/s)"
set yrange [0:ymax]
set xrange [0:*]
set format y "%.0f"
plot for [i=1:n] file[i] using 11:2 with linespoints lt i title label[i], \
     for [i=1:n] file[i] using 11:2:($15 > 0 ? sprintf("%d", $1) : "") with labels \
         offset char 0.9,0.7 font ",9" tc lt i notitle
