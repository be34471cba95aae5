/*
 * results.h - the results directory: what a sweep leaves on disk and what
 * plot and compare read back. Every file is written whole to a temp name and
 * renamed (write_file_atomic), after each level, so a crash loses at most the
 * level in flight.
 *
 * A results directory holds:
 *   results.csv  one row per (variant, cpus, threads, repeat), columns below
 *                (this file)
 *   meta.json    dbscale version/commit, options (no passwords), kernel, CPUs,
 *                server address, version and settings, timing, variants,
 *                start/end times, levels done (meta.h)
 *   meta.N.json  earlier runs' meta.json when --append added a run (resdir.h)
 *   micro.csv    (optional) kernel baseline rows (benchcsv.h)
 *   fs.csv       (optional) file create/remove baseline rows (benchcsv.h)
 *   levels.csv   when each level ran, its start and wall time (levels.h)
 *
 * results.csv columns, in this order (header line first, '#' lines ignored):
 *   engine,workload,variant,cpus,threads,repeat,time_s,tps,qps,qps_read,
 *   qps_write,qps_other,lat_min_ms,lat_avg_ms,lat_p50_ms,lat_p95_ms,
 *   lat_p99_ms,lat_max_ms,errors,reconnects,error_codes,client_cpu_s,
 *   client_cpu_per_txn_us,server_cpu_s,idle_pct,client_cpus,server_cpus,
 *   shared_cpus,disturbed,disturbed_why,rank,host,connections,boot
 * error_codes is "CODE:COUNT;CODE:COUNT" (empty when none). cpus is the
 * number of CPUs the server was held to; server_cpus/client_cpus the lists
 * ("0-1"); shared_cpus 1 when client and server could run on the same CPU.
 * disturbed 1 when the level did not measure what it meant to (connections
 * lost or reconnected, a stall, work left unfinished, nothing completed);
 * disturbed_why says which ("3 reconnects; 1 lost"); graphs can mark those.
 * rank is "" on a level's row; a sweep over MPI ranks (dbscale-mpi) adds,
 * after the levels, one row per rank and level with rank "0", "1"...: the
 * level's variant/cpus/threads/repeat, that rank's host and connections
 * (its share of threads) and its own figures (tps, latencies, client CPU).
 * results_read keeps those apart (rank_rows), so plot, compare and the
 * page see the levels only. connections is threads on a level's row.
 * boot is the kernel's boot_id where the level ran (kernelinfo.h): rows of
 * one boot are repeats within it, rows of two are separate boots (a
 * kernels study's --repeats, or --append after a reboot); "" in files from
 * before the column and on a rank's row.
 * Readers find columns by header name, so a newer writer may add columns.
 */
#ifndef DBSCALE_RESULTS_H
#define DBSCALE_RESULTS_H

#include <stddef.h>

struct result_row {
    char engine[16];
    char workload[32];
    char variant[32]; /* "smp-k2", "up", or a user's --variant label */
    int cpus, threads, repeat;
    double time_s, tps, qps, qps_read, qps_write, qps_other;
    /* NAN when not measured (an empty cell, or a file without the column) */
    double lat_min_ms, lat_avg_ms, lat_p50_ms, lat_p95_ms, lat_p99_ms, lat_max_ms;
    long long errors, reconnects;
    char error_codes[128];
    double client_cpu_s, client_cpu_per_txn_us, server_cpu_s, idle_pct;
    char client_cpus[32], server_cpus[32];
    int shared_cpus, disturbed;
    char disturbed_why[96]; /* why the level is marked disturbed, "" when it is not */
    char rank[8];           /* "" for a level, "N" for rank N's part of it */
    char host[64];          /* a rank's host ("" on a level's row) */
    int connections;        /* the connections this row measured */
    char boot[40];          /* the boot it was measured in: the kernel's boot_id, "" unknown */
};

struct result_set {
    char path[512];          /* directory or file it was read from */
    struct result_row *rows; /* the levels */
    size_t n;
    struct result_row *rank_rows; /* dbscale-mpi: the ranks' parts of them */
    size_t nrank;
};

/* Write rows to DIR/results.csv atomically (the whole file, header first). */
int results_write_csv(const char *dir, const struct result_row *rows, size_t n);
/* The same with the ranks' rows after the levels' (rank set on each). */
int results_write_csv_ranks(const char *dir, const struct result_row *rows, size_t n,
                            const struct result_row *rank_rows, size_t nrank);
/* Read DIR/results.csv (or a .csv path). 0, or -1 with a message naming the
 * file and line in err. Unknown columns are ignored; a missing required
 * column (engine, variant, cpus, threads, tps) is an error. */
int results_read(const char *path, struct result_set *out, char *err, size_t errlen);
void results_free(struct result_set *s);

#endif
