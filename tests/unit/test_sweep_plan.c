/*
 * test_sweep_plan.c - the sweep's plan, with no server and no /proc: "4k"
 * thread counts expand per CPU count, --cpus above the machine is skipped
 * (and reported), and interleaved order visits every point once per repeat,
 * reversing direction on odd repeats.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sweep/plan.h"

static void machine(struct sweep_plan *p, int n)
{
    static int ids[4096]; /* the plan borrows the caller's online ids */
    memset(p, 0, sizeof *p);
    for (int i = 0; i < n; i++)
        ids[i] = i;
    p->online = ids;
    p->nonline = n;
}

static void test_expand_k(void **state)
{
    (void)state;
    char out[128];
    sweep_plan_expand_k("1-4k:x2", 2, out, sizeof out);
    assert_string_equal(out, "1-8:x2");
    sweep_plan_expand_k("1,2k,16", 4, out, sizeof out);
    assert_string_equal(out, "1,8,16");
}

static void test_k_threads(void **state)
{
    (void)state;
    struct sweep_plan p;
    char err[256];
    machine(&p, 4);
    assert_int_equal(sweep_plan_build(&p, "1,2k", "1,4", "sequential", 1, err, sizeof err), 0);
    assert_int_equal(p.nk, 2);
    assert_int_equal(p.kcpus[0], 1);
    assert_int_equal(p.kcpus[1], 4);
    assert_int_equal(p.nthreads[0], 2);
    assert_int_equal(p.threads[0][1], 2); /* 2k at k=1 */
    assert_int_equal(p.threads[1][1], 8); /* 2k at k=4 */
    assert_int_equal(p.maxthreads, 8);
    assert_int_equal(p.nlevels, 4);
    /* sequential: CPU count, then threads, then repeat */
    assert_int_equal(p.levels[0].k, 0);
    assert_int_equal(p.levels[0].threads, 1);
    assert_int_equal(p.levels[1].threads, 2);
    assert_int_equal(p.levels[2].k, 1);
    assert_int_equal(p.levels[3].threads, 8);
    sweep_plan_free(&p);
}

static void test_skipped_cpus(void **state)
{
    (void)state;
    struct sweep_plan p;
    char err[256];
    machine(&p, 2);
    assert_int_equal(sweep_plan_build(&p, "1", "1,8,all,2,16", "sequential", 1, err, sizeof err),
                     0);
    assert_int_equal(p.nk, 2); /* all = 2 and 2 are one count */
    assert_int_equal(p.kcpus[0], 1);
    assert_int_equal(p.kcpus[1], 2);
    assert_int_equal(p.nskipped, 2);
    assert_int_equal(p.skipped[0], 8);
    assert_int_equal(p.skipped[1], 16);
    sweep_plan_free(&p);

    machine(&p, 2);
    assert_int_equal(sweep_plan_build(&p, "1", "8", "sequential", 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "leaves no CPU count"));
    sweep_plan_free(&p);
    machine(&p, 2);
    assert_int_equal(sweep_plan_build(&p, "1", "0", "sequential", 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "--cpus"));
    sweep_plan_free(&p);
    machine(&p, 2);
    assert_int_equal(sweep_plan_build(&p, "0", "1", "sequential", 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "--threads"));
    sweep_plan_free(&p);
}

static void test_interleaved(void **state)
{
    (void)state;
    struct sweep_plan p;
    char err[256];
    machine(&p, 2);
    assert_int_equal(sweep_plan_build(&p, "1,2", "1,2", "interleaved", 2, err, sizeof err), 0);
    assert_int_equal(p.nlevels, 8);
    /* repeat 1 walks forward: t1 k1, t1 k2, t2 k1, t2 k2 */
    static const int want[8][3] = {{0, 1, 1},
                                   {1, 1, 1},
                                   {0, 2, 1},
                                   {1, 2, 1},
                                   /* repeat 2 walks backward */
                                   {1, 2, 2},
                                   {0, 2, 2},
                                   {1, 1, 2},
                                   {0, 1, 2}};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(p.levels[i].k, want[i][0]);
        assert_int_equal(p.levels[i].threads, want[i][1]);
        assert_int_equal(p.levels[i].repeat, want[i][2]);
    }
    sweep_plan_free(&p);

    /* uneven lists ("2k" gives each CPU count its own levels): every point
     * exactly once per repeat */
    machine(&p, 4);
    assert_int_equal(sweep_plan_build(&p, "1-1k", "1,4", "interleaved", 3, err, sizeof err), 0);
    assert_int_equal(p.nlevels, (1 + 4) * 3);
    int seen[2][5][4] = {{{0}}};
    for (int i = 0; i < p.nlevels; i++)
        seen[p.levels[i].k][p.levels[i].threads][p.levels[i].repeat]++;
    for (int r = 1; r <= 3; r++) {
        assert_int_equal(seen[0][1][r], 1);
        for (int t = 1; t <= 4; t++)
            assert_int_equal(seen[1][t][r], 1);
    }
    sweep_plan_free(&p);
}

/* ETA: measured level time for each level left, plus one measured baseline
 * for each CPU count still to reach (the old ETA left baselines out). */
static void test_eta(void **state)
{
    (void)state;
    struct sweep_plan p;
    char err[256];
    machine(&p, 4);
    assert_int_equal(sweep_plan_build(&p, "1,2", "1,2,4", "sequential", 2, err, sizeof err), 0);
    assert_int_equal(p.nlevels, 12);
    int done[3] = {1, 0, 0}; /* one per CPU count of the plan */
    /* after the first level: 11 levels of 2 s, two baselines of 10 s */
    assert_true(sweep_plan_eta(&p, 1, 2.0, 10.0, done) == 11 * 2.0 + 2 * 10.0);
    done[1] = 1;
    assert_true(sweep_plan_eta(&p, 8, 2.0, 10.0, done) == 4 * 2.0 + 10.0);
    done[2] = 1;
    assert_true(sweep_plan_eta(&p, 12, 2.0, 10.0, done) == 0);
    sweep_plan_free(&p);
}

static void test_variant_labels(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(sweep_plan_check_variant("smp-k2", err, sizeof err), 0);
    assert_int_equal(sweep_plan_check_variant("v6.8+patch_1", err, sizeof err), 0);
    assert_int_equal(sweep_plan_check_variant("a\nb", err, sizeof err), -1);
    assert_non_null(strstr(err, "--variant"));
    assert_int_equal(sweep_plan_check_variant("a,b", err, sizeof err), -1);
    assert_int_equal(sweep_plan_check_variant("", err, sizeof err), -1);
    assert_int_equal(sweep_plan_check_variant("0123456789012345678901234567890", err, sizeof err),
                     0); /* 31: fits the results column */
    assert_int_equal(sweep_plan_check_variant("01234567890123456789012345678901", err, sizeof err),
                     -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expand_k),       cmocka_unit_test(test_k_threads),
        cmocka_unit_test(test_skipped_cpus),   cmocka_unit_test(test_interleaved),
        cmocka_unit_test(test_variant_labels), cmocka_unit_test(test_eta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
