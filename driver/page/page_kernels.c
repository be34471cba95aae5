/*
 * page_kernels.c - the kernel variants of a page, side by side.
 *
 * The one idea: a kernel variant is a results directory with a kernel.json,
 * and a point is matched across variants by what was measured (workload, the
 * CPUs the server had, threads; or kernel test, mode, tasks), never by the
 * sweep's variant label, which differs by design ("up" on a kernel booted
 * with one CPU, "smp-k1" on an SMP kernel held to one). Every relative % is
 * stats_relpct's floor((a / b - 1) x 100), as the reference will-it-scale
 * table's FvD / FvN / DvN columns are, with compare's Welch marks; every
 * sentence is built from those numbers and names them.
 *
 * Never compute a figure the tables do not show, and never let a string
 * from a file reach the page but through page_esc().
 */
#include "page/page_kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "results/benchcsv.h"
#include "results/kerneljson.h"
#include "page/page_html.h"
#include "stats/stats.h"

#define KV_MAX  26 /* variants are lettered A..Z */
#define KP_MAXV 256

struct kvar {
    struct kernel_facts f;
    int has;
    const char *name;
};

/* A point measured in one or more variants: its key and each variant's
 * values (a results.csv repeat or a micro.csv row each). */
struct kpoint {
    char k1[48], k2[48]; /* engine + workload, or test + mode */
    int cpus;            /* the server's CPUs (database points), 0 for kernel tests */
    double x;            /* threads or tasks */
    double *v[KV_MAX];
    size_t nv[KV_MAX];
};

struct ktable {
    struct kpoint *p;
    size_t n, cap;
};

static void add_value(struct ktable *t, const char *k1, const char *k2, int cpus, double x, int var,
                      double value)
{
    struct kpoint *q = NULL;
    for (size_t i = 0; i < t->n && !q; i++)
        if (t->p[i].cpus == cpus && t->p[i].x == x && !strcmp(t->p[i].k1, k1) &&
            !strcmp(t->p[i].k2, k2))
            q = &t->p[i];
    if (!q) {
        if (t->n == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 64;
            t->p = xrealloc(t->p, t->cap * sizeof *t->p);
        }
        q = &t->p[t->n++];
        memset(q, 0, sizeof *q);
        snprintf(q->k1, sizeof q->k1, "%s", k1);
        snprintf(q->k2, sizeof q->k2, "%s", k2);
        q->cpus = cpus, q->x = x;
    }
    if (!q->v[var])
        q->v[var] = xcalloc(KP_MAXV, sizeof(double));
    if (q->nv[var] < KP_MAXV)
        q->v[var][q->nv[var]++] = value;
}

static void ktable_free(struct ktable *t)
{
    for (size_t i = 0; i < t->n; i++)
        for (int v = 0; v < KV_MAX; v++)
            free(t->p[i].v[v]);
    free(t->p);
    memset(t, 0, sizeof *t);
}

static int kp_cmp(const void *a, const void *b)
{
    const struct kpoint *x = a, *y = b;
    int c = strcmp(x->k1, y->k1);
    if (!c)
        c = strcmp(x->k2, y->k2);
    if (!c)
        c = (x->cpus > y->cpus) - (x->cpus < y->cpus);
    if (!c)
        c = (x->x > y->x) - (x->x < y->x);
    return c;
}

static double kp_median(const struct kpoint *q, int v)
{
    return q->nv[v] ? stats_median(q->v[v], q->nv[v]) : NAN;
}

/* The database points of every variant (levels only, ranks' rows apart). */
static void db_points(const struct curves *cv, size_t nv, struct ktable *t)
{
    for (size_t d = 0; d < nv; d++) {
        const struct result_set *rs = &cv->dirs[d].rs;
        for (size_t i = 0; i < rs->n; i++) {
            const struct result_row *r = &rs->rows[i];
            add_value(t, r->engine, r->workload, r->cpus, r->threads, (int)d, r->tps);
        }
    }
    if (t->n)
        qsort(t->p, t->n, sizeof *t->p, kp_cmp);
}

