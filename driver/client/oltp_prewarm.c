/*
 * oltp_prewarm.c - prewarm: every sbtest table and its indexes read into
 * the server's buffer pool before a run, by --threads connections in
 * parallel, as sysbench's parallel prewarm command.
 *
 * The one idea: what "read into the buffer pool" means is the engine's, so
 * the statements live in schemas/ENGINE.sql ("-- @prewarm"), not here:
 * MySQL gets sysbench 1.0.20's own, PostgreSQL pg_prewarm() or index scans
 * (schemas/pgsql.sql says which). Thread t takes tables t+1, t+1+threads,
 * ... as sysbench's cmd_prewarm does. Never prints on its own (progress goes
 * to the FILE given) and never decides an exit code.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "client/oltp.h"
#include "core/util.h"

struct warm_job {
    const struct oltp_setup *s;
    int first, step; /* tables first, first+step, ... */
    FILE *log;
    pthread_mutex_t *log_mu;
    int rc;
    char err[600];
};

/* The next statement of a section: '--' comment lines dropped, split at a
 * ';' that ends a line outside $$ ... $$ (a DO block's body holds ';').
 * Returns a malloc'd statement or NULL at the end; *p advances. */
static char *next_statement(const char **p)
{
    struct sbuf b = {0};
    int dollar = 0;
    while (**p) {
        const char *line = *p, *nl = strchr(line, '\n');
        size_t l = nl ? (size_t)(nl - line) : strlen(line);
        *p = line + l + (nl ? 1 : 0);
        size_t lead = strspn(line, " \t");
        if (lead + 2 <= l && !strncmp(line + lead, "--", 2))
            continue;
        for (size_t i = 0; i + 1 < l; i++)
            if (line[i] == '$' && line[i + 1] == '$') {
                dollar = !dollar;
                i++;
            }
        sbuf_add(&b, line, l);
        if (!dollar && l > 0 && line[l - 1] == ';') {
            b.s[--b.len] = '\0'; /* the ';' is the separator, not the statement's */
            break;
        }
        sbuf_add(&b, "\n", 1);
    }
    if (b.s && b.s[strspn(b.s, " \t\n")] == '\0') {
        sbuf_free(&b);
        return NULL;
    }
    return b.s;
}

static int warm_table(struct warm_job *j, struct db_conn *c, int n)
{
    const struct oltp_setup *s = j->s;
    char *sql = workload_ddl(&s->wl, "prewarm", n, j->err, sizeof j->err);
    if (!sql)
        return -1;
    pthread_mutex_lock(j->log_mu);
    if (j->log) {
        fprintf(j->log, "Prewarming table sbtest%d\n", n);
        fflush(j->log);
    }
    pthread_mutex_unlock(j->log_mu);
    int rc = 0;
    const char *p = sql;
    char *stmt;
    while (rc == 0 && (stmt = next_statement(&p)) != NULL) {
        struct db_error e = {0};
        if (db_exec(s->ops, c, stmt, &e) < 0) {
            snprintf(j->err, sizeof j->err, "sbtest%d: %s", n, e.msg);
            rc = -1;
        }
        free(stmt);
    }
    free(sql);
    return rc;
}

static void *warm_thread(void *arg)
{
    struct warm_job *j = arg;
    const struct oltp_setup *s = j->s;
    struct db_error e = {0};
    j->rc = -1;
    struct db_conn *c = s->ops->connect(&s->targets[(j->first - 1) % s->ntargets], &e);
    if (!c) {
        snprintf(j->err, sizeof j->err, "%s", e.msg);
        return NULL;
    }
    j->rc = 0;
    for (int n = j->first; n <= s->wl.cfg.tables && j->rc == 0; n += j->step)
        j->rc = warm_table(j, c, n);
    s->ops->close(c);
    return NULL;
}

int oltp_prewarm(const struct oltp_setup *s, int threads, FILE *log, char *err, size_t errlen)
{
    int n =
        threads < s->wl.cfg.tables ? threads : s->wl.cfg.tables; /* idle ones would not connect */
    if (n < 1)
        n = 1;
    struct warm_job *jobs = xcalloc((size_t)n, sizeof *jobs);
    pthread_t *th = xcalloc((size_t)n, sizeof *th);
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    int started = 0;
    for (int i = 0; i < n; i++) {
        jobs[i] = (struct warm_job){.s = s, .first = i + 1, .step = n, .log = log, .log_mu = &mu};
        if (pthread_create(&th[i], NULL, warm_thread, &jobs[i]) != 0) {
            jobs[i].rc = -1;
            snprintf(jobs[i].err, sizeof jobs[i].err, "cannot start a prewarm thread");
            break;
        }
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++)
        if (jobs[i].rc < 0 && (i < started || jobs[i].err[0])) {
            snprintf(err, errlen, "%s", jobs[i].err);
            rc = -1;
        }
    free(jobs);
    free(th);
    return rc;
}
