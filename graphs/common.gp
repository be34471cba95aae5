# common.gp - terminal, size and line styles shared by every dbscale graph.
# Loaded by the generated scripts after they set `name` (output file stem).
# The format comes from `fmt` ("png" or "svg"): gnuplot -e 'fmt="svg"' X.gp
if (!exists("fmt")) fmt = "png"
if (!exists("width")) width = 1000
if (!exists("height")) height = 700
if (fmt eq "svg") {
    set terminal svg size width,height fixed noenhanced font "Sans,13" background rgb "white"
} else {
    if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
        set terminal pngcairo size width,height noenhanced font "Sans,10" background rgb "white"
    } else {
        set terminal png size width,height noenhanced font "Sans,10" background rgb "white"
    }
}
set output name.".".fmt
set encoding utf8

# One colour per curve, the same in every graph (a colour-blind-safe set).
set linetype 1 lc rgb "#0072B2" lw 2 pt 7 ps 1.1
set linetype 2 lc rgb "#D55E00" lw 2 pt 5 ps 1.1
set linetype 3 lc rgb "#009E73" lw 2 pt 9 ps 1.3
set linetype 4 lc rgb "#CC79A7" lw 2 pt 11 ps 1.3
set linetype 5 lc rgb "#E69F00" lw 2 pt 13 ps 1.3
set linetype 6 lc rgb "#56B4E9" lw 2 pt 7 ps 1.1
set linetype 7 lc rgb "#000000" lw 2 pt 5 ps 1.1
set linetype 8 lc rgb "#999933" lw 2 pt 9 ps 1.3
set linetype 9 lc rgb "#882255" lw 2 pt 11 ps 1.3
set linetype 10 lc rgb "#44AA99" lw 2 pt 13 ps 1.3
set linetype cycle 10

set grid xtics ytics lc rgb "#dddddd" lw 1 dt 1
set border 3 lc rgb "#555555"
set tics nomirror out
set key below left Left reverse samplen 3 spacing 1.1 maxrows 8 nobox height 1.5
set xlabel offset 0,0.5
set bars small
set title font ",13"

# n, run time and warmup, small at the bottom of every graph: centred, so
# no estimate of its width can push it past an edge (right-aligned at the
# edge, cairo's estimate clipped its last letters).
if (exists("footnote") && strlen(footnote) > 0) {
    set label 99 footnote at screen 0.5, 0.014 center font ",8" tc rgb "#555555"
}

# Thread or CPU counts as the x tics, log2 axis when they span a factor >= 8.
if (exists("logx") && logx) { set logscale x 2 }
if (exists("xt")) { set xtics (); do for [w in xt] { set xtics add (w w+0) } }
if (exists("xmin")) { set xrange [xmin:xmax] }