/* The kernel tests of every variant: micro.csv rows that measured. */
static void micro_points(const struct curves *cv, size_t nv, struct ktable *t)
{
    for (size_t d = 0; d < nv; d++) {
        char path[600], err[600];
        snprintf(path, sizeof path, "%s/micro.csv", cv->dirs[d].path);
        struct microcsv_row *rows = NULL;
        size_t n = 0;
        if (access(path, F_OK) < 0 || microcsv_read(path, &rows, &n, err, sizeof err) < 0)
            continue; /* curves_baseline_load has said so */
        for (size_t i = 0; i < n; i++)
            if (!rows[i].error[0])
                add_value(t, rows[i].test, rows[i].mode, 0, rows[i].tasks, (int)d, rows[i].ops);
        free(rows);
    }
    if (t->n)
        qsort(t->p, t->n, sizeof *t->p, kp_cmp);
}

static size_t load_vars(const struct curves *cv, struct kvar *kv)
{
    size_t n = cv->ndirs < KV_MAX ? cv->ndirs : KV_MAX;
    for (size_t d = 0; d < n; d++) {
        char err[600];
        kv[d].has = kernel_json_load(cv->dirs[d].path, &kv[d].f, err, sizeof err) == 1;
        kv[d].name = cv->dirs[d].name;
    }
    return n;
}

/* ---- the banner ---- */

void page_kernels_banner(const struct curves *cv, struct sbuf *b)
{
    struct kvar kv[KV_MAX];
    size_t n = load_vars(cv, kv);
    int tcg = 0, unpinned = 0;
    for (size_t d = 0; d < n; d++) {
        tcg |= kv[d].has && !strcmp(kv[d].f.virt, "tcg");
        unpinned |= kv[d].has && (!strcmp(kv[d].f.virt, "tcg") || !strcmp(kv[d].f.virt, "kvm")) &&
                    !kv[d].f.pinning[0];
    }
    if (tcg)
        sbuf_printf(b, "<p class=\"warn\" id=\"emulated\"><b>Emulated:</b> these figures were "
                       "measured in qemu guests under TCG, a CPU emulator (no KVM on the host). "
                       "They compare the kernels as an emulator runs them, not as the hardware "
                       "does: emulated atomics, locks and context switches cost other amounts, so "
                       "read the relative figures as a sketch and repeat the study on a KVM host "
                       "or on bare metal before drawing conclusions.</p>\n");
    if (unpinned)
        sbuf_printf(b, "<p class=\"warn\">Some guests ran more vCPUs than the host had CPUs for "
                       "them: their vCPUs were not pinned and shared host CPUs.</p>\n");
}

/* ---- the section ---- */

static char letter(size_t v)
{
    return (char)('A' + v);
}

/* The kernel command line as the user set it: our own words left out. */
static void user_params(const char *cmdline, struct sbuf *out)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", cmdline);
    int first = 1;
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (!strncmp(w, "dbscale.", 8) || !strcmp(w, "console=ttyS0") || !strcmp(w, "panic=-1") ||
            !strcmp(w, "quiet"))
            continue;
        sbuf_printf(out, "%s%s", first ? "" : " ", w);
        first = 0;
    }
}

/* How UP was reached, for each CPU count the variant's database curves
 * held the server to. */
static void up_modes(const struct curves *cv, size_t d, const struct kernel_facts *f,
                     struct sbuf *o)
{
    int one = 0, more = 0;
    for (size_t i = 0; i < cv->nc; i++)
        if ((size_t)cv->c[i].dir == d)
            one |= cv->c[i].cpus == 1, more |= cv->c[i].cpus > 1;
    const char *m1 = kernelinfo_up_mode(f, 1);
    if (!strcmp(m1, "booted"))
        sbuf_printf(o, "booted with one CPU (%s)", f->boot_why);
    else if (!strcmp(m1, "built"))
        sbuf_printf(o, "no SMP build (%s)", f->boot_why);
    else if (one && more)
        sbuf_printf(o, "SMP; held to 1 CPU at its 1-CPU points");
    else if (one)
        sbuf_printf(o, "SMP, held to 1 CPU");
    else
        sbuf_printf(o, "SMP");
}

