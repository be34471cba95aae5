# efficiency.gp - parallel efficiency vs client threads: throughput over the
# ideal that is linear up to the server's CPU count and flat after; 100% is
# as good as the CPUs allow, above 100% superlinear (see summary.md).
set title title_main."\n".subtitle
set xlabel "client threads"
set ylabel "efficiency (% of ideal: linear up to the server's CPUs, flat after)"
set yrange [0:ymax]
plot 100 with lines lc rgb "#777777" dt 3 lw 1 title "ideal (100%)", \
     for [i=1:n] file[i] using 1:($9*100) with linespoints lt i title label[i]
