/*
 * limit.c - what stops a curve: at the knee (the point before it against
 * the knee) and after the peak (the peak against the last point, where the
 * curve falls), each cause is a test on figures that were measured there,
 * against a threshold below. Every cause that holds is a candidate; the
 * first in the order of kinds that explain the others (an offered-load cap,
 * the kernel under a saturated CPU, the CPU, locks, I/O, the client, round
 * trips) is the verdict, and a second that also holds is named beside it,
 * since the figures do not separate them.
 *
 * The one idea: no verdict without its figures. A cause is only tested
 * where its figure was measured (NAN is "not measured", never 0), and what
 * a curve is not is said with the figure that rules it out. The kernel is
 * named only where kernel time per transaction grew and the kernel's own
 * baseline at that CPU count, or the profile, says the kernel does not
 * scale there.
 *
 * Never reads a file or prints: the caller gathers the points.
 */
#include "analysis/limit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "results/waitclass.h"

/* The thresholds (docs/verdicts.md gives the reasons). */
#define CPU_IDLE_MAX   10.0 /* % idle on the held CPUs under which they are saturated */
#define IDLE_HIGH      25.0 /* % idle over which the server clearly has CPU to spare */
#define WAIT_SHARE     0.20 /* a wait part's share of a transaction that can limit it */
#define WAIT_GROWTH    1.30 /* ... and how much it must grow from the point before */
#define CLIENT_SHARE   0.50 /* the client part's share of a transaction that can limit it */
#define CLIENT_BUSY    0.80 /* the client's CPUs this busy are saturated */
#define RATE_REACHED   0.90 /* throughput this close to --rate: the rate caps it */
#define KERNEL_GROWTH  1.50 /* server kernel CPU per transaction grew this much */
#define KERNEL_BASE    0.50 /* a baseline test below this efficiency does not scale */
#define PROFILE_GROWTH 1.30 /* the profile's kernel share grew this much */
#define FALL           0.95 /* the last point under this share of the peak: it falls */
#define SHAPE_SLEEPS   0.75 /* server sleeps per statement over which the client paces it */
#define SHAPE_BUSY     0.50 /* ... while the client's CPUs are at least this busy */

static const char *const kind_names[LK_N] = {"scales",        "CPU-saturated", "lock-bound",
                                             "I/O-bound",     "client-bound",  "offered-load-bound",
                                             "latency-bound", "kernel-bound",  "undecided"};

const char *limit_kind_name(enum limit_kind k)
{
    return k < LK_N ? kind_names[k] : "?";
}

const char *limit_sure_name(enum limit_sure s)
{
    return s == LS_FIRM ? "firm" : s == LS_LIKELY ? "likely" : "tentative";
}

static void fig(struct limit *l, const char *what, double a, double b, const char *unit)
{
    if (l->nfig >= LIMIT_FIGS || (isnan(a) && isnan(b)))
        return;
    struct limit_fig *f = &l->fig[l->nfig++];
    snprintf(f->what, sizeof f->what, "%s", what);
    f->a = a, f->b = b, f->unit = unit;
}

