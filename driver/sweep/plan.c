/*
 * plan.c - the sweep's plan as a flat list of levels (CPU count, threads,
 * repeat) in the order they run.
 *
 * Interleaved order alternates CPU counts and thread levels on every repeat,
 * so slow drift (caches, vacuum, purge, heat) lands on all curves alike
 * instead of bending one. This file must stay pure: it reads no files and
 * prints nothing, so every order and every odd list is unit-testable.
 */
#include "sweep/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/util.h"

void sweep_plan_expand_k(const char *in, int k, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = in; *p && o + 24 < len;) {
        if (*p >= '0' && *p <= '9') {
            char *end;
            long long v = strtoll(p, &end, 10);
            if (*end == 'k') {
                o += (size_t)snprintf(out + o, len - o, "%lld", v * k);
                p = end + 1;
            } else {
                o += (size_t)snprintf(out + o, len - o, "%.*s", (int)(end - p), p);
                p = end;
            }
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
}

/* --cpus: counts, "all"; values above the machine are dropped and listed in
 * p->skipped for the caller to mention */
static int parse_cpus(struct sweep_plan *p, const char *cpus, char *err, size_t errlen)
{
    char *buf = xstrdup(cpus);
    size_t ntok = 1;
    for (const char *c = cpus; *c; c++)
        ntok += *c == ',';
    p->nk = 0;
    p->nskipped = 0;
    /* no more counts than tokens: the arrays are sized from the list itself */
    free(p->kcpus);
    free(p->skipped);
    p->kcpus = xcalloc(ntok, sizeof *p->kcpus);
    p->skipped = xcalloc(ntok, sizeof *p->skipped);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        long long v;
        if (!strcmp(tok, "all"))
            v = p->nonline;
        else if (parse_int(tok, &v) < 0 || v < 1) {
            snprintf(err, errlen, "--cpus: '%s' is not a CPU count (1, 2, ... or all)", tok);
            free(buf);
            return -1;
        }
        if (v > p->nonline) {
            p->skipped[p->nskipped++] = v;
            continue;
        }
        int dup = 0;
        for (int i = 0; i < p->nk; i++)
            dup |= p->kcpus[i] == v;
        if (!dup)
            p->kcpus[p->nk++] = (int)v;
    }
    free(buf);
    if (p->nk == 0) {
        snprintf(err, errlen, "--cpus=%s leaves no CPU count to run", cpus);
        return -1;
    }
    return 0;
}

static int parse_threads(struct sweep_plan *p, const char *tl, char *err, size_t errlen)
{
    free(p->threads);
    free(p->nthreads);
    p->threads = xcalloc((size_t)p->nk, sizeof *p->threads);
    p->nthreads = xcalloc((size_t)p->nk, sizeof *p->nthreads);
    for (int k = 0; k < p->nk; k++) {
        char ex[512];
        sweep_plan_expand_k(tl, p->kcpus[k], ex, sizeof ex);
        int n = parse_int_list(ex, p->threads[k], SWEEP_MAX_LEVELS_T);
        if (n <= 0) {
            snprintf(err, errlen,
                     "--threads=%s: expected a list like 1,2,4,8 or 1-64 or 1-256:x2 or 1-4k:x2 "
                     "(k = the CPU count; at most %d levels)",
                     tl, SWEEP_MAX_LEVELS_T);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            if (p->threads[k][i] < 1 || p->threads[k][i] > 100000) {
                snprintf(err, errlen, "--threads: %lld is not a thread count (1..100000)",
                         p->threads[k][i]);
                return -1;
            }
            if (p->threads[k][i] > p->maxthreads)
                p->maxthreads = p->threads[k][i];
        }
        p->nthreads[k] = n;
    }
    return 0;
}

int sweep_plan_build(struct sweep_plan *p, const char *threads, const char *cpus, const char *order,
                     int repeats, char *err, size_t errlen)
{
    if (p->nonline < 1) {
        snprintf(err, errlen, "cannot read the online CPUs");
        return -1;
    }
    if (parse_cpus(p, cpus, err, errlen) < 0 || parse_threads(p, threads, err, errlen) < 0)
        return -1;
    p->repeats = repeats;
    int total = 0;
    for (int k = 0; k < p->nk; k++)
        total += p->nthreads[k] * p->repeats;
    free(p->levels);
    p->levels = xcalloc((size_t)(total > 0 ? total : 1), sizeof *p->levels);
    int n = 0;
    if (strcmp(order, "interleaved") != 0) {
        for (int k = 0; k < p->nk; k++)
            for (int t = 0; t < p->nthreads[k]; t++)
                for (int r = 0; r < p->repeats; r++)
                    p->levels[n++] = (struct sweep_level){k, (int)p->threads[k][t], r + 1};
    } else {
        /* each repeat walks thread levels and CPU counts, reversing direction
         * on odd repeats so no point always comes first or last */
        int maxn = 0;
        for (int k = 0; k < p->nk; k++)
            maxn = p->nthreads[k] > maxn ? p->nthreads[k] : maxn;
        for (int r = 0; r < p->repeats; r++)
            for (int t0 = 0; t0 < maxn; t0++)
                for (int k0 = 0; k0 < p->nk; k0++) {
                    int k = r % 2 ? p->nk - 1 - k0 : k0;
                    int t = r % 2 ? maxn - 1 - t0 : t0;
                    if (t < p->nthreads[k])
                        p->levels[n++] = (struct sweep_level){k, (int)p->threads[k][t], r + 1};
                }
    }
    p->nlevels = n;
    return 0;
}

void sweep_plan_free(struct sweep_plan *p)
{
    free(p->levels);
    free(p->kcpus);
    free(p->threads);
    free(p->nthreads);
    free(p->skipped);
    p->levels = NULL;
    p->kcpus = p->nthreads = NULL;
    p->threads = NULL;
    p->skipped = NULL;
    p->nlevels = p->nk = p->nskipped = 0;
}

int sweep_plan_check_variant(const char *label, char *err, size_t errlen)
{
    size_t n = strlen(label);
    int ok = n >= 1 && n <= 31;
    for (size_t i = 0; ok && i < n; i++) {
        unsigned char c = (unsigned char)label[i];
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             strchr("._-+=:", c) != NULL;
    }
    if (ok)
        return 0;
    snprintf(err, errlen,
             "--variant: a label is 1 to 31 characters from A-Z a-z 0-9 . _ - + = : (got %zu "
             "character%s%s)",
             n, n == 1 ? "" : "s", n > 31 ? "" : ", with one outside that set");
    return -1;
}

double sweep_plan_eta(const struct sweep_plan *p, int next, double level_s, double baseline_s,
                      const int *baseline_done)
{
    /* one flag per CPU count of the plan: no ceiling on how many */
    int *pending = xcalloc((size_t)(p->nk > 0 ? p->nk : 1), sizeof *pending);
    int nb = 0;
    double eta = 0;
    for (int i = next < 0 ? 0 : next; i < p->nlevels; i++) {
        int k = p->levels[i].k;
        eta += level_s;
        if (!baseline_done[k] && !pending[k]) {
            pending[k] = 1;
            nb++;
        }
    }
    free(pending);
    return eta + nb * baseline_s;
}
