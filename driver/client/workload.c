/*
 * workload.c - the sysbench OLTP mixes (oltp_common.lua and friends).
 *
 * A workload is a list of phases (kind x count) walked one statement at a
 * time; each phase picks its table once, as sysbench's execute_* functions
 * do, so the per-transaction mix and its table locality match sysbench's.
 * Unique ids for oltp_insert with --auto-inc=off come from one atomic
 * counter pushed through a 32-bit bijection, so connections never collide.
 */
#include "client/workload.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

const char WL_C_TEMPLATE[] = "###########-###########-###########-###########-###########-"
                             "###########-###########-###########-###########-###########";
const char WL_PAD_TEMPLATE[] = "###########-###########-###########-###########-###########";

const char *const workload_names[] = {"oltp_read_only",
                                      "oltp_read_write",
                                      "oltp_write_only",
                                      "oltp_point_select",
                                      "oltp_update_index",
                                      "oltp_update_non_index",
                                      "oltp_insert",
                                      "oltp_delete",
                                      "select_random_points",
                                      "select_random_ranges",
                                      NULL};

static const enum wl_class kind_class[K_NKINDS] = {
    [K_POINT] = WL_READ,       [K_SIMPLE] = WL_READ,      [K_SUM] = WL_READ,
    [K_ORDER] = WL_READ,       [K_DISTINCT] = WL_READ,    [K_IDX_UPD] = WL_WRITE,
    [K_NONIDX_UPD] = WL_WRITE, [K_DELETE] = WL_WRITE,     [K_INSERT] = WL_WRITE,
    [K_NEW_ROW] = WL_WRITE,    [K_RAND_POINTS] = WL_READ, [K_RAND_RANGES] = WL_READ,
    [K_BEGIN] = WL_OTHER,      [K_COMMIT] = WL_OTHER,
};

static void add_phase(struct workload *w, enum wl_kind k, unsigned count)
{
    if (count > 0 && w->nph < WL_MAX_PHASES)
        w->ph[w->nph++] = (struct wl_phase){k, count};
}

static void add_ranges(struct workload *w)
{
    if (!w->cfg.range_selects)
        return;
    add_phase(w, K_SIMPLE, w->cfg.simple_ranges);
    add_phase(w, K_SUM, w->cfg.sum_ranges);
    add_phase(w, K_ORDER, w->cfg.order_ranges);
    add_phase(w, K_DISTINCT, w->cfg.distinct_ranges);
}

static void add_writes(struct workload *w)
{
    add_phase(w, K_IDX_UPD, w->cfg.index_updates);
    add_phase(w, K_NONIDX_UPD, w->cfg.non_index_updates);
    add_phase(w, K_DELETE, w->cfg.delete_inserts); /* pairs: delete then insert */
}