static void add_not(struct limit *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_not(struct limit *l, const char *fmt, ...)
{
    size_t n = strlen(l->not_);
    if (n + 4 >= sizeof l->not_)
        return;
    if (n)
        n += (size_t)snprintf(l->not_ + n, sizeof l->not_ - n, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->not_ + n, sizeof l->not_ - n, fmt, ap);
    va_end(ap);
}

static double share(const struct limit_point *p, enum budget_part part)
{
    double v = p->bud.part[part];
    return isnan(v) || !(p->bud.total_us > 0) ? NAN : v / p->bud.total_us;
}

/* A wait part limits when it is a large share at b and grew from a (or a
 * is the same point). */
static int wait_limits(const struct limit_point *a, const struct limit_point *b,
                       enum budget_part part)
{
    double sb = share(b, part), va = a->bud.part[part], vb = b->bud.part[part];
    if (isnan(sb) || sb < WAIT_SHARE)
        return 0;
    return a == b || isnan(va) || va <= 0 || vb >= WAIT_GROWTH * va;
}

/* The largest event of a class at b, named ("row locks (Lock:transactionid)"
 * for a lock), and the class's share of a transaction. */
static void wait_part(const struct limit_point *b, enum waitclass cls, enum budget_part part,
                      char *out, size_t len)
{
    const char *what = cls == WC_LOCK ? "locks" : "I/O";
    const char *ev = NULL;
    for (int i = 0; b->w && i < b->w->nev && !ev; i++)
        if (waitclass_of(b->w->ev[i].event) == cls)
            ev = b->w->ev[i].event;
    if (ev && cls == WC_LOCK)
        snprintf(out, len, "%s (%s), %.0f%% of a transaction", waitclass_lock_kind(ev), ev,
                 100 * share(b, part));
    else if (ev)
        snprintf(out, len, "%s (%s), %.0f%% of a transaction", what, ev, 100 * share(b, part));
    else
        snprintf(out, len, "%s, %.0f%% of a transaction", what, 100 * share(b, part));
}

/* Which part of a saturated CPU: the server's user or kernel time, irq and
 * softirq, or others on the held CPUs (the client among them). */
static void cpu_part(const struct limit_point *b, char *out, size_t len)
{
    snprintf(out, len, "the held CPUs");
    if (!b->w)
        return;
    double user = b->w->cat[WP_USER], kern = b->w->cat[WP_KERNEL], irq = b->w->cat[WP_IRQ];
    double others = b->w->held_busy_us - (isnan(user) ? 0 : user) - (isnan(kern) ? 0 : kern);
    double tot = (isnan(user) ? 0 : user) + (isnan(kern) ? 0 : kern) + (isnan(irq) ? 0 : irq) +
                 (isnan(others) || others < 0 ? 0 : others);
    if (!(tot > 0))
        return;
    const char *name[4] = {"server user CPU", "server kernel CPU", "irq+softirq",
                           b->shared ? "other tasks on the held CPUs (the client shares them)"
                                     : "other tasks on the held CPUs"};
    double v[4] = {user, kern, irq, others};
    int top = 0;
    for (int i = 1; i < 4; i++)
        if (!isnan(v[i]) && (isnan(v[top]) || v[i] > v[top]))
            top = i;
    snprintf(out, len, "%s (%.0f%% of the held CPUs' busy time; user %.0f%%, kernel %.0f%%)",
             name[top], 100 * v[top] / tot, isnan(user) ? 0 : 100 * user / tot,
             isnan(kern) ? 0 : 100 * kern / tot);
}

/* Whether tasks other than the server took most of the held CPUs' busy time. */
static int others_dominate(const struct limit_point *b)
{
    if (!b->w || isnan(b->w->held_busy_us) || !(b->w->held_busy_us > 0))
        return 0;
    double own = (isnan(b->w->cat[WP_USER]) ? 0 : b->w->cat[WP_USER]) +
                 (isnan(b->w->cat[WP_KERNEL]) ? 0 : b->w->cat[WP_KERNEL]);
    return b->w->held_busy_us - own > 0.5 * b->w->held_busy_us;
}

/* Whether the client may be shaping the server at b: the server's tasks
 * sleep after most statements (a statement ends, the next is not there yet)
 * while the client's CPUs are busy, so the pace is the client's. MariaDB
 * only: its threads sleep about once a transaction under sysbench (0.1-0.3
 * at 16 point-select connections, 1.1-3.1 of 16 read-only statements), so
 * sleeping after every statement is the client's shape there; a PostgreSQL
 * backend sleeps after nearly every statement under every client measured
 * (sysbench: 14.8-16.1 of 16), so there the figure tells nothing
 * (docs/performance.md, "How connections map to threads"). */
static void shaping(const struct limit_point *b, const char *engine, char *out, size_t len)
{
    out[0] = '\0';
    if (!engine || strcmp(engine, "mysql"))
        return;
    double sleeps = b->w ? b->w->voluntary_txn : NAN;
    if (isnan(sleeps) || isnan(b->stmts_txn) || !(b->stmts_txn > 0) || isnan(b->client_busy))
        return;
    if (sleeps >= SHAPE_SLEEPS * b->stmts_txn && b->client_busy >= SHAPE_BUSY)
        snprintf(out, len,
                 "the server's tasks slept %.1f times a transaction of %.1f statements while the "
                 "client's CPUs were %.0f%% busy: the client may be shaping the server",
                 sleeps, b->stmts_txn, 100 * b->client_busy);
}

static int kernel_grew(const struct limit_point *a, const struct limit_point *b)
{
    if (!a->w || !b->w || a == b)
        return 0;
    double ka = a->w->cat[WP_KERNEL], kb = b->w->cat[WP_KERNEL];
    if (isnan(ka) || isnan(kb) || ka <= 0 || kb < KERNEL_GROWTH * ka)
        return 0;
    int base = !isnan(b->kernel_base) && b->kernel_base < KERNEL_BASE;
    int prof = !isnan(a->kernel_share) && !isnan(b->kernel_share) && a->kernel_share > 0 &&
               b->kernel_share >= PROFILE_GROWTH * a->kernel_share;
    return base || prof;
}

static enum limit_sure sureness(const struct limit_point *b, int clear, char *why, size_t len)
{
    snprintf(why, len, "%d repeat%s, tps spread %.0f%%%s", b->repeats, b->repeats == 1 ? "" : "s",
             isnan(b->spread) ? 0 : 100 * b->spread,
             clear ? "" : "; the deciding figure is near its threshold");
    if (b->repeats >= 3 && b->spread <= 0.10 && clear)
        return LS_FIRM;
    if (b->repeats >= 2 && !(b->spread > 0.25))
        return LS_LIKELY;
    return LS_TENTATIVE;
}

static void what_it_is_not(struct limit *l, const struct limit_point *a,
                           const struct limit_point *b, const int *holds)
{
    if (!holds[LK_CPU] && !isnan(b->idle))
        add_not(l, "not CPU (the held CPUs %.0f%% idle)", b->idle);
    if (!holds[LK_LOCK] && !isnan(share(b, BP_LOCK)))
        add_not(l, "not locks (%.0f%% of a transaction)", 100 * share(b, BP_LOCK));
    if (!holds[LK_IO] && !isnan(share(b, BP_IO)) && share(b, BP_IO) >= 0.05)
        add_not(l, "not I/O (%.0f%% of a transaction)", 100 * share(b, BP_IO));
    if (!holds[LK_CLIENT] && !isnan(b->client_busy) && !b->shared)
        add_not(l, "not client-bound (the client's CPUs %.0f%% busy)", 100 * b->client_busy);
    if (!holds[LK_KERNEL] && a != b && a->w && b->w && !isnan(a->w->cat[WP_KERNEL]) &&
        !isnan(b->w->cat[WP_KERNEL]) && a->w->cat[WP_KERNEL] > 0)
        add_not(l, "not the kernel (server kernel CPU %.1f -> %.1f us/txn%s)", a->w->cat[WP_KERNEL],
                b->w->cat[WP_KERNEL],
                b->w->cat[WP_KERNEL] >= KERNEL_GROWTH * a->w->cat[WP_KERNEL]
                    ? ", but no baseline or profile shows the kernel failing to scale"
                    : "");
}

static void figures(struct limit *l, const struct limit_point *a, const struct limit_point *b)
{
    fig(l, "throughput", a->tps, b->tps, "tps");
    fig(l, "held CPUs idle", a->idle, b->idle, "%");
    if (a->w && b->w) {
        fig(l, "server user CPU", a->w->cat[WP_USER], b->w->cat[WP_USER], "us/txn");
        fig(l, "server kernel CPU", a->w->cat[WP_KERNEL], b->w->cat[WP_KERNEL], "us/txn");
    }
    static const enum budget_part parts[] = {BP_LOCK, BP_IO, BP_CLIENT, BP_RUNQ};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (!isnan(b->bud.part[parts[i]]) && share(b, parts[i]) >= 0.05)
            fig(l, budget_part_name(parts[i]), a->bud.part[parts[i]], b->bud.part[parts[i]],
                "us/txn");
    fig(l, "client CPUs busy", 100 * a->client_busy, 100 * b->client_busy, "%");
}

/* Which part of kind k limits at b, into out; whether its figure is clear
 * of its threshold. */
static int part_of(const struct limit_curve *lc, enum limit_kind k, const struct limit_point *b,
                   char *out, size_t len)
{
    double cs = share(b, BP_CLIENT);
    out[0] = '\0';
    switch (k) {
    case LK_CPU:
    case LK_KERNEL:
        cpu_part(b, out, len);
        return b->idle <= CPU_IDLE_MAX / 2;
    case LK_LOCK:
        wait_part(b, WC_LOCK, BP_LOCK, out, len);
        return share(b, BP_LOCK) >= 1.5 * WAIT_SHARE;
    case LK_IO:
        wait_part(b, WC_IO, BP_IO, out, len);
        return share(b, BP_IO) >= 1.5 * WAIT_SHARE;
    case LK_CLIENT:
        snprintf(out, len, "the client (%.0f%% of a transaction waiting for it)", 100 * cs);
        return 1;
    case LK_LATENCY:
        snprintf(out, len, "round trips (%.0f%% of a transaction)", 100 * cs);
        return 1;
    case LK_LOAD:
        snprintf(out, len, "--rate=%g", lc->rate);
        return 1;
    case LK_SCALES:
        if (!isnan(b->idle))
            snprintf(out, len, "the held CPUs %.0f%% idle at the last point", b->idle);
        return 1;
    default:
        snprintf(out, len, "%s",
                 b->w || !isnan(b->idle) ? "no figure reaches a threshold"
                                         : "nothing measured beside throughput");
        return 0;
    }
}

/* The verdict between points ia and ib. */
static void judge(const struct limit_curve *lc, int curve, enum limit_where where, size_t ia,
                  size_t ib, struct limit *l)
{
    const struct limit_point *a = &lc->pt[ia], *b = &lc->pt[ib];
    memset(l, 0, sizeof *l);
    l->curve = curve, l->where = where, l->ia = ia, l->ib = ib, l->also = LK_N;
    int holds[LK_N] = {0};
    holds[LK_LOAD] = lc->rate > 0 && b->tps >= RATE_REACHED * lc->rate;
    holds[LK_CPU] = !isnan(b->idle) && b->idle < CPU_IDLE_MAX;
    holds[LK_LOCK] = wait_limits(a, b, BP_LOCK);
    holds[LK_IO] = wait_limits(a, b, BP_IO);
    double cs = share(b, BP_CLIENT);
    int idle_high = !isnan(b->idle) && b->idle >= IDLE_HIGH;
    holds[LK_CLIENT] = idle_high && !isnan(cs) && cs >= CLIENT_SHARE &&
                       ((!isnan(b->client_busy) && b->client_busy >= CLIENT_BUSY) || b->shared);
    shaping(b, lc->engine, l->shaping, sizeof l->shaping);
    holds[LK_CLIENT] |= idle_high && l->shaping[0];
    holds[LK_LATENCY] =
        !holds[LK_CLIENT] && b->threads == 1 && idle_high && !isnan(cs) && cs >= CLIENT_SHARE;
    holds[LK_KERNEL] = kernel_grew(a, b);
    if (where == LW_END)
        holds[LK_SCALES] = 1;
    /* The kernel explains a saturated CPU first; beside idle CPUs it comes
     * after the waits (futex sleeps of lock waits grow kernel time too). */
    static const enum limit_kind order[] = {LK_LOAD,   LK_KERNEL,  LK_CPU,    LK_LOCK,  LK_IO,
                                            LK_CLIENT, LK_LATENCY, LK_KERNEL, LK_SCALES};
    l->kind = LK_UNDECIDED;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (!holds[order[i]] || (order[i] == LK_KERNEL && (i == 1) != holds[LK_CPU]))
            continue;
        if (l->kind == LK_UNDECIDED)
            l->kind = order[i];
        else if (l->also == LK_N && order[i] != LK_SCALES)
            l->also = order[i];
    }
    if (l->kind == LK_SCALES && l->also != LK_N) /* scales so far, already limited: say so */
        l->kind = l->also, l->also = LK_N;
    /* CPUs saturated mostly by others (a loaded machine, the client on the
     * server's CPUs) say less about the server than its own waits do: a
     * wait that also limits comes first, the CPUs beside it. */
    if (l->kind == LK_CPU && (l->also == LK_LOCK || l->also == LK_IO) && others_dominate(b))
        l->kind = l->also, l->also = LK_CPU;
    int clear = part_of(lc, l->kind, b, l->part, sizeof l->part);
    if (l->also != LK_N)
        part_of(lc, l->also, b, l->also_part, sizeof l->also_part);
    l->sure = sureness(b, clear, l->sure_why, sizeof l->sure_why);
    if (l->also != LK_N && l->sure == LS_FIRM)
        l->sure = LS_LIKELY;
    if (l->kind == LK_UNDECIDED) /* nothing decided: nothing to be sure of */
        l->sure = LS_TENTATIVE;
    figures(l, a, b);
    what_it_is_not(l, a, b, holds);
}

