/*
 * test_classify.c - a point's class from its effect and q-value: each rule on
 * hand-made effects (the same, better/worse by direction, and every reason
 * for inconclusive); then power and error on simulated grids, as issue 40
 * asks: a planted +10% at 3% noise (lognormal CV per run), 5 repeats a side,
 * on 8 of 48 points, BH at 5%, is found at >= 90% of the changed points over
 * 1000 grids (per-point Welch: >= 80%, measured ~84%; moderated with
 * stats/moderate.h: >= 90%), and alone in >= 90% of 1000 single
 * comparisons; 1000 A/A grids of 48 points, at even and at uneven noise
 * (CV 1%..10% across the grid), mark a point in at most ~5% of grids (BH
 * under the complete null holds the familywise rate at the FDR target),
 * with and without moderation. Fixed seeds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "stats/classify.h"
#include "stats/effect.h"
#include "stats/fdr.h"
#include "stats/moderate.h"
#include "stats/prng.h"

/* An effect with an interval, as stats_effect would leave it (repeats need sa, sb, diff). */
static struct stats_effect mk(double est, double lo, double hi)
{
    struct stats_effect e;
    memset(&e, 0, sizeof e);
    e.why = STATS_EFFECT_OK;
    e.na = e.nb = 5;
    e.est = est, e.lo = lo, e.hi = hi;
    e.diff = log1p(est);
    e.conf = 0.95, e.alpha = 0.05, e.power = 0.8;
    /* a spread that gives this half-width at 5 a side (t(0.975, 8) = 2.306) */
    e.sa = e.sb = (log1p(hi) - log1p(lo)) / 2 / 2.306 / sqrt(2.0 / 5);
    return e;
}

static enum stats_class cls(struct stats_effect e, double q, enum stats_dir dir,
                            enum stats_reason *why, size_t *repeats)
{
    struct stats_class_opt o = {.dir = dir};
    struct stats_verdict v;
    stats_classify(&e, q, &o, &v);
    if (why)
        *why = v.reason;
    if (repeats)
        *repeats = v.repeats;
    return v.cls;
}

static void test_rules(void **state)
{
    (void)state;
    enum stats_reason why;
    size_t rep;
    const enum stats_dir up = STATS_HIGHER_BETTER, down = STATS_LOWER_BETTER;
    /* Inside +-5%: the same, whatever q says. */
    assert_int_equal(cls(mk(0.01, -0.02, 0.03), 0.5, up, &why, NULL), STATS_SAME);
    assert_int_equal(cls(mk(0.02, 0.01, 0.03), 0.001, up, NULL, NULL), STATS_SAME);
    /* +10%, significant over the grid: better for TPS, worse for latency. */
    assert_int_equal(cls(mk(0.10, 0.05, 0.15), 0.01, up, &why, NULL), STATS_BETTER);
    assert_int_equal(why, STATS_REASON_NONE);
    assert_int_equal(cls(mk(0.10, 0.05, 0.15), 0.01, down, NULL, NULL), STATS_WORSE);
    assert_int_equal(cls(mk(-0.10, -0.15, -0.05), 0.01, up, NULL, NULL), STATS_WORSE);
    assert_int_equal(cls(mk(-0.10, -0.15, -0.05), 0.01, down, NULL, NULL), STATS_BETTER);
    /* q exactly at the target still counts. */
    assert_int_equal(cls(mk(0.10, 0.05, 0.15), 0.05, up, NULL, NULL), STATS_BETTER);
    /* The interval excludes 0, but not after false-discovery control. */
    assert_int_equal(cls(mk(0.10, 0.02, 0.18), 0.2, up, &why, &rep), STATS_INCONCLUSIVE);
    assert_int_equal(why, STATS_REASON_FDR);
    assert_int_equal(rep, 0);
    /* A real change, but 3% < 5% and the interval reaches past 5%. */
    assert_int_equal(cls(mk(0.03, 0.01, 0.06), 0.01, up, &why, &rep), STATS_INCONCLUSIVE);
    assert_int_equal(why, STATS_REASON_BELOW);
    assert_true(rep > 5 && rep <= 101);
    /* The interval spans 0 and the threshold: too noisy; more repeats would tell. */
    assert_int_equal(cls(mk(0.09, -0.02, 0.21), 0.2, up, &why, &rep), STATS_INCONCLUSIVE);
    assert_int_equal(why, STATS_REASON_SPANS);
    assert_true(rep > 5 && rep <= 100);
    /* Not put through BH. */
    assert_int_equal(cls(mk(0.10, 0.05, 0.15), NAN, up, &why, NULL), STATS_INCONCLUSIVE);
    assert_int_equal(why, STATS_REASON_NOT_TESTED);
    /* A wider threshold makes +10% (5..15%) the same. */
    struct stats_effect e = mk(0.10, 0.05, 0.15);
    struct stats_class_opt o = {.delta = 0.2};
    struct stats_verdict v;
    stats_classify(&e, 0.01, &o, &v);
    assert_int_equal(v.cls, STATS_SAME);
    assert_float_equal(v.delta, 0.2, 0);
    /* And |est| must reach the threshold: a 12% change against a 15% one. */
    o.delta = 0.15;
    e = mk(0.12, 0.06, 0.18);
    stats_classify(&e, 0.01, &o, &v);
    assert_int_equal(v.cls, STATS_INCONCLUSIVE);
    assert_int_equal(v.reason, STATS_REASON_BELOW);
}