static char *kind_sql(const struct workload *w, enum wl_kind k, int t)
{
    const struct wl_config *c = &w->cfg;
    struct sbuf b = {0};
    switch (k) {
    case K_POINT:
        sbuf_printf(&b, "SELECT c FROM sbtest%d WHERE id=?", t);
        break;
    case K_SIMPLE:
        sbuf_printf(&b, "SELECT c FROM sbtest%d WHERE id BETWEEN ? AND ?", t);
        break;
    case K_SUM:
        sbuf_printf(&b, "SELECT SUM(k) FROM sbtest%d WHERE id BETWEEN ? AND ?", t);
        break;
    case K_ORDER:
        sbuf_printf(&b, "SELECT c FROM sbtest%d WHERE id BETWEEN ? AND ? ORDER BY c", t);
        break;
    case K_DISTINCT:
        sbuf_printf(&b, "SELECT DISTINCT c FROM sbtest%d WHERE id BETWEEN ? AND ? ORDER BY c", t);
        break;
    case K_IDX_UPD:
        sbuf_printf(&b, "UPDATE sbtest%d SET k=k+1 WHERE id=?", t);
        break;
    case K_NONIDX_UPD:
        sbuf_printf(&b, "UPDATE sbtest%d SET c=? WHERE id=?", t);
        break;
    case K_DELETE:
        sbuf_printf(&b, "DELETE FROM sbtest%d WHERE id=?", t);
        break;
    case K_INSERT:
        sbuf_printf(&b, "INSERT INTO sbtest%d (id, k, c, pad) VALUES (?, ?, ?, ?)", t);
        break;
    case K_NEW_ROW:
        /* PostgreSQL's SERIAL fills id only when the column is left out;
         * MySQL's AUTO_INCREMENT takes id 0 (sysbench's oltp_insert). */
        if (c->auto_inc && c->ops->auto_id_omitted)
            sbuf_printf(&b, "INSERT INTO sbtest%d (k, c, pad) VALUES (?, ?, ?)", t);
        else
            sbuf_printf(&b, "INSERT INTO sbtest%d (id, k, c, pad) VALUES (?, ?, ?, ?)", t);
        break;
    case K_RAND_POINTS:
        sbuf_printf(&b, "SELECT id, k, c, pad FROM sbtest1 WHERE k IN (");
        for (unsigned i = 0; i < c->random_points; i++)
            sbuf_printf(&b, "%s?", i ? ", " : "");
        sbuf_printf(&b, ")");
        break;
    case K_RAND_RANGES:
        sbuf_printf(&b, "SELECT count(k) FROM sbtest1 WHERE ");
        for (unsigned i = 0; i < c->number_of_ranges; i++)
            sbuf_printf(&b, "%sk BETWEEN ? AND ?", i ? " OR " : "");
        break;
    case K_BEGIN:
        sbuf_printf(&b, "BEGIN");
        break;
    case K_COMMIT:
        sbuf_printf(&b, "COMMIT");
        break;
    default:
        return NULL;
    }
    return b.s;
}

static int kind_nparams(const struct workload *w, enum wl_kind k)
{
    switch (k) {
    case K_POINT:
    case K_IDX_UPD:
    case K_DELETE:
        return 1;
    case K_SIMPLE:
    case K_SUM:
    case K_ORDER:
    case K_DISTINCT:
    case K_NONIDX_UPD:
        return 2;
    case K_INSERT:
        return 4;
    case K_NEW_ROW:
        return w->cfg.auto_inc && w->cfg.ops->auto_id_omitted ? 3 : 4;
    case K_RAND_POINTS:
        return (int)w->cfg.random_points;
    case K_RAND_RANGES:
        return (int)w->cfg.number_of_ranges * 2;
    default:
        return 0;
    }
}

static void use_kind(struct workload *w, enum wl_kind k, int single_table)
{
    int tables = single_table ? 1 : w->cfg.tables;
    for (int t = 1; t <= tables; t++) {
        int *slot = &w->stmt_id[k * w->cfg.tables + (t - 1)];
        if (*slot >= 0)
            continue;
        int id = w->nstmts++;
        w->sql = xrealloc(w->sql, sizeof *w->sql * (size_t)w->nstmts);
        w->nparams = xrealloc(w->nparams, sizeof *w->nparams * (size_t)w->nstmts);
        w->sql[id] = kind_sql(w, k, t);
        w->nparams[id] = kind_nparams(w, k);
        *slot = id;
    }
}

