#!/bin/sh
# bench/verdict_stats.sh - what the verdict statistics (driver/stats: effects,
# BH, classes, moderation, curve bootstrap) cost over synthetic studies, the
# size issue 40 names (variants x CPU counts x threads x repeats = 5,000
# values a figure, three figures) and one ten times larger (5,000 points
# compared a figure). Issue 40's target: 5,000 points in a few seconds.
# The USL fit of every resample is ~90% of the time.
# Builds build/bench/verdict_stats from bench/verdict_stats.c against the
# stats room's objects. Prints the load average: a loaded machine's figures
# are not clean (say so when quoting them).
# usage: bench/verdict_stats.sh [BOOT_REPS]   (default 1000)
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
reps=${1:-1000}
cd "$top"
make -s build/obj/driver/core/util.o build/obj/driver/core/safefile.o \
    $(ls driver/stats/*.c | sed 's|^|build/obj/|; s|\.c$|.o|')
mkdir -p build/bench
cc -O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Idriver -o build/bench/verdict_stats \
    bench/verdict_stats.c build/obj/driver/stats/*.o build/obj/driver/core/util.o \
    build/obj/driver/core/safefile.o -lm
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
# 2 variants x 10 CPU counts x 50 thread counts x 5 repeats = 5,000 values a figure
build/bench/verdict_stats 10 50 5 "$reps"
# 5,000 points compared a figure: 50 CPU counts x 100 thread counts
build/bench/verdict_stats 50 100 5 "$reps"
