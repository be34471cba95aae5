/*
 * curves_label.c - what the views of results (the graphs of `dbscale plot`,
 * the page) call things: each curve's legend entry, the subtitle every graph
 * and the page carry, and the footnote.
 *
 * The one idea: say a thing once. What all curves share (the workload, a
 * single engine and server, one host, kernel release and CPU model) goes in
 * the title or subtitle; an entry keeps only what tells its curve from the
 * others, and a CPU count the variant already names ("smp-k2", "up") is not
 * said again. The footnote says what a reader needs to weigh a point: how
 * many repeats, how long measured, how long warmed up.
 *
 * Never compute a figure here other than these words (curves.c has the curves).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/curves.h"
#include "stats/stats.h"

/* "smp-k2" at 2 CPUs and "up" at 1 already say the CPU count. */
static int variant_says_cpus(const char *v, int cpus)
{
    char k[32];
    snprintf(k, sizeof k, "smp-k%d", cpus);
    return !strcmp(v, k) || (cpus == 1 && !strcmp(v, "up"));
}

/* "2 CPUs", "18 s measured" and the like, appended to b (len total). */
static void add(char *b, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *b, size_t len, const char *fmt, ...)
{
    size_t l = strlen(b);
    if (l + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b + l, len - l, fmt, ap);
    va_end(ap);
}

/* The footnote: how many repeats each point is the median of, how long each
 * was measured and how long it warmed up first, so a reader can weigh the
 * picture. Run time from meta.json, else the rows' own time_s; a range
 * where directories or points differ. */
static void footnote(struct curves *cv)
{
    size_t nlo = 0, nhi = 0;
    for (size_t i = 0; i < cv->nc; i++)
        for (size_t t = 0; t < cv->c[i].k; t++) {
            size_t n = cv->c[i].tp[t].n;
            nlo = (!nlo || n < nlo) ? n : nlo;
            nhi = n > nhi ? n : nhi;
        }
    double tlo = 0, thi = 0, wlo = -1, whi = -1;
    for (size_t d = 0; d < cv->ndirs; d++) {
        const struct curves_dir *dd = &cv->dirs[d];
        double ts = dd->time_s;
        if (ts <= 0 && dd->rs.n) { /* no meta.json figure: the rows' median */
            double *v = xmalloc(dd->rs.n * sizeof *v);
            for (size_t i = 0; i < dd->rs.n; i++)
                v[i] = dd->rs.rows[i].time_s;
            ts = stats_median(v, dd->rs.n);
            free(v);
        }
        if (ts > 0) {
            tlo = (!tlo || ts < tlo) ? ts : tlo;
            thi = ts > thi ? ts : thi;
        }
        if (dd->time_s > 0) { /* meta.json has the timing: its warmup is known, 0 or not */
            wlo = (wlo < 0 || dd->warmup_s < wlo) ? dd->warmup_s : wlo;
            whi = dd->warmup_s > whi ? dd->warmup_s : whi;
        }
    }
    char *f = cv->footnote;
    size_t len = sizeof cv->footnote;
    f[0] = '\0';
    if (nhi == 0) /* no database points: nothing to say */
        return;
    if (nlo == nhi)
        add(f, len, "n = %zu repeat%s a point", nhi, nhi == 1 ? "" : "s");
    else
        add(f, len, "n = %zu-%zu repeats a point", nlo, nhi);
    add(f, len, "%s", nhi > 1 ? " (median; bars min-max)" : "");
    if (thi > 0 && tlo == thi)
        add(f, len, "; %g s measured", thi);
    else if (thi > 0)
        add(f, len, "; %g-%g s measured", tlo, thi);
    if (whi < 0)
        add(f, len, "; warmup not recorded");
    else if (wlo == whi)
        add(f, len, "; warmup %g s", whi);
    else
        add(f, len, "; warmup %g-%g s", wlo, whi);
}

void curves_server_name(const char *engine, const char *version, char *out, size_t len)
{
    out[0] = '\0';
    if (!version || !version[0])
        return;
    if (!(version[0] >= '0' && version[0] <= '9')) {
        snprintf(out, len, "%s", version); /* it names itself */
        return;
    }
    const char *maria = strstr(version, "-MariaDB");
    if (maria)
        snprintf(out, len, "MariaDB %.*s", (int)(maria - version), version);
    else if (engine && !strcmp(engine, "pgsql"))
        snprintf(out, len, "PostgreSQL %s", version);
    else if (engine && !strcmp(engine, "mysql"))
        snprintf(out, len, "MySQL %s", version);
    else
        snprintf(out, len, "%s%s%s", engine ? engine : "", engine && *engine ? " " : "", version);
}