int workload_init(struct workload *w, const struct wl_config *cfg, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    w->cfg = *cfg;
    const char *n = cfg->name;
    if (!cfg->ops) {
        snprintf(err, errlen, "no database engine given (--db-driver)");
        return -1;
    }
    int known = 0;
    for (int i = 0; workload_names[i]; i++)
        known |= !strcmp(n, workload_names[i]);
    if (!known) {
        snprintf(err, errlen,
                 "unknown workload '%s' (one of: oltp_read_only oltp_read_write oltp_write_only "
                 "oltp_point_select oltp_update_index oltp_update_non_index oltp_insert "
                 "oltp_delete select_random_points select_random_ranges)",
                 n);
        return -1;
    }
    if (cfg->tables < 1 || cfg->tables > 100) {
        snprintf(err, errlen, "--tables=%d: must be 1..100", cfg->tables);
        return -1;
    }
    if (cfg->table_size < 1 && strcmp(n, "oltp_insert") != 0) {
        snprintf(err, errlen, "--table-size must be at least 1 for %s", n);
        return -1;
    }
    if (cfg->random_points < 1 || cfg->random_points > WL_MAX_PARAMS || cfg->number_of_ranges < 1 ||
        cfg->number_of_ranges > WL_MAX_PARAMS / 2) {
        snprintf(err, errlen, "--random-points must be 1..%d and --number-of-ranges 1..%d",
                 WL_MAX_PARAMS, WL_MAX_PARAMS / 2);
        return -1;
    }
    w->stmt_id = xmalloc(sizeof *w->stmt_id * (size_t)(K_NKINDS * cfg->tables));
    for (int i = 0; i < K_NKINDS * cfg->tables; i++)
        w->stmt_id[i] = -1;

    int trx = !cfg->skip_trx;
    if (!strcmp(n, "oltp_read_only") || !strcmp(n, "oltp_read_write") ||
        !strcmp(n, "oltp_write_only")) {
        if (trx)
            add_phase(w, K_BEGIN, 1);
        if (strcmp(n, "oltp_write_only") != 0) {
            add_phase(w, K_POINT, cfg->point_selects);
            add_ranges(w);
        }
        if (strcmp(n, "oltp_read_only") != 0)
            add_writes(w);
        if (trx)
            add_phase(w, K_COMMIT, 1);
    } else if (!strcmp(n, "oltp_point_select")) {
        add_phase(w, K_POINT, 1); /* sysbench forces point_selects=1 here */
    } else if (!strcmp(n, "oltp_update_index")) {
        add_phase(w, K_IDX_UPD, cfg->index_updates);
    } else if (!strcmp(n, "oltp_update_non_index")) {
        add_phase(w, K_NONIDX_UPD, cfg->non_index_updates);
    } else if (!strcmp(n, "oltp_delete")) {
        add_phase(w, K_DELETE, 1);
    } else if (!strcmp(n, "oltp_insert")) {
        add_phase(w, K_NEW_ROW, 1);
    } else if (!strcmp(n, "select_random_points")) {
        add_phase(w, K_RAND_POINTS, 1);
    } else if (!strcmp(n, "select_random_ranges")) {
        add_phase(w, K_RAND_RANGES, 1);
    }
    for (int i = 0; i < w->nph; i++) {
        enum wl_kind k = w->ph[i].kind;
        if ((k == K_BEGIN || k == K_COMMIT) && !(cfg->ops && cfg->ops->prepared_trx))
            continue; /* text: the engine sends them as simple queries */
        use_kind(w, k, k == K_RAND_POINTS || k == K_RAND_RANGES || k == K_BEGIN || k == K_COMMIT);
        if (k == K_DELETE && strcmp(n, "oltp_delete") != 0)
            use_kind(w, K_INSERT, 0);
    }
    return 0;
}

int workload_check_load(const struct workload *w, char *err, size_t errlen)
{
    /* their statements read sbtest1 only; sysbench's prepare and cleanup
     * assert a single table, its run does not */
    if (!strncmp(w->cfg.name, "select_random", 13) && w->cfg.tables != 1) {
        snprintf(err, errlen,
                 "%s does not support --tables > 1 in prepare and cleanup (as in sysbench)",
                 w->cfg.name);
        return -1;
    }
    return 0;
}

void workload_free(struct workload *w)
{
    for (int i = 0; i < w->nstmts; i++)
        free(w->sql[i]);
    free(w->sql);
    free(w->nparams);
    free(w->stmt_id);
    memset(w, 0, sizeof *w);
}

void workload_txn_begin(const struct workload *w, struct wl_state *s, int thread_id, int nthreads)
{
    (void)w;
    memset(s, 0, sizeof *s);
    s->thread_id = thread_id;
    s->nthreads = nthreads > 0 ? nthreads : 1;
}

static inline void pint(struct wl_stmt *o, int i, long long v)
{
    o->p[i].type = DB_PINT;
    o->p[i].i = v;
}

static inline void pstr(struct wl_stmt *o, int i, const char *s, int len)
{
    o->p[i].type = DB_PSTR;
    o->p[i].s = s;
    o->p[i].len = len;
}

