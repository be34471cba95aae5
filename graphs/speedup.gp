# speedup.gp - speedup over the first point (x[i] / (x[0]/n[0])) vs client
# threads, with the ideal y = x diagonal.
set title title_main."\n".subtitle
set xlabel "client threads"
set ylabel "speedup (x single-thread throughput)"
set yrange [0:ymax]
plot x with lines lc rgb "#777777" dt 3 lw 1 title "ideal (linear)", \
     for [i=1:n] file[i] using 1:8 with linespoints lt i title label[i]
