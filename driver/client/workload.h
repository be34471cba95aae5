/*
 * workload.h - sysbench's OLTP transaction mixes, as statements to send.
 *
 * A workload is built once from the options; it owns the SQL text of every
 * statement (one per kind and table, with '?' placeholders) so a connection
 * can prepare them all. A transaction is then produced one statement at a
 * time by workload_next(), which draws the parameters from the connection's
 * own rng: nothing here is shared between connections while running.
 */
#ifndef DBSCALE_WORKLOAD_H
#define DBSCALE_WORKLOAD_H

#include <stdint.h>

#include "engines/db.h"
#include "client/rng.h"

enum wl_class { WL_READ, WL_WRITE, WL_OTHER };

enum wl_kind {
    K_POINT,
    K_SIMPLE,
    K_SUM,
    K_ORDER,
    K_DISTINCT,
    K_IDX_UPD,
    K_NONIDX_UPD,
    K_DELETE,
    K_INSERT,      /* delete_inserts' insert: INSERT (id, k, c, pad) */
    K_NEW_ROW,     /* oltp_insert's insert */
    K_RAND_POINTS, /* select_random_points */
    K_RAND_RANGES, /* select_random_ranges */
    K_BEGIN,
    K_COMMIT,
    K_NKINDS
};

#define WL_MAX_PARAMS 200
#define WL_MAX_PHASES 16

struct wl_config {
    const char *name;         /* workload name, e.g. "oltp_read_only" */
    const struct db_ops *ops; /* the engine's caps: DDL and oltp_insert differ */
    int tables;
    uint32_t table_size;
    unsigned range_size, point_selects, simple_ranges, sum_ranges, order_ranges, distinct_ranges,
        index_updates, non_index_updates, delete_inserts;
    int range_selects, skip_trx, auto_inc, secondary, create_secondary;
    unsigned random_points, number_of_ranges, delta;
    const char *mysql_storage_engine;
    struct rng_dist dist; /* --rand-type and friends */
};

struct wl_phase {
    enum wl_kind kind;
    unsigned count; /* statements (for delete_inserts: pairs) */
};

struct workload {
    struct wl_config cfg;
    int nstmts;
    char **sql;   /* [nstmts] '?' placeholders */
    int *nparams; /* [nstmts] */
    int *stmt_id; /* [K_NKINDS * tables]: id of (kind, table), -1 if unused */
    struct wl_phase ph[WL_MAX_PHASES];
    int nph;
};

/* One statement to send: prepared id and parameters. Strings live in buf. */
struct wl_stmt {
    int id;          /* >= 0 prepared statement, -1: sql text */
    const char *sql; /* id < 0: text (BEGIN/COMMIT) */
    int np;
    enum wl_class cls;
    struct db_param p[WL_MAX_PARAMS];
    char buf[2][128]; /* c and pad values */
};

/* Where a connection is inside its transaction. */
struct wl_state {
    int phase;
    unsigned i, sub;
    int table;
    uint32_t id, k; /* delete_inserts: the pair shares the id */
    int thread_id, nthreads;
};

/* Names of all workloads, NULL-terminated. */
extern const char *const workload_names[];

/* 0, or -1 with a message naming the bad option/value. */
int workload_init(struct workload *w, const struct wl_config *cfg, char *err, size_t errlen);
void workload_free(struct workload *w);
/* What prepare and cleanup refuse beyond workload_init: select_random_*
 * with --tables > 1 (a run accepts it: they read sbtest1 only). 0 or -1. */
int workload_check_load(const struct workload *w, char *err, size_t errlen);
/* Start a new transaction for a connection (thread_id of nthreads). */
void workload_txn_begin(const struct workload *w, struct wl_state *s, int thread_id, int nthreads);
/* Next statement of the transaction: 1 and *out filled, or 0 when done. */
int workload_next(const struct workload *w, struct wl_state *s, struct rng *r, struct wl_stmt *out);

/* The sbtest DDL for table n, from schemas/ENGINE.sql: section is "create",
 * "index" or "drop". Returns malloc'd SQL or NULL with err. */
char *workload_ddl(const struct workload *w, const char *section, int n, char *err, size_t errlen);
/* The column list prepare loads ("k, c, pad" or "id, k, c, pad"); fills
 * vals with one row's text values (row i of table_size). */
const char *workload_load_cols(const struct workload *w);
int workload_load_row(const struct workload *w, struct rng *r, uint32_t i, char vals[4][128]);

/* The strings sysbench fills c and pad with. */
extern const char WL_C_TEMPLATE[], WL_PAD_TEMPLATE[];

#endif