static void facts_table(const struct curves *cv, const struct kvar *kv, size_t n, struct sbuf *b)
{
    sbuf_printf(b, "<table class=\"kv\" id=\"kernel-variants\">\n<tr><th></th><th>variant</th>"
                   "<th>release</th><th>CONFIG_SMP</th><th>boot parameters</th><th>CPUs "
                   "possible / present / online</th><th>UP</th><th>machine</th><th>vCPU pinning"
                   "</th><th>image sha256</th></tr>\n");
    for (size_t d = 0; d < n; d++) {
        const struct kernel_facts *f = &kv[d].f;
        sbuf_printf(b, "<tr><td>%c</td><td>", letter(d));
        page_esc(b, kv[d].name);
        if (!kv[d].has) {
            sbuf_printf(b, "</td><td colspan=\"8\">no kernel.json: not recorded</td></tr>\n");
            continue;
        }
        sbuf_printf(b, "</td><td>");
        page_esc(b, f->release);
        sbuf_printf(b, "<br><small>");
        page_esc(b, f->version);
        sbuf_printf(b, "</small></td><td>%s<br><small>",
                    f->config_smp < 0 ? "?"
                    : f->config_smp   ? "y"
                                      : "n");
        page_esc(b, f->smp_from);
        struct sbuf s = {0};
        user_params(f->cmdline, &s);
        sbuf_printf(b, "</small></td><td>");
        page_esc(b, s.s ? s.s : "");
        sbuf_free(&s);
        sbuf_printf(b, "</td><td>");
        page_escf(b, "%s / %s / %s", f->possible, f->present, f->online);
        sbuf_printf(b, "</td><td>");
        up_modes(cv, d, f, &s);
        page_esc(b, s.s ? s.s : "");
        sbuf_free(&s);
        sbuf_printf(b, "</td><td>");
        page_esc(b, !strcmp(f->virt, "tcg")   ? "qemu, TCG (emulated)"
                    : !strcmp(f->virt, "kvm") ? "qemu, KVM"
                                              : f->virt);
        sbuf_printf(b, "</td><td>");
        page_esc(b, f->pinning[0] ? f->pinning : "-");
        sbuf_printf(b, "</td><td><small>");
        page_escf(b, "%.12s", f->image_sha256[0] ? f->image_sha256 : "-");
        sbuf_printf(b, "</small></td></tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

static void rel_cell(struct sbuf *b, const struct kpoint *q, size_t i, size_t j)
{
    long long rel;
    double a = kp_median(q, (int)i), c = kp_median(q, (int)j);
    if (!isfinite(a) || !isfinite(c) || stats_relpct(a, c, &rel) < 0) {
        sbuf_printf(b, "<td>N/A</td>");
        return;
    }
    struct stats_welch w;
    const char *mark = "";
    if (stats_welch(q->v[i], q->nv[i], q->v[j], q->nv[j], &w) == 0)
        mark = w.significant ? "*" : "~";
    sbuf_printf(b, "<td class=\"%s\">%+lld%s</td>", rel < 0 ? "neg" : "pos", rel, mark);
}

/* The reference table's layout: keys, a raw column per variant, a relative
 * column per pair (i < j: floor((i / j - 1) x 100)). */
static void pair_table(const struct ktable *t, size_t n, int db, struct sbuf *b)
{
    sbuf_printf(b, "<table class=\"kernels\" id=\"%s\">\n<tr>",
                db ? "kernel-relative-db" : "kernel-relative-micro");
    if (db)
        sbuf_printf(b, "<th>engine</th><th>workload</th><th>CPUs</th><th>threads</th>");
    else
        sbuf_printf(b, "<th>test</th><th>mode</th><th>tasks</th>");
    for (size_t v = 0; v < n; v++)
        sbuf_printf(b, "<th>%c</th>", letter(v));
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            sbuf_printf(b, "<th>%cv%c</th>", letter(i), letter(j));
    sbuf_printf(b, "</tr>\n");
    for (size_t r = 0; r < t->n; r++) {
        const struct kpoint *q = &t->p[r];
        sbuf_printf(b, "<tr><td>");
        page_esc(b, q->k1);
        sbuf_printf(b, "</td><td>");
        page_esc(b, q->k2);
        if (db)
            sbuf_printf(b, "</td><td>%d", q->cpus);
        sbuf_printf(b, "</td><td>%g</td>", q->x);
        for (size_t v = 0; v < n; v++) {
            double m = kp_median(q, (int)v);
            if (isfinite(m))
                sbuf_printf(b, db ? "<td>%.1f</td>" : "<td>%.0f</td>", m);
            else
                sbuf_printf(b, "<td>N/A</td>");
        }
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                rel_cell(b, q, i, j);
        sbuf_printf(b, "</tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

/* ---- the SMP write-up's two sentences ---- */

static int is_up(const struct kvar *v)
{
    return v->has && (!strcmp(v->f.boot, "booted") || !strcmp(v->f.boot, "built"));
}

static int is_smp(const struct kvar *v)
{
    return v->has && !strcmp(v->f.boot, "smp");
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The median and range of n relative %s, sorted in place, as words. */
static long long spread(long long *r, size_t n, char *out, size_t len)
{
    qsort(r, n, sizeof *r, cmp_ll);
    long long med = r[n / 2];
    if (n % 2 == 0)
        med = (long long)floor((double)(r[n / 2 - 1] + r[n / 2]) / 2.0);
    if (n == 1)
        snprintf(out, len, "%+lld%%", med);
    else
        snprintf(out, len, "%+lld%% (median of %zu; from %+lld%% to %+lld%%)", med, n, r[0],
                 r[n - 1]);
    return med;
}

static const char *up_how(const struct kvar *u)
{
    return !strcmp(u->f.boot, "built") ? "built without SMP" : "booted with one CPU";
}

/* Relative %s of variant s against u at the points both measured on one
 * CPU (database) or with one task (kernel tests). */
static size_t one_cpu_rels(const struct ktable *t, int db, size_t s, size_t u, long long *r,
                           size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n && n < max; i++) {
        const struct kpoint *q = &t->p[i];
        int keep = db ? q->cpus == 1 : q->x == 1;
        if (keep && q->nv[s] && q->nv[u] &&
            stats_relpct(kp_median(q, (int)s), kp_median(q, (int)u), &r[n]) == 0)
            n++;
    }
    return n;
}

/* SMP held to one CPU against UP, at every database point both measured on
 * one CPU, or at every kernel test at one task (the write-up's "enabling
 * SMP has a 20% overhead"). 1 when a sentence was made. */
static int cost_sentence(const struct ktable *db, const struct ktable *mi, const struct kvar *kv,
                         size_t s, size_t u, struct sbuf *b)
{
    const struct ktable *t = db->n ? db : mi;
    long long r[1024];
    size_t n = one_cpu_rels(t, t == db, s, u, r, 1024);
    if (!n)
        return 0;
    char sp[160], v[64];
    long long med = spread(r, n, sp, sizeof sp);
    if (med)
        snprintf(v, sizeof v, "SMP on one CPU %s %lld%%", med < 0 ? "costs" : "gains",
                 med < 0 ? -med : med);
    else
        snprintf(v, sizeof v, "SMP on one CPU makes no difference");
    sbuf_printf(b, "<li class=\"smp-cost\">");
    page_escf(b, "%s: %c (%s, SMP kernel, %s) against %c (%s, %s: %s) is %s, over the %s.", v,
              letter(s), kv[s].name,
              t == db ? "server held to 1 CPU" : "its kernel tests at 1 task", letter(u),
              kv[u].name, up_how(&kv[u]), kv[u].f.boot_why, sp,
              t == db ? "database points both measured on one CPU" : "kernel tests at one task");
    sbuf_printf(b, "</li>\n");
    return 1;
}
/* The SMP kernel's best against UP's best: per workload (database) or per
 * kernel test and mode. */
static int peak_sentence(const struct ktable *db, const struct ktable *mi, const struct kvar *kv,
                         size_t s, size_t u, struct sbuf *b)
{
    const struct ktable *t = db->n ? db : mi;
    long long r[1024];
    size_t n = 0;
    char one[512] = "";
    for (size_t i = 0; i < t->n && n < 1024; i++) {
        if (i > 0 && !strcmp(t->p[i].k1, t->p[i - 1].k1) && !strcmp(t->p[i].k2, t->p[i - 1].k2))
            continue; /* the first point of each key starts its group */
        double ps = NAN, pu = NAN;
        const struct kpoint *bs = NULL, *bu = NULL;
        for (size_t j = i;
             j < t->n && !strcmp(t->p[j].k1, t->p[i].k1) && !strcmp(t->p[j].k2, t->p[i].k2); j++) {
            double ms = kp_median(&t->p[j], (int)s), mu = kp_median(&t->p[j], (int)u);
            if (isfinite(ms) && (!bs || ms > ps))
                ps = ms, bs = &t->p[j];
            if (isfinite(mu) && (!bu || mu > pu))
                pu = mu, bu = &t->p[j];
        }
        if (bs && bu && stats_relpct(ps, pu, &r[n]) == 0) {
            if (t == db && n == 0)
                snprintf(one, sizeof one,
                         "%s %s: %.1f tps at %d CPU%s and %g thread%s against %.1f tps at %g "
                         "thread%s",
                         bs->k1, bs->k2, ps, bs->cpus, bs->cpus == 1 ? "" : "s", bs->x,
                         bs->x == 1 ? "" : "s", pu, bu->x, bu->x == 1 ? "" : "s");
            n++;
        }
    }
    if (!n)
        return 0;
    char sp[160], v[64];
    long long med = spread(r, n, sp, sizeof sp);
    if (med)
        snprintf(v, sizeof v, "SMP peaks %lld%% %s UP", med < 0 ? -med : med,
                 med < 0 ? "below" : "above");
    else
        snprintf(v, sizeof v, "SMP peaks level with UP");
    sbuf_printf(b, "<li class=\"smp-peak\">");
    page_escf(b, "%s: the best of %c (%s, SMP kernel) against the best of %c (%s, %s) is %s, %s%s.",
              v, letter(s), kv[s].name, letter(u), kv[u].name, up_how(&kv[u]), sp,
              t == db ? (n == 1 ? "" : "over each workload") : "over each kernel test",
              t == db && n == 1 ? one : "");
    sbuf_printf(b, "</li>\n");
    return 1;
}

static void sentences(const struct ktable *db, const struct ktable *mi, const struct kvar *kv,
                      size_t n, struct sbuf *b)
{
    size_t made = 0;
    sbuf_printf(b, "<ul class=\"headlines\" id=\"smp-sentences\">\n");
    for (int same = 1; same >= 0 && !made; same--) /* same release first */
        for (size_t s = 0; s < n; s++)
            for (size_t u = 0; u < n && made < 16; u++) {
                if (!is_smp(&kv[s]) || !is_up(&kv[u]) ||
                    (same && strcmp(kv[s].f.release, kv[u].f.release) != 0))
                    continue;
                made += (size_t)cost_sentence(db, mi, kv, s, u, b);
                made += (size_t)peak_sentence(db, mi, kv, s, u, b);
            }
    if (!made)
        sbuf_printf(b, "<li>No SMP-against-UP sentence: no variant pairs an SMP kernel with one "
                       "that booted with one CPU or was built without SMP, on points both "
                       "measured.</li>\n");
    sbuf_printf(b, "</ul>\n");
}

void page_kernels(const struct curves *cv, struct sbuf *b)
{
    struct kvar kv[KV_MAX];
    size_t n = load_vars(cv, kv), with = 0;
    for (size_t d = 0; d < n; d++)
        with += (size_t)kv[d].has;
    if (!with)
        return;
    sbuf_printf(b, "<h2 id=\"kernels\">Kernels</h2>\n<p class=\"note\">Each results directory "
                   "as a kernel variant, from its kernel.json. UP is reached three ways: an "
                   "SMP kernel held to one CPU keeps its SMP code; one booted with one CPU "
                   "patches its SMP alternatives (x86 LOCK prefixes) into UP forms; one built "
                   "without CONFIG_SMP has no SMP code.</p>\n");
    facts_table(cv, kv, n, b);
    if (n < 2)
        return;
    struct ktable db = {0}, mi = {0};
    db_points(cv, n, &db);
    micro_points(cv, n, &mi);
    sentences(&db, &mi, kv, n, b);
    if (db.n) {
        sbuf_printf(b, "<h3>Database, relative %% between variants</h3>\n");
        pair_table(&db, n, 1, b);
    }
    if (mi.n) {
        sbuf_printf(b, "<h3>Kernel tests, relative %% between variants</h3>\n");
        pair_table(&mi, n, 0, b);
    }
    if (db.n || mi.n)
        sbuf_printf(b, "<p class=\"note\">A, B ...: median transactions/s (database) or "
                       "operations/s (kernel tests) of each variant; AvB is floor((A / B - 1) "
                       "&times; 100), the reference will-it-scale table's FvD; * the difference "
                       "is significant (Welch's t-test over repeats or boots, 95%%), ~ no "
                       "difference proven, no mark: fewer than two values a side; N/A: not "
                       "measured in both.</p>\n");
    ktable_free(&db);
    ktable_free(&mi);
}
