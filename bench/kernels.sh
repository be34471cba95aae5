#!/bin/sh
# bench/kernels.sh - what a kernels study costs per guest: the time from the
# command to the guest's /init, to its command starting, to its first
# measured level and to the end, for one short PostgreSQL point-select
# sweep; beside it the same sweep run directly on this host (its time to the
# first level and to the end), interleaved guest / host / host / guest.
#
#   usage: bench/kernels.sh [DBSCALE [REPEATS [KERNEL]]]
#
# Under TCG (no KVM, as on the project's VMs) the guest's figures are an
# emulator's: the ratio says how long a study takes here, not what the
# harness costs inside a guest. That cost, the guest's level against the
# same kernel's bare figure, is only meaningful on a KVM host: run this
# there with --accel=auto picking KVM (the script passes DBSCALE_ACCEL).
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
bin=${1:-$top/build/dbscale}
reps=${2:-3}
kernel=${3:-$(ls -t /boot/vmlinuz-* | head -n 1)}
accel=${DBSCALE_ACCEL:-auto}
work=$(mktemp -d /tmp/kernels_bench.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
SWEEP="sweep oltp_point_select --db-driver=pgsql --cpus=all --threads=1 --time=2 --repeats=1 --tables=1 --table-size=1000"

# stamp: each line of stdin prefixed with seconds since $1 (date +%s.%N)
stamp() {
    t0=$1
    while IFS= read -r l; do
        printf '%s %s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" "$l"
    done
}
# first LOG TEXT: the stamp of the first line holding TEXT
first() { awk -v p="$2" 'index($0, p) { print $1; exit }' "$1"; }

guest() {
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$bin" kernels --kernel "$kernel" --accel="$accel" --out "$work/g$1" -- $SWEEP 2>&1 |
        stamp "$t0" >"$work/g$1.log"
    printf 'guest %d init %s running %s level %s end %s\n' "$1" \
        "$(first "$work/g$1.log" 'dbscale-guest: init')" \
        "$(first "$work/g$1.log" 'dbscale-guest: running')" \
        "$(first "$work/g$1.log" '[1/1] smp')" "$(first "$work/g$1.log" 'done in')"
}
host() {
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$bin" $SWEEP --out "$work/h$1" 2>&1 | stamp "$t0" >"$work/h$1.log"
    printf 'host %d level %s end %s\n' "$1" "$(first "$work/h$1.log" '[1/1] smp')" \
        "$(tail -n 1 "$work/h$1.log" | cut -d' ' -f1)"
}
for r in $(seq 1 "$reps"); do
    if [ $((r % 2)) -eq 1 ]; then guest "$r"; host "$r"; else host "$r"; guest "$r"; fi
done | tee "$work/raw"
echo
echo "kernel $kernel, accel $accel, $reps repeats (medians; seconds from the command)"
awk '
function med(a, n,    i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
$1 == "guest" { gi[++ng] = $4; gr[ng] = $6; gl[ng] = $8; ge[ng] = $10 }
$1 == "host" { hl[++nh] = $4; he[nh] = $6 }
END {
    printf "%-28s %8s %8s %8s %8s\n", "", "init", "running", "level 1", "end"
    printf "%-28s %8.1f %8.1f %8.1f %8.1f\n", "guest (boot + sweep)", med(gi, ng), med(gr, ng), med(gl, ng), med(ge, ng)
    printf "%-28s %8s %8s %8.1f %8.1f\n", "host (the same sweep)", "-", "-", med(hl, nh), med(he, nh)
    printf "guest / host to the first level: %.1fx\n", med(gl, ng) / med(hl, nh)
}' "$work/raw"
