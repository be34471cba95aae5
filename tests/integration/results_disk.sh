#!/bin/sh
# The results directory's disk fills up, or turns read-only, mid-sweep: the
# sweep stops with a clear error naming the file, exits 1, and the results
# already written stay whole and readable (each write is a temp file renamed
# over the old one). A disk full or read-only from the start is found before
# the first level. Needs root for a small private tmpfs.
. "$(dirname "$0")/lib.sh" "$1"
[ "$(id -u)" -eq 0 ] || skip_env "needs root to mount a tmpfs"
need_engine pgsql
work=$(mktemp -d)
mnt=$work/mnt
mkdir "$mnt"
mount -t tmpfs -o size=1m tmpfs "$mnt" 2>/dev/null || skip_env "cannot mount a tmpfs here"
at_exit 'umount -l "$mnt" 2>/dev/null; rm -rf "$work"'
start_server pgsql
C="$SERVER_OPTS --tables=1 --table-size=500"
ok "$DBSCALE" prepare oltp_point_select $C

# A disk that is already full or read-only is found before the first level
# (before a server would start): exit 1 naming meta.json, nothing measured.
for fault in full readonly; do
    out=$mnt/pre-$fault
    mkdir "$out"
    if [ $fault = full ]; then
        dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null # until ENOSPC
    else
        mount -o remount,ro "$mnt" || fail "cannot remount read-only"
    fi
    "$DBSCALE" sweep oltp_point_select $C --server=external --threads=1 --repeats=1 \
        --time=0.3 --out "$out" >"$work/log" 2>&1
    rc=$?
    expect_eq "$fault before start: sweep exit" $rc 1
    grep -q "cannot write $out/meta.json" "$work/log" || fail "$fault before start: $(cat "$work/log")"
    if grep -q "levels (" "$work/log"; then fail "$fault before start: it measured: $(cat "$work/log")"; fi
    if [ $fault = full ]; then rm -f "$mnt/filler"; else mount -o remount,rw "$mnt"; fi
    rmdir "$out"
done

for fault in full readonly; do
    out=$mnt/$fault
    "$DBSCALE" sweep oltp_point_select $C --server=external --threads=1,2 --repeats=20 \
        --time=0.3 --out "$out" >"$work/log" 2>&1 &
    sweep=$!
    i=0
    while [ $i -lt 200 ] && ! [ -s "$out/results.csv" ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$out/results.csv" ] || fail "$fault: no level written: $(cat "$work/log")"
    if [ $fault = full ]; then
        dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null # until ENOSPC
    else
        mount -o remount,ro "$mnt" || fail "cannot remount read-only"
    fi
    wait $sweep
    rc=$?
    expect_eq "$fault: sweep exit" $rc 1
    grep -q "cannot write $out/\(results.csv\|meta.json\|intervals.csv\|latency.csv\)" "$work/log" || fail "$fault: no clear error: $(cat "$work/log")"
    # what is on disk is a whole CSV: a header and complete rows
    ok "$DBSCALE" compare "$out" "$out" --inconclusive=pass
    cols=$(head -1 "$out/results.csv" | awk -F, '{print NF}')
    bad=$(awk -F, -v n="$cols" 'NF != n' "$out/results.csv" | wc -l)
    expect_eq "$fault: malformed lines in results.csv" "$bad" 0
    rows=$(($(wc -l <"$out/results.csv") - 1))
    # the closing line counts what is on disk, not what was measured
    if grep -q "^results: " "$work/log"; then
        grep -q "^results: $out/results.csv ($rows level" "$work/log" ||
            fail "$fault: closing line does not match $rows rows on disk: $(grep '^results: ' "$work/log")"
    fi
    echo "$fault: exit 1 with a clear error, $rows whole level(s) kept"
    if [ $fault = full ]; then rm -f "$mnt/filler"; else mount -o remount,rw "$mnt"; fi
done
