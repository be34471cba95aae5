/*
 * oltp_load.c - prepare and cleanup: the sbtest tables created, loaded and
 * dropped, one connection per table, in parallel.
 *
 * The one idea: sbtest1 goes first on its own, so an unreachable server or a
 * table that already exists gives one clear message, not one per table; the
 * rest then run side by side. This room never prints on its own (progress
 * goes to the FILE the caller gives, or nowhere) and never decides an exit
 * code.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "client/oltp.h"
#include "core/util.h"

struct table_job {
    const struct oltp_setup *s;
    int table;
    FILE *log;
    int rc;
    char err[600];
    pthread_mutex_t *log_mu;
};

static int ddl(const struct oltp_setup *s, struct db_conn *c, const char *section, int n, char *err,
               size_t errlen)
{
    char *sql = workload_ddl(&s->wl, section, n, err, errlen);
    if (!sql)
        return -1;
    struct db_error e = {0};
    int rc = db_exec(s->ops, c, sql, &e);
    if (rc < 0)
        snprintf(err, errlen, "sbtest%d: %s", n, e.msg);
    free(sql);
    return rc;
}

static void say(struct table_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct table_job *j, const char *fmt, ...)
{
    if (!j->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(j->log_mu);
    vfprintf(j->log, fmt, ap);
    fflush(j->log);
    pthread_mutex_unlock(j->log_mu);
    va_end(ap);
}

static void *prepare_table(void *arg)
{
    struct table_job *j = arg;
    const struct oltp_setup *s = j->s;
    struct db_error e = {0};
    struct db_conn *c = s->ops->connect(&s->targets[j->table % s->ntargets], &e);
    j->rc = -1;
    if (!c) {
        snprintf(j->err, sizeof j->err, "%s", e.msg);
        return NULL;
    }
    int n = j->table;
    say(j, "Creating table 'sbtest%d'...\n", n);
    if (ddl(s, c, "create", n, j->err, sizeof j->err) < 0)
        goto out;
    /* oltp_insert with client-generated ids starts empty, as in sysbench */
    uint32_t rows = s->wl.cfg.table_size;
    if (!strcmp(s->wl.cfg.name, "oltp_insert") && !s->wl.cfg.auto_inc)
        rows = 0;
    if (rows > 0) {
        say(j, "Inserting %u records into 'sbtest%d'\n", rows, n);
        char table[32], vals[4][128];
        const char *vp[4] = {vals[0], vals[1], vals[2], vals[3]};
        snprintf(table, sizeof table, "sbtest%d", n);
        struct rng r;
        rng_seed(&r, s->wcfg.seed, 1000003u * (uint64_t)n);
        if (s->ops->bulk_begin(c, table, workload_load_cols(&s->wl), &e) < 0)
            goto dberr;
        for (uint32_t i = 1; i <= rows; i++) {
            int nv = workload_load_row(&s->wl, &r, i, vals);
            if (s->ops->bulk_row(c, vp, nv, &e) < 0)
                goto dberr;
        }
        if (s->ops->bulk_end(c, &e) < 0)
            goto dberr;
    }
    if (s->wl.cfg.create_secondary) {
        say(j, "Creating a secondary index on 'sbtest%d'...\n", n);
        if (ddl(s, c, "index", n, j->err, sizeof j->err) < 0)
            goto out;
    }
    j->rc = 0;
    goto out;
dberr:
    snprintf(j->err, sizeof j->err, "sbtest%d: %s", n, e.msg);
out:
    s->ops->close(c);
    return NULL;
}

static void *cleanup_table(void *arg)
{
    struct table_job *j = arg;
    const struct oltp_setup *s = j->s;
    struct db_error e = {0};
    struct db_conn *c = s->ops->connect(&s->targets[0], &e);
    j->rc = -1;
    if (!c) {
        snprintf(j->err, sizeof j->err, "%s", e.msg);
        return NULL;
    }
    say(j, "Dropping table 'sbtest%d'...\n", j->table);
    j->rc = ddl(s, c, "drop", j->table, j->err, sizeof j->err);
    s->ops->close(c);
    return NULL;
}

static int for_each_table(const struct oltp_setup *s, void *(*fn)(void *), FILE *log, char *err,
                          size_t errlen)
{
    if (workload_check_load(&s->wl, err, errlen) < 0)
        return -1;
    int n = s->wl.cfg.tables;
    struct table_job *jobs = xcalloc((size_t)n, sizeof *jobs);
    pthread_t *th = xcalloc((size_t)n, sizeof *th);
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    /* sbtest1 first on its own: if the server is unreachable or the table
     * exists, one clear message instead of one per table */
    int rc = 0;
    for (int i = 0; i < n; i++) {
        jobs[i] = (struct table_job){.s = s, .table = i + 1, .log = log, .log_mu = &mu};
        if (i == 0) {
            fn(&jobs[0]);
            if (jobs[0].rc < 0)
                break;
            continue;
        }
        pthread_create(&th[i], NULL, fn, &jobs[i]);
    }
    for (int i = 1; i < n && jobs[0].rc == 0; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < n; i++)
        if (jobs[i].rc < 0 && rc == 0) {
            snprintf(err, errlen, "%s", jobs[i].err);
            rc = -1;
        }
    free(jobs);
    free(th);
    return rc;
}

int oltp_prepare(const struct oltp_setup *s, FILE *log, char *err, size_t errlen)
{
    return for_each_table(s, prepare_table, log, err, errlen);
}

int oltp_cleanup(const struct oltp_setup *s, FILE *log, char *err, size_t errlen)
{
    return for_each_table(s, cleanup_table, log, err, errlen);
}
