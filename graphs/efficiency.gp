# efficiency.gp - parallel efficiency (speedup / threads) vs client threads;
# 100% is perfectly linear scaling.
set title title_main."\n".subtitle
set xlabel "client threads"
set ylabel "efficiency (speedup / threads, %)"
set yrange [0:ymax]
plot 100 with lines lc rgb "#777777" dt 3 lw 1 title "ideal (100%)", \
     for [i=1:n] file[i] using 1:($9*100) with linespoints lt i title label[i]
