# baseline.gp - normalised scaling (throughput over the first point's, per
# thread or task) of the database curves beside the kernel baseline
# microbenchmarks (micro.csv): is the limit the server or the kernel?
set title title_main."\n".subtitle
set xlabel "client threads / benchmark tasks"
set ylabel "normalised throughput (x first point)"
set yrange [0:ymax]
plot x with lines lc rgb "#777777" dt 3 lw 1 title "ideal (linear)", \
     for [i=1:n] file[i] using 1:8 with linespoints lt i title label[i], \
     for [j=1:m] mfile[j] using 1:2 with linespoints lt (n+j) dt 2 lw 1.5 pt 6 title mlabel[j]
