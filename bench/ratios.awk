# bench/ratios.awk - the ratio table of bench/run.sh, from its raw.tsv
# (engine, workload, threads, rep, tool, tps, cpu_us_per_txn[,
# server_us_per_txn[, events_sd_mean]]). Usage:
#   awk -f bench/ratios.awk raw.tsv
# Each repeat runs dbscale and its peer back to back, so a repeat's ratio
# compares two runs minutes apart at most; the table gives the median of
# those paired ratios and their range, which slow drift of the machine
# (large on a shared VM) moves far less than a ratio of medians.
BEGIN { FS = "\t" }
NR > 1 {
    k = $1 "\t" $2 "\t" $3
    if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
    tps[k, $4, $5] = $6; cpu[k, $4, $5] = $7
    if (NF >= 8 && $8 != "nan") { srv[k, $4, $5] = $8; has_srv = 1 }
    if (NF >= 9 && $9 != "nan") { fair[k, $4, $5] = $9; has_fair = 1 }
    if ($5 != "dbscale") peer[k] = $5
    if ($4 + 0 > nrep[k]) nrep[k] = $4 + 0
}
function sort(v, n,    i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
}
function median(v, n) { sort(v, n); return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
# paired ratios of arr for key k: median, and min/max in lo/hi (globals)
function paired(arr, k,    r, n, i) {
    n = 0
    for (i = 1; i <= nrep[k]; i++)
        if ((k, i, "dbscale") in arr && (k, i, peer[k]) in arr && arr[k, i, peer[k]] > 0)
            r[++n] = arr[k, i, "dbscale"] / arr[k, i, peer[k]]
    if (n == 0) { lo = hi = 0; return 0 }
    sort(r, n); lo = r[1]; hi = r[n]
    return median(r, n)
}
function med_of(arr, k, tool,    v, n, i) {
    n = 0
    for (i = 1; i <= nrep[k]; i++) if ((k, i, tool) in arr) v[++n] = arr[k, i, tool]
    return n ? median(v, n) : 0
}
# a tool's median fairness, "-" when its reports have none (pgbench)
function fair_of(k, tool,    i) {
    for (i = 1; i <= nrep[k]; i++) if ((k, i, tool) in fair) return sprintf("%.2f", med_of(fair, k, tool))
    return "-"
}
END {
    # sort keys: engine, workload, threads (numeric)
    for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++) {
        split(keys[i], a, "\t"); split(keys[j], b, "\t")
        if (a[1] > b[1] || (a[1] == b[1] && (a[2] > b[2] || (a[2] == b[2] && a[3] + 0 > b[3] + 0)))) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
    }
    printf "%-6s %-15s %4s %-8s %9s %9s %5s %-11s %7s %7s %5s %-11s", "engine", "workload", "thr", "peer",
           "tps", "peer", "ratio", "(range)", "cpu us", "peer", "ratio", "(range)"
    printf "%s%s\n", has_srv ? " server us ratio" : "", has_fair ? "  events sd/mean (peer)" : ""
    for (i = 1; i <= nk; i++) {
        k = keys[i]; split(k, f, "\t")
        if (!(k in peer)) continue
        tr = paired(tps, k); tlo = lo; thi = hi
        cr = paired(cpu, k); clo = lo; chi = hi
        printf "%-6s %-15s %4s %-8s %9.1f %9.1f %5.2f (%.2f-%.2f) %7.1f %7.1f %5.2f (%.2f-%.2f)", f[1], f[2], f[3], peer[k],
               med_of(tps, k, "dbscale"), med_of(tps, k, peer[k]), tr, tlo, thi,
               med_of(cpu, k, "dbscale"), med_of(cpu, k, peer[k]), cr, clo, chi
        if (has_srv)
            printf " %9.1f %5.2f", med_of(srv, k, "dbscale"), paired(srv, k)
        if (has_fair)
            printf "  %5s (%s)", fair_of(k, "dbscale"), fair_of(k, peer[k])
        printf "\n"
    }
}