size_t limit_find(const struct limit_curve *lc, int curve, struct limit *out)
{
    const struct curve *c = lc->c;
    if (c->k == 0)
        return 0;
    if (c->k == 1) {
        judge(lc, curve, LW_ONE, 0, 0, &out[0]);
        return 1;
    }
    size_t n = 0;
    int knee = c->knee < c->k && c->knee >= 1;
    if (knee)
        judge(lc, curve, LW_KNEE, c->knee - 1, c->knee, &out[n++]);
    size_t last = c->k - 1;
    int falls = c->peak < last && c->x[last] < FALL * c->x[c->peak];
    if (falls && !(knee && c->knee - 1 == c->peak && c->knee == last))
        judge(lc, curve, LW_FALL, c->peak, last, &out[n++]);
    if (!n)
        judge(lc, curve, LW_END, 0, last, &out[n++]);
    return n;
}

static void num(char *b, size_t len, double v)
{
    if (isnan(v))
        snprintf(b, len, "n/a");
    else
        snprintf(b, len, fabs(v) >= 100 ? "%.0f" : fabs(v) >= 10 ? "%.1f" : "%.2g", v);
}

void limit_sentence(const struct limit *l, const struct curve *c, char *buf, size_t len)
{
    static const char *const where[] = {"at the knee", "after the peak", "over the range",
                                        "at its one point"};
    size_t n = (size_t)snprintf(buf, len, "%s %s (%g -> %g threads)", limit_kind_name(l->kind),
                                where[l->where], c->n[l->ia], c->n[l->ib]);
    if (l->where == LW_ONE)
        n = (size_t)snprintf(buf, len, "%s at its one point (%g threads)", limit_kind_name(l->kind),
                             c->n[l->ia]);
    if (n < len && l->part[0])
        n += (size_t)snprintf(buf + n, len - n, ": %s", l->part);
    if (n < len && l->also != LK_N)
        n +=
            (size_t)snprintf(buf + n, len - n, "; also %s%s%s: the figures do not separate the two",
                             limit_kind_name(l->also), l->also_part[0] ? ": " : "", l->also_part);
    for (int i = 0; i < l->nfig && n < len; i++) {
        char a[32], b[32];
        num(a, sizeof a, l->fig[i].a), num(b, sizeof b, l->fig[i].b);
        n += (size_t)snprintf(buf + n, len - n, "%s%s %s -> %s %s", i ? ", " : " (", l->fig[i].what,
                              a, b, l->fig[i].unit);
    }
    if (n < len && l->nfig)
        n += (size_t)snprintf(buf + n, len - n, ")");
    if (n < len && l->not_[0])
        n += (size_t)snprintf(buf + n, len - n, "; %s", l->not_);
    if (n < len && l->shaping[0])
        n += (size_t)snprintf(buf + n, len - n, "; %s", l->shaping);
    if (n < len)
        snprintf(buf + n, len - n, "; %s: %s", limit_sure_name(l->sure), l->sure_why);
}
