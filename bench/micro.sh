#!/bin/sh
# bench/micro.sh - what the micro harness costs: getppid1 and pipe1 ops/s
# through `dbscale micro` against a bare single-purpose loop (micro_bare.c,
# built here into build/bench/) timed the same way, interleaved ABBA with
# repeats so drift on a shared machine falls on both sides alike.
# usage: bench/micro.sh [DBSCALE] [REPEATS]   (target: harness/bare >= 0.97)
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
bin=${1:-$top/build/dbscale}
reps=${2:-21}
# Short points, many pairs: on a shared machine the load moves between points,
# and finer interleaving pairs each harness run with a bare run under the same load.
warm=0.1 n=3 iv=0.1
mkdir -p "$top/build/bench"
cc -O2 -std=c11 -Wall -Wextra -Werror -o "$top/build/bench/micro_bare" "$here/micro_bare.c"
bare=$top/build/bench/micro_bare
cpu=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//; s/[-,].*//')
cpu=${cpu:-0}
out=$(mktemp /tmp/micro_bench.XXXXXX)
trap 'rm -f "$out"' EXIT

harness() { # test -> median ops/s, 1 process task on $cpu
    "$bin" micro "$1" --tasks=1 --mode=process --cpus="$cpu" --warmup=$warm --samples=$n \
        --interval=$iv --output=csv | awk -F, 'NR == 2 { print $5 }'
}
for r in $(seq 1 "$reps"); do
    for t in getppid pipe; do
        if [ $((r % 2)) -eq 1 ]; then
            b=$("$bare" $t "$cpu" $warm $n $iv); h=$(harness ${t}1)
        else
            h=$(harness ${t}1); b=$("$bare" $t "$cpu" $warm $n $iv)
        fi
        echo "$t $r $b $h" >>"$out"
        echo "  ${t}1 repeat $r: bare $b  harness $h" >&2
    done
done
# Per test: median of the bare rates, of the harness rates, and of the
# per-pair ratios harness/bare (the pairing removes slow drift), with the
# interquartile range of those ratios.
printf '%-10s %8s %14s %14s %8s %14s\n' test pairs "bare ops/s" "harness ops/s" ratio "ratio IQR"
for t in getppid pipe; do
    awk -v t=$t '$1 == t { b[++n] = $3; h[n] = $4; q[n] = $4 / $3 }
    function med(a, n,   i, j, x) {
        for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
        mb = med(b, n); mh = med(h, n); mq = med(q, n)
        printf "%-10s %8d %14.0f %14.0f %8.3f %6.3f-%6.3f\n", t "1", n, mb, mh, mq, q[int((n + 3) / 4)], q[int((3 * n + 1) / 4)]
    }' "$out"
done
