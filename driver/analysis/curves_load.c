/*
 * curves_load.c - the results directories given to a view, read whole: each
 * one's result rows, the meta.json fields a label shows (and the whole
 * object, for the page), intervals.csv and latency.csv; the name a reader
 * sees (its basename, or the --label given).
 *
 * The one idea: read once, for every view. A file that is absent is no
 * error (a directory of `micro` or `fs` has no results.csv); one that is
 * there and unreadable is said, as a warning where the rest still stands,
 * as the failure where nothing can be shown without it.
 *
 * Never compute a figure here (curves_build.c does), never print.
 */
#include "analysis/curves.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/input.h"
#include "results/meta.h"
#include "results/results.h"

void curves_fail(const struct curves *cv, const char *fmt, ...)
{
    if (cv->log->err[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cv->log->err, sizeof cv->log->err, fmt, ap);
    va_end(ap);
}

/* ---- meta.json: the few fields a label shows ---- */

/* The release out of meta.json's "Linux 6.1.0-26-amd64 #1 SMP PREEMPT_DYNAMIC
 * Debian ..." (sysname, release, version): the version part is build noise
 * a reader does not need in a subtitle. A string of one word is kept whole. */
static const char *kernel_release(const char *k)
{
    static char rel[96];
    const char *sp = strchr(k, ' ');
    if (!sp)
        return k;
    snprintf(rel, sizeof rel, "%.*s", (int)strcspn(sp + 1, " "), sp + 1);
    return rel[0] ? rel : k;
}

/* Through meta.json's one owner (results/meta.c). A missing file or bad
 * JSON leaves "" (a label without a host is still a graph); one that is
 * there but unreadable is said (a warning), never dropped silently. The
 * parsed object stays in d->meta for the page (page/), which shows more
 * of it; curves_free() frees it. */
static void read_meta(struct curves *cv, struct curves_dir *d)
{
    struct meta m;
    char path[600], err[600];
    snprintf(path, sizeof path, "%s/meta.json", d->path);
    d->host[0] = d->kernel[0] = d->server[0] = d->cpu_model[0] = '\0';
    d->time_s = d->warmup_s = 0;
    d->repeats = 0;
    d->meta = NULL;
    struct stat st;
    if (lstat(path, &st) < 0)
        return;
    if (meta_load(path, &m, err, sizeof err) < 0) {
        sbuf_printf(&cv->log->warn,
                    "meta.json left out (no machine, server, study or reproduce command for "
                    "%s): %s\n",
                    d->path, err);
        return;
    }
    snprintf(d->host, sizeof d->host, "%s", m.host);
    snprintf(d->kernel, sizeof d->kernel, "%s", kernel_release(m.kernel));
    curves_server_name(m.engine, m.server_version, d->server, sizeof d->server);
    snprintf(d->cpu_model, sizeof d->cpu_model, "%s", m.cpu_model);
    d->time_s = m.time_s;
    d->warmup_s = m.warmup_s;
    d->repeats = m.repeats;
    d->meta = json_incref(m.raw);
    meta_free(&m);
}

/* ---- the directories ---- */

/* DIR/intervals.csv, the levels' time series, when the sweep wrote one; an
 * unreadable one is left out with a warning (the scaling graphs stand). */
static void read_intervals(struct curves *cv, struct curves_dir *d)
{
    char path[600], err[800];
    snprintf(path, sizeof path, "%s/intervals.csv", d->path);
    if (access(path, F_OK) == 0 && intervals_read(path, &d->iv, err, sizeof err) < 0) {
        sbuf_printf(&cv->log->warn, "time series left out: %s\n", err);
        intervals_free(&d->iv);
    }
    snprintf(path, sizeof path, "%s/latency.csv", d->path);
    if (access(path, F_OK) == 0 && latcsv_read(path, &d->lat, err, sizeof err) < 0) {
        sbuf_printf(&cv->log->warn, "latency distributions left out: %s\n", err);
        latcsv_free(&d->lat);
    }
}

/* A directory of `dbscale micro` or `dbscale fs`: micro.csv or fs.csv and
 * no results.csv. */
static int kernel_only(const char *dir)
{
    char a[600], b[600], c[600];
    snprintf(a, sizeof a, "%s/results.csv", dir);
    snprintf(b, sizeof b, "%s/micro.csv", dir);
    snprintf(c, sizeof c, "%s/fs.csv", dir);
    return access(a, F_OK) != 0 && (access(b, F_OK) == 0 || access(c, F_OK) == 0);
}

/* The i-th of the comma-separated labels into name, when given and not empty. */
static void nth_label(const char *labels, size_t i, char *name, size_t len)
{
    for (const char *l = labels; l && *l; i--) {
        size_t n = strcspn(l, ",");
        if (i == 0) {
            if (n)
                snprintf(name, len, "%.*s", (int)n, l);
            return;
        }
        l += n + (l[n] == ',');
    }
}

int curves_load(struct curves *cv, char **paths, size_t n)
{
    cv->dirs = xcalloc(n + 1, sizeof *cv->dirs);
    for (size_t i = 0; i < n; i++) {
        struct curves_dir *d = &cv->dirs[cv->ndirs++];
        snprintf(d->path, sizeof d->path, "%s", paths[i]);
        struct stat st;
        if (stat(paths[i], &st) == 0 && !S_ISDIR(st.st_mode)) { /* DIR/results.csv given */
            char *s = strrchr(d->path, '/');
            if (s)
                *s = '\0';
            else
                snprintf(d->path, sizeof d->path, ".");
        }
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s", d->path);
        size_t l = strlen(tmp);
        while (l > 1 && tmp[l - 1] == '/')
            tmp[--l] = '\0';
        const char *base = strrchr(tmp, '/');
        snprintf(d->name, sizeof d->name, "%.63s", base ? base + 1 : tmp);
        nth_label(cv->labels, i, d->name, sizeof d->name);
        if (kernel_only(d->path)) { /* a `micro` or `fs` directory: its own graph */
            read_meta(cv, d);
            continue;
        }
        if (results_read(paths[i], &d->rs, cv->log->err, sizeof cv->log->err) < 0)
            return -1;
        if (d->rs.n == 0) {
            curves_fail(cv, "%s: no result rows", paths[i]);
            return -1;
        }
        read_meta(cv, d);
        read_intervals(cv, d);
    }
    return 0;
}

void curves_free(struct curves *cv)
{
    for (size_t d = 0; d < cv->ndirs; d++) {
        results_free(&cv->dirs[d].rs);
        json_decref(cv->dirs[d].meta);
        intervals_free(&cv->dirs[d].iv);
        latcsv_free(&cv->dirs[d].lat);
    }
    free(cv->dirs);
    free(cv->c);
    free(cv->mc);
    cv->dirs = NULL, cv->c = NULL, cv->mc = NULL;
    cv->ndirs = cv->nc = cv->nmc = 0;
}
