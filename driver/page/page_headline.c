/*
 * page_headline.c - the sentences at the top of the page: what a reader came
 * to learn ("1.3x on 2 CPUs at 8 threads; peak 3834 tps at 4 threads, -15% at
 * 8"), in words, per curve and per compared directory.
 *
 * The one idea: a sentence only reads figures curves.c already computed into
 * struct curve (medians, peak, speedup over the fewest CPUs) and rounds
 * them for reading; relative % goes through stats_relpct() as compare does.
 * So the headline can never disagree with the tables or summary.csv.
 *
 * Never compute a statistic here; never escape (the page does, once).
 */
#include "page/page_headline.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"

static const char *engine_name(const char *engine)
{
    return !strcmp(engine, "pgsql")   ? "PostgreSQL"
           : !strcmp(engine, "mysql") ? "MySQL/MariaDB"
                                      : engine;
}

/* "PostgreSQL 15.8": meta.json's server_version as it is when it names the
 * server (the fixtures', MariaDB's "10.11.6-MariaDB"), after the engine's
 * name when it is a bare number (PostgreSQL's SHOW server_version: "15.18"),
 * the engine's name alone when meta.json held none. */
static void server_name(const struct curves *cv, const struct curve *c, char *b, size_t len)
{
    const char *s = cv->dirs[c->dir].server;
    if (!s[0])
        snprintf(b, len, "%s", engine_name(c->engine));
    else if (isdigit((unsigned char)s[0]))
        snprintf(b, len, "%s %s", engine_name(c->engine), s);
    else
        snprintf(b, len, "%s", s);
}

static const char *plural(double n)
{
    return n == 1 ? "" : "s";
}

/* ", -15% at 8" after the peak: what the highest thread count kept of it. */
static void drop_after_peak(const struct curve *c, char *b, size_t len)
{
    b[0] = '\0';
    size_t last = c->k - 1;
    long long rel;
    if (c->peak == last)
        snprintf(b, len, " (the most threads measured)");
    else if (stats_relpct(c->x[last], c->x[c->peak], &rel) == 0)
        snprintf(b, len, ", %lld%% at %g", rel, c->n[last]);
}

void page_headline(const struct curves *cv, size_t i, char *buf, size_t len)
{
    const struct curve *c = &cv->c[i];
    char pre[128] = "", cpus[160], tail[96], server[96];
    server_name(cv, c, server, sizeof server);
    if (cv->ndirs > 1)
        snprintf(pre, sizeof pre, "%s: ", cv->dirs[c->dir].name);
    if (c->k == 0) {
        snprintf(buf, len, "%s%s %s %s: no points", pre, server, c->workload, c->variant);
        return;
    }
    const struct curve *b = c->base >= 0 ? &cv->c[c->base] : NULL;
    if (b && b->cpus < c->cpus) {
        /* The speedup at the most threads both curves measured. */
        size_t t = c->k;
        for (size_t u = c->k; u-- > 0 && t == c->k;)
            if (isfinite(c->cpu_speedup[u]))
                t = u;
        if (t < c->k)
            snprintf(cpus, sizeof cpus, "on %d -> %d CPUs: %.1fx at %g thread%s; ", b->cpus,
                     c->cpus, c->cpu_speedup[t], c->n[t], plural(c->n[t]));
        else
            snprintf(cpus, sizeof cpus, "on %d -> %d CPUs (no thread count in common); ", b->cpus,
                     c->cpus);
    } else {
        snprintf(cpus, sizeof cpus, "on %d CPU%s: ", c->cpus, c->cpus == 1 ? "" : "s");
    }
    drop_after_peak(c, tail, sizeof tail);
    snprintf(buf, len, "%s%s %s %s %speak %.0f tps at %g thread%s%s", pre, server, c->workload,
             c->variant, cpus, c->x[c->peak], c->n[c->peak], plural(c->n[c->peak]), tail);
}

void page_compare_sentence(const struct curves *cv, size_t i, char *buf, size_t len)
{
    buf[0] = '\0';
    int m = curves_match(cv, i);
    if (m < 0)
        return;
    const struct curve *c = &cv->c[i], *o = &cv->c[m];
    char peak[96] = "", at[96] = "";
    long long rel;
    if (c->k && o->k && stats_relpct(c->x[c->peak], o->x[o->peak], &rel) == 0)
        snprintf(peak, sizeof peak, "%+lld%% at peak (%.0f vs %.0f tps)", rel, c->x[c->peak],
                 o->x[o->peak]);
    /* ... and at the most threads both measured. */
    for (size_t t = c->k; t-- > 0 && !at[0];)
        for (size_t u = 0; u < o->k; u++)
            if (o->n[u] == c->n[t] && stats_relpct(c->x[t], o->x[u], &rel) == 0) {
                snprintf(at, sizeof at, "%s%+lld%% at %g thread%s", peak[0] ? ", " : "", rel,
                         c->n[t], plural(c->n[t]));
                break;
            }
    snprintf(buf, len, "%s against %s, %s on %d CPU%s: %s%s", cv->dirs[c->dir].name,
             cv->dirs[0].name, c->variant, c->cpus, c->cpus == 1 ? "" : "s", peak, at);
}