static void test_no_interval(void **state)
{
    (void)state;
    struct stats_effect e;
    struct stats_verdict v;
    double one[] = {100}, three[] = {110, 112, 108}, same[] = {100, 100}, zero[] = {0, 1};
    stats_effect(one, 1, three, 3, NULL, &e);
    stats_classify(&e, NAN, NULL, &v);
    assert_int_equal(v.cls, STATS_INCONCLUSIVE);
    assert_int_equal(v.reason, STATS_REASON_ONE_RUN);
    assert_true(v.repeats >= 2);
    stats_effect(same, 2, same, 2, NULL, &e);
    stats_classify(&e, NAN, NULL, &v);
    assert_int_equal(v.reason, STATS_REASON_NO_SPREAD);
    stats_effect(zero, 2, three, 3, NULL, &e);
    stats_classify(&e, 0.001, NULL, &v);
    assert_int_equal(v.cls, STATS_INCONCLUSIVE);
    assert_int_equal(v.reason, STATS_REASON_BAD);
    assert_string_equal(stats_class_name(STATS_BETTER), "better");
    assert_string_equal(stats_class_name(STATS_INCONCLUSIVE), "inconclusive");
    assert_string_equal(stats_reason_text(STATS_REASON_SPANS), "interval spans the threshold");
    assert_string_equal(stats_class_name((enum stats_class)9), "?");
}

enum { GRID = 48, CHANGED = 8, REPS = 5, TRIALS = 1000 };

struct tally {
    int found, all_found, any_found; /* changed points marked BETTER; grids with all, any */
    int grids_marked, false_marks;   /* grids with a mark on an unchanged point; such marks */
};

static void judge(struct stats_effect *e, int changed, struct tally *t)
{
    double p[GRID], q[GRID];
    for (int i = 0; i < GRID; i++)
        p[i] = e[i].p;
    assert_int_equal(stats_bh(p, GRID, q), 0);
    int found = 0, false_marks = 0;
    for (int i = 0; i < GRID; i++) {
        struct stats_verdict v;
        stats_classify(&e[i], q[i], NULL, &v);
        if (i < changed)
            found += v.cls == STATS_BETTER;
        else
            false_marks += v.cls == STATS_BETTER || v.cls == STATS_WORSE;
    }
    t->found += found;
    t->all_found += changed && found == changed;
    t->any_found += found > 0;
    t->false_marks += false_marks;
    t->grids_marked += false_marks > 0;
}

/* One grid: REPS lognormal repeats a side, the point's CV drawn log-uniform
 * in [cv_lo, cv_hi]; the first `changed` points of B carry +10%. Judged
 * per point with Welch, and again after moderation (gated at d0 >= 10). */