size_t curves_workloads(const struct curves *cv, char *list, size_t len)
{
    size_t n = 0;
    list[0] = '\0';
    for (size_t i = 0; i < cv->nc; i++) {
        int seen = !cv->c[i].workload[0];
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(cv->c[j].workload, cv->c[i].workload);
        if (!seen)
            add(list, len, "%s%s", n++ ? ", " : "", cv->c[i].workload);
    }
    return n;
}

/* A legend entry says only what tells its curve from the others: what all
 * curves share (the workload, one engine, one host) is in the title or the
 * subtitle, said once. */
void curves_label(struct curves *cv)
{
    int same_host = 1, same_engine = 1, same_workload = 1;
    for (size_t d = 1; d < cv->ndirs; d++)
        same_host &= !strcmp(cv->dirs[d].host, cv->dirs[0].host) &&
                     !strcmp(cv->dirs[d].kernel, cv->dirs[0].kernel);
    for (size_t i = 1; i < cv->nc; i++) {
        same_engine &= !strcmp(cv->c[i].engine, cv->c[0].engine) &&
                       !strcmp(cv->dirs[cv->c[i].dir].server, cv->dirs[cv->c[0].dir].server);
        same_workload &= !strcmp(cv->c[i].workload, cv->c[0].workload);
    }
    if (!same_workload && cv->log) {
        /* throughputs of different mixes on one axis read as a comparison
         * they are not: said where `plot` and `report` print warnings */
        char list[256] = "";
        curves_workloads(cv, list, sizeof list);
        sbuf_printf(&cv->log->warn,
                    "curves of different workloads (%s) share the graphs: compare each "
                    "only with curves of its own workload\n",
                    list);
    }
    for (size_t i = 0; i < cv->nc; i++) {
        struct curve *c = &cv->c[i];
        const struct curves_dir *d = &cv->dirs[c->dir];
        c->label[0] = '\0';
        if (!same_engine)
            add(c->label, sizeof c->label, "%s%s%s%s, ", c->engine, d->server[0] ? " (" : "",
                d->server, d->server[0] ? ")" : "");
        if (!same_workload && c->workload[0])
            add(c->label, sizeof c->label, "%s, ", c->workload);
        if (c->variant[0])
            add(c->label, sizeof c->label, "%s, ", c->variant);
        if (!variant_says_cpus(c->variant, c->cpus))
            add(c->label, sizeof c->label, "%d CPU%s, ", c->cpus, c->cpus == 1 ? "" : "s");
        if (!same_host)
            add(c->label, sizeof c->label, "%s %s, ", d->host, d->kernel);
        size_t l = strlen(c->label);
        if (l >= 2)
            c->label[l - 2] = '\0';
        if (!c->label[0])
            snprintf(c->label, sizeof c->label, "%s", c->engine);
    }
    /* Two directories with the same engine and variant: name the directory. */
    int *dup = xcalloc(cv->nc + 1, sizeof *dup);
    for (size_t i = 0; i < cv->nc; i++)
        for (size_t j = 0; j < cv->nc; j++)
            dup[i] |=
                i != j && cv->c[i].dir != cv->c[j].dir && !strcmp(cv->c[i].label, cv->c[j].label);
    for (size_t i = 0; i < cv->nc; i++) {
        size_t n = strlen(cv->c[i].label);
        if (dup[i] && n < sizeof cv->c[i].label)
            snprintf(cv->c[i].label + n, sizeof cv->c[i].label - n, " [%s]",
                     cv->dirs[cv->c[i].dir].name);
    }
    free(dup);
    /* Subtitle: the one engine, then the one machine, then the directories. */
    const struct curves_dir *d0 = &cv->dirs[0];
    cv->subtitle[0] = '\0';
    if (same_engine && cv->nc && d0->server[0])
        add(cv->subtitle, sizeof cv->subtitle, "%s; ", cv->dirs[cv->c[0].dir].server);
    if (same_host && (d0->host[0] || d0->kernel[0])) {
        add(cv->subtitle, sizeof cv->subtitle, "host %s", d0->host[0] ? d0->host : "?");
        if (d0->kernel[0])
            add(cv->subtitle, sizeof cv->subtitle, ", kernel %s", d0->kernel);
        if (d0->cpu_model[0])
            add(cv->subtitle, sizeof cv->subtitle, ", %s", d0->cpu_model);
        add(cv->subtitle, sizeof cv->subtitle, "; ");
    }
    add(cv->subtitle, sizeof cv->subtitle, "results: ");
    for (size_t d = 0; d < cv->ndirs; d++)
        add(cv->subtitle, sizeof cv->subtitle, "%s%s", d ? ", " : "", cv->dirs[d].name);
    footnote(cv);
}