/* sysbench.rand.unique(): distinct 32-bit values across all connections. */
static uint32_t unique_u32(void)
{
    static _Atomic uint32_t next;
    uint32_t x = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
    /* a bijection on 32 bits: odd multiplies and xor-shifts are invertible */
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

int workload_next(const struct workload *w, struct wl_state *s, struct rng *r, struct wl_stmt *o)
{
    const struct wl_config *c = &w->cfg;
    while (s->phase < w->nph && s->i >= w->ph[s->phase].count) {
        s->phase++;
        s->i = 0;
        s->sub = 0;
        s->table = 0;
    }
    if (s->phase >= w->nph)
        return 0;
    enum wl_kind k = w->ph[s->phase].kind;
    if (s->table == 0) /* once per phase, like sysbench's get_table_num() */
        s->table = (int)rng_uniform(r, 1, (uint32_t)c->tables);
    int t = s->table;
    uint32_t size = c->table_size;
    o->cls = kind_class[k];
    o->np = 0;
    o->sql = NULL;
    o->id = -1;
    if ((k == K_BEGIN || k == K_COMMIT) && w->stmt_id[k * c->tables] < 0) {
        o->sql = k == K_BEGIN ? "BEGIN" : "COMMIT";
        s->i++;
        return 1;
    }
    /* delete_inserts: the second half of a pair is the insert */
    enum wl_kind sk = (k == K_DELETE && s->sub == 1) ? K_INSERT : k;
    int one = sk == K_RAND_POINTS || sk == K_RAND_RANGES || sk == K_BEGIN || sk == K_COMMIT;
    o->id = w->stmt_id[sk * c->tables + (one ? 0 : t - 1)];
    o->np = w->nparams[o->id];
    switch (sk) {
    case K_POINT:
    case K_IDX_UPD:
        pint(o, 0, rng_dist(&c->dist, r, 1, size));
        break;
    case K_SIMPLE:
    case K_SUM:
    case K_ORDER:
    case K_DISTINCT: {
        uint32_t id = rng_dist(&c->dist, r, 1, size);
        pint(o, 0, id);
        pint(o, 1, (long long)id + c->range_size - 1);
        break;
    }
    case K_NONIDX_UPD:
        rng_str(r, WL_C_TEMPLATE, o->buf[0]);
        pstr(o, 0, o->buf[0], (int)sizeof WL_C_TEMPLATE - 1);
        pint(o, 1, rng_dist(&c->dist, r, 1, size));
        break;
    case K_DELETE:
        s->id = rng_dist(&c->dist, r, 1, size);
        s->k = rng_dist(&c->dist, r, 1, size);
        pint(o, 0, s->id);
        if (strcmp(c->name, "oltp_delete") != 0) {
            s->sub = 1; /* the insert comes next; i advances after it */
            return 1;
        }
        break;
    case K_INSERT:
        pint(o, 0, s->id);
        pint(o, 1, s->k);
        rng_str(r, WL_C_TEMPLATE, o->buf[0]);
        rng_str(r, WL_PAD_TEMPLATE, o->buf[1]);
        pstr(o, 2, o->buf[0], (int)sizeof WL_C_TEMPLATE - 1);
        pstr(o, 3, o->buf[1], (int)sizeof WL_PAD_TEMPLATE - 1);
        s->sub = 0;
        break;
    case K_NEW_ROW: {
        int a = 0;
        if (o->np == 4)
            pint(o, a++, c->auto_inc ? 0 : (long long)unique_u32() - 2147483648LL);
        pint(o, a++, rng_dist(&c->dist, r, 1, size ? size : 1));
        rng_str(r, WL_C_TEMPLATE, o->buf[0]);
        rng_str(r, WL_PAD_TEMPLATE, o->buf[1]);
        pstr(o, a++, o->buf[0], (int)sizeof WL_C_TEMPLATE - 1);
        pstr(o, a++, o->buf[1], (int)sizeof WL_PAD_TEMPLATE - 1);
        break;
    }
    case K_RAND_POINTS:
    case K_RAND_RANGES: {
        /* each thread draws from its own slice so ranges do not overlap */
        uint32_t rlen = size / (uint32_t)s->nthreads;
        uint32_t rmin = rlen * (uint32_t)(s->thread_id % s->nthreads), rmax = rmin + rlen;
        if (sk == K_RAND_POINTS) {
            for (unsigned i = 0; i < c->random_points; i++)
                pint(o, (int)i, rng_dist(&c->dist, r, rmin, rmax));
        } else {
            for (unsigned i = 0; i < c->number_of_ranges; i++) {
                uint32_t v = rng_dist(&c->dist, r, rmin, rmax);
                pint(o, (int)(2 * i), v);
                pint(o, (int)(2 * i + 1), (long long)v + c->delta);
            }
        }
        break;
    }
    default:
        break;
    }
    s->i++;
    return 1;
}

/* Replace {NAME} tokens in tmpl with the given values. */
static char *expand(const char *tmpl, const char *const *keys, const char *const *vals, int nk)
{
    struct sbuf b = {0};
    for (const char *p = tmpl; *p;) {
        int hit = 0;
        if (*p == '{') {
            for (int i = 0; i < nk; i++) {
                size_t l = strlen(keys[i]);
                if (!strncmp(p + 1, keys[i], l) && p[1 + l] == '}') {
                    sbuf_printf(&b, "%s", vals[i]);
                    p += l + 2;
                    hit = 1;
                    break;
                }
            }
        }
        if (!hit)
            sbuf_add(&b, p++, 1);
    }
    return b.s ? b.s : xstrdup("");
}

char *workload_ddl(const struct workload *w, const char *section, int n, char *err, size_t errlen)
{
    const struct wl_config *c = &w->cfg;
    char path[1024];
    snprintf(path, sizeof path, "%s/schemas/%s.sql", datadir(), c->ops->schema);
    struct sbuf file = {0};
    int rc = sbuf_read_file(&file, path);
    if (rc < 0 || !file.s) {
        snprintf(err, errlen, "cannot read %s: %s", path, rc < 0 ? strerror(-rc) : "empty file");
        sbuf_free(&file);
        return NULL;
    }
    char *all = file.s;
    /* sections start with a line "-- @name" and run to the next one */
    char marker[64];
    snprintf(marker, sizeof marker, "-- @%s\n", section);
    char *start = strstr(all, marker);
    if (!start) {
        snprintf(err, errlen, "%s: no section '-- @%s'", path, section);
        free(all);
        return NULL;
    }
    start += strlen(marker);
    char *end = strstr(start, "-- @");
    if (end)
        *end = '\0';
    /* trim trailing blanks and the ';' the file uses for readability */
    size_t l = strlen(start);
    while (l > 0 && (start[l - 1] == '\n' || start[l - 1] == ' ' || start[l - 1] == ';'))
        start[--l] = '\0';
    char num[16];
    snprintf(num, sizeof num, "%d", n);
    const char *id_def = c->auto_inc ? c->ops->auto_id_def : "INTEGER NOT NULL";
    char size[16];
    snprintf(size, sizeof size, "%u", (unsigned)c->table_size);
    const char *keys[] = {"N", "ID_DEF", "ID_INDEX", "ENGINE", "SIZE"};
    const char *vals[] = {num, id_def, c->secondary ? c->ops->secondary_key : "PRIMARY KEY",
                          c->mysql_storage_engine ? c->mysql_storage_engine : "innodb", size};
    char *sql = expand(start, keys, vals, 5);
    free(all);
    return sql;
}

const char *workload_load_cols(const struct workload *w)
{
    return w->cfg.auto_inc ? "k, c, pad" : "id, k, c, pad";
}

int workload_load_row(const struct workload *w, struct rng *r, uint32_t i, char vals[4][128])
{
    int n = 0;
    if (!w->cfg.auto_inc)
        snprintf(vals[n++], 128, "%u", i);
    /* sysbench's prepare draws k with sb_rand(), which is
     * sysbench.rand.default: the --rand-type distribution, not uniform */
    snprintf(vals[n++], 128, "%u", rng_dist(&w->cfg.dist, r, 1, w->cfg.table_size));
    rng_str(r, WL_C_TEMPLATE, vals[n++]);
    rng_str(r, WL_PAD_TEMPLATE, vals[n++]);
    return n;
}