static void grid(struct stats_rng *r, int changed, double cv_lo, double cv_hi, struct tally *welch,
                 struct tally *mod)
{
    struct stats_effect e[GRID];
    for (int i = 0; i < GRID; i++) {
        double cv = cv_lo * exp(stats_rng_unit(r) * log(cv_hi / cv_lo));
        double s = sqrt(log1p(cv * cv)), a[REPS], b[REPS];
        for (int j = 0; j < REPS; j++)
            a[j] = 1000 * exp(s * stats_rng_normal(r) - s * s / 2);
        for (int j = 0; j < REPS; j++)
            b[j] = (i < changed ? 1100 : 1000) * exp(s * stats_rng_normal(r) - s * s / 2);
        assert_int_equal(stats_effect(a, REPS, b, REPS, NULL, &e[i]), 0);
    }
    judge(e, changed, welch);
    struct stats_moderation m;
    stats_moderate(e, GRID, 0, &m);
    judge(e, changed, mod);
}

static void test_power(void **state)
{
    (void)state;
    struct stats_rng r;
    stats_rng_seed(&r, 40);
    struct tally w = {0}, m = {0};
    for (int t = 0; t < TRIALS; t++)
        grid(&r, CHANGED, 0.03, 0.03, &w, &m);
    double pw = (double)w.found / (TRIALS * CHANGED), pm = (double)m.found / (TRIALS * CHANGED);
    print_message("grid power, Welch: %.4f of changed points BETTER; all 8 in %.3f of grids, "
                  "any in %.3f; %.3f false marks per grid\n",
                  pw, (double)w.all_found / TRIALS, (double)w.any_found / TRIALS,
                  (double)w.false_marks / TRIALS);
    print_message("grid power, moderated: %.4f; all 8 in %.3f of grids; %.3f false marks per "
                  "grid\n",
                  pm, (double)m.all_found / TRIALS, (double)m.false_marks / TRIALS);
    /* Welch alone after BH: ~84%, under the 90% of issue 40 (BH's bar for 8
     * of 48 is p <= 0.0083, and Welch at 5 + 5 has df ~7). Moderated: ~99%. */
    assert_true(pw >= 0.80);
    assert_true(w.any_found >= 0.99 * TRIALS);
    assert_true(pm >= 0.90);

    /* One point alone: its q is its p. */
    int alone = 0;
    double s = sqrt(log1p(0.03 * 0.03));
    for (int t = 0; t < TRIALS; t++) {
        double a[REPS], b[REPS];
        for (int j = 0; j < REPS; j++)
            a[j] = 1000 * exp(s * stats_rng_normal(&r));
        for (int j = 0; j < REPS; j++)
            b[j] = 1100 * exp(s * stats_rng_normal(&r));
        struct stats_effect e;
        struct stats_verdict v;
        stats_effect(a, REPS, b, REPS, NULL, &e);
        stats_classify(&e, e.p, NULL, &v);
        alone += v.cls == STATS_BETTER;
    }
    print_message("single-point power: %.4f\n", (double)alone / TRIALS);
    assert_true(alone >= 0.90 * TRIALS);
}

/* A/A: no point changed. BH under the complete null holds the chance of any
 * mark at the target (5%); 0.065 allows two Monte-Carlo sd at 1000 grids. */
static void test_aa_error(void **state)
{
    (void)state;
    const double cv[][2] = {{0.03, 0.03}, {0.01, 0.10}};
    for (int k = 0; k < 2; k++) {
        struct stats_rng r;
        stats_rng_seed(&r, 41 + (uint64_t)k);
        struct tally w = {0}, m = {0};
        for (int t = 0; t < TRIALS; t++)
            grid(&r, 0, cv[k][0], cv[k][1], &w, &m);
        print_message("A/A, CV %.0f%%..%.0f%%: grids marked %.3f (Welch), %.3f (moderated); points "
                      "marked %.5f, %.5f\n",
                      100 * cv[k][0], 100 * cv[k][1], (double)w.grids_marked / TRIALS,
                      (double)m.grids_marked / TRIALS, (double)w.false_marks / (TRIALS * GRID),
                      (double)m.false_marks / (TRIALS * GRID));
        assert_true(w.grids_marked <= 0.065 * TRIALS);
        assert_true(m.grids_marked <= 0.065 * TRIALS);
        assert_true(w.false_marks <= 0.005 * TRIALS * GRID);
        assert_true(m.false_marks <= 0.005 * TRIALS * GRID);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_no_interval),
        cmocka_unit_test(test_power),
        cmocka_unit_test(test_aa_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
