/*
 * test_why_page.c - the why section's parts: the why files' rows become a
 * point's medians over repeats (the server's own CPU from sched.csv, an
 * event missing from a repeat counted 0 there, --profile=knee's repeat 0
 * left out); the sentence comparing two points names the category that grew
 * most first and carries both figures in every clause; lock waits that grew
 * map to the futex tests of the kernel baseline, a grown kernel function to
 * its tests by name; folded stacks give self times; the flame graph draws
 * a box per frame wide enough, escapes names, and says so when empty.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/folded.h"
#include "page/page_flame.h"
#include "page/page_why.h"
#include "analysis/evidence.h"
#include "analysis/whypoint.h"

static void add_wait(struct whycsv *w, int threads, int repeat, const char *ev, const char *cls,
                     double us)
{
    struct why_wait x = {.k = {.cpus = 2, .threads = threads, .repeat = repeat}, .us_txn = us};
    snprintf(x.k.variant, sizeof x.k.variant, "smp-k2");
    snprintf(x.event, sizeof x.event, "%s", ev);
    snprintf(x.cls, sizeof x.cls, "%s", cls);
    whycsv_add_wait(w, &x);
}

static void add_cpu(struct whycsv *w, int threads, int repeat, int cpu, double user, double sys)
{
    struct why_cpu c = {.k = {.cpus = 2, .threads = threads, .repeat = repeat}, .cpu = cpu};
    snprintf(c.k.variant, sizeof c.k.variant, "smp-k2");
    c.us_txn[WHY_USER] = user;
    c.us_txn[WHY_SYSTEM] = sys;
    c.us_txn[WHY_IDLE] = 10;
    whycsv_add_cpu(w, &c);
}

static void test_points(void **st)
{
    (void)st;
    struct whycsv w = {0};
    for (int r = 1; r <= 3; r++) {
        add_cpu(&w, 4, r, 0, 100 * r, 20);
        add_cpu(&w, 4, r, 1, 100 * r, 20);
        add_wait(&w, 4, r, "Lock:transactionid", "lock", 300 * r);
        if (r == 3) /* seen in one repeat of three: its median is 0 */
            add_wait(&w, 4, r, "IO:WALSync", "io", 999);
        add_wait(&w, 4, r, "CPU", "cpu", 50);
    }
    add_wait(&w, 4, 0, "Lock:tuple", "lock", 1e6); /* a knee run: not a repeat */
    struct whypoint *p;
    size_t n = whypoint_build(&w, NULL, &p);
    assert_int_equal(n, 1);
    assert_int_equal(p[0].repeats, 3);
    assert_true(p[0].cat[WP_USER] == 400); /* the CPUs summed, then the median */
    assert_true(p[0].cat[WP_KERNEL] == 40);
    assert_true(p[0].cat[WP_IDLE] == 20);
    assert_true(p[0].cat[WP_LOCK] == 600);
    assert_true(p[0].cat[WP_IO] == 0);
    assert_true(p[0].cat[WP_ONCPU] == 50);
    assert_true(whypoint_event(&p[0], "IO:WALSync") == 0);
    assert_true(whypoint_event(&p[0], "Lock:tuple") == 0);
    assert_string_equal(p[0].ev[0].event, "Lock:transactionid");
    assert_true(isnan(p[0].voluntary_txn)); /* no sched.csv: not measured */
    free(p);
    /* sched.csv's own CPU of the server wins over the held CPUs' */
    for (int r = 1; r <= 3; r++) {
        struct why_sched s = {.k = {.cpus = 2, .threads = 4, .repeat = r},
                              .user_us_txn = 70 + r,
                              .system_us_txn = 33,
                              .voluntary_txn = 16};
        snprintf(s.k.variant, sizeof s.k.variant, "smp-k2");
        whycsv_add_sched(&w, &s);
    }
    n = whypoint_build(&w, NULL, &p);
    assert_true(p[0].cat[WP_USER] == 72);
    assert_true(p[0].cat[WP_KERNEL] == 33);
    assert_true(p[0].voluntary_txn == 16);
    free(p);
    whycsv_free(&w);
}

static struct whypoint pt(double user, double kernel, double lock, double io)
{
    struct whypoint p;
    memset(&p, 0, sizeof p);
    for (int c = 0; c < WP_N; c++)
        p.cat[c] = 0;
    p.cat[WP_USER] = user, p.cat[WP_KERNEL] = kernel, p.cat[WP_LOCK] = lock, p.cat[WP_IO] = io;
    return p;
}

static void test_sentence(void **st)
{
    (void)st;
    struct whypoint a = pt(200, 100, 120, 50), b = pt(205, 101, 372, 20);
    snprintf(a.ev[0].event, sizeof a.ev[0].event, "LWLock:WALInsert");
    snprintf(a.ev[0].cls, sizeof a.ev[0].cls, "lock");
    a.ev[0].us = 100, a.nev = 1;
    b.ev[0] = a.ev[0];
    b.ev[0].us = 310, b.nev = 1;
    struct sbuf s = {0};
    page_why_compare(&a, &b, &s);
    assert_non_null(s.s);
    /* the category that grew most comes first, with both figures */
    assert_int_equal(strncmp(s.s, "per transaction, lock waits grew 3.1x (120 -> 372 us)", 53), 0);
    assert_non_null(
        strstr(s.s, "the wait that grew most: LWLock:WALInsert grew 3.1x (100 -> 310 us)"));
    assert_non_null(strstr(s.s, "server kernel CPU stayed within 5% (100 -> 101 us)"));
    assert_non_null(strstr(s.s, "I/O waits fell 60% (50.0 -> 20.0 us)"));
    assert_non_null(strstr(s.s, "server user CPU stayed within 5% (200 -> 205 us)"));
    /* every clause carries " us)" */
    size_t clauses = 1, us = 0;
    for (const char *p = s.s; (p = strstr(p, "; ")); p += 2)
        clauses++;
    for (const char *p = s.s; (p = strstr(p, " us)")); p += 4)
        us++;
    assert_int_equal(clauses, us);
    sbuf_free(&s);
    /* nothing collected: nothing said */
    struct whypoint none;
    memset(&none, 0, sizeof none);
    for (int c = 0; c < WP_N; c++)
        none.cat[c] = NAN;
    struct sbuf e = {0};
    page_why_compare(&none, &none, &e);
    assert_int_equal(e.len, 0);
    sbuf_free(&e);
}

/* What was not measured stays "not measured" (NAN), never 0: a repeat
 * whose level completed nothing or locked up (disturbed) is left out, an
 * empty cell is NAN, and a wait's class is its event's, whatever the file
 * says (MariaDB's time in the engine's row calls counts in no category). */
static void test_not_measured(void **st)
{
    (void)st;
    struct whycsv w = {0};
    for (int r = 1; r <= 3; r++) {
        add_cpu(&w, 4, r, 0, 100, 20);
        /* repeat 3 locked up: its lock waits were 372 us a transaction */
        add_wait(&w, 4, r, "Lock:transactionid", "other", r == 3 ? 0 : 372);
        add_wait(&w, 4, r, "wait/io/table/sql/handler", "table", 500);
        struct why_sched s = {.k = {.cpus = 2, .threads = 4, .repeat = r},
                              .user_us_txn = 70,
                              .system_us_txn = 30,
                              .voluntary_txn = 16,
                              .migrations_txn = NAN}; /* no SCHED_DEBUG */
        snprintf(s.k.variant, sizeof s.k.variant, "smp-k2");
        whycsv_add_sched(&w, &s);
    }
    struct result_row rows[3];
    memset(rows, 0, sizeof rows);
    for (int r = 0; r < 3; r++) {
        snprintf(rows[r].variant, sizeof rows[r].variant, "smp-k2");
        rows[r].cpus = 2, rows[r].threads = 4, rows[r].repeat = r + 1, rows[r].tps = 1000;
    }
    rows[2].disturbed = 1; /* the level that locked up */
    struct result_set rs = {.rows = rows, .n = 3};
    struct whypoint *p;
    size_t n = whypoint_build(&w, &rs, &p);
    assert_int_equal(n, 1);
    assert_int_equal(p[0].repeats, 2);
    assert_true(p[0].cat[WP_LOCK] == 372); /* not the locked-up repeat's 0 */
    assert_true(p[0].cat[WP_OTHER] == 0);  /* the file said "other": the table says lock */
    assert_true(p[0].cat[WP_IO] == 0);     /* engine time is no I/O wait */
    assert_true(isnan(p[0].migrations_txn));
    assert_true(p[0].voluntary_txn == 16);
    free(p);
    /* every repeat disturbed or empty: no point at all */
    rows[0].tps = 0, rows[1].disturbed = 1;
    assert_int_equal(whypoint_build(&w, &rs, &p), 0);
    free(p);
    /* a figure measured on one side only says nothing */
    struct whypoint a = pt(200, 100, 372, 0), b = pt(200, 100, NAN, 0);
    struct sbuf s = {0};
    page_why_compare(&a, &b, &s);
    assert_null(s.s ? strstr(s.s, "lock waits") : NULL);
    sbuf_free(&s);
    whycsv_free(&w);
}

static void test_baseline_map(void **st)
{
    (void)st;
    struct whypoint a = pt(200, 100, 120, 50), b = pt(210, 101, 372, 20);
    char out[32][32], kfn[2][128];
    int n = evidence_kernel_tests(&a, &b, kfn, 0, out, 32);
    assert_true(n >= 2);
    assert_string_equal(out[0], "futex1");
    snprintf(kfn[0], sizeof kfn[0], "path_openat");
    snprintf(kfn[1], sizeof kfn[1], "futex_wake");
    struct whypoint c = pt(200, 100, 120, 50);
    n = evidence_kernel_tests(&a, &c, kfn, 2, out, 32);
    int open1 = 0, futex = 0;
    for (int i = 0; i < n; i++)
        open1 |= !strcmp(out[i], "open1"), futex |= !strcmp(out[i], "futex2");
    assert_true(open1 && futex);
    for (int i = 0; i < n; i++) /* no test twice */
        for (int j = i + 1; j < n; j++)
            assert_string_not_equal(out[i], out[j]);
}

static void test_folded_and_flame(void **st)
{
    (void)st;
    struct folded f = {0};
    folded_add_text(&f, "postgres;main;ExecScan 30\n"
                        "postgres;main;ExecScan;heap_getnext 10\n"
                        "postgres;main;send;do_syscall_64_[k] 60\n"
                        "not a stack line\n"
                        "postgres;<script>x 5\n");
    folded_sort(&f);
    assert_true(f.total == 105);
    assert_string_equal(f.fn[0].name, "do_syscall_64");
    assert_int_equal(f.fn[0].kernel, 1);
    assert_true(folded_self(&f, "ExecScan", 0) == 30);
    assert_true(folded_self(&f, "ExecScan", 1) == 0);
    struct sbuf b = {0};
    size_t boxes = page_flame(&b, "t <b>", f.text.s, 0.01);
    /* all, postgres, main, ExecScan, heap_getnext, send, do_syscall_64, <script>x */
    assert_int_equal(boxes, 8);
    assert_null(strstr(b.s, "<script"));
    assert_null(strstr(b.s, "<b>"));
    assert_non_null(strstr(b.s, "&lt;script&gt;x (5 samples"));
    sbuf_free(&b);
    struct sbuf c = {0};
    /* under 20%: left out (heap_getnext, <script>x) */
    assert_int_equal(page_flame(&c, "t", f.text.s, 0.2), 6);
    sbuf_free(&c);
    struct sbuf e = {0};
    assert_int_equal(page_flame(&e, "empty", "", 0.01), 0);
    assert_non_null(strstr(e.s, "no samples"));
    sbuf_free(&e);
    folded_free(&f);
}

/* A stack of two million frames (19 MB of text, as a runaway recursion in
 * a profiled server leaves) is read and drawn, not a crash: the folded
 * reader and the flame graph's tree stay bounded by the drawn depth. */
static void test_deep_stack(void **st)
{
    (void)st;
    size_t frames = 2000000;
    struct sbuf line = {0};
    sbuf_printf(&line, "postgres");
    for (size_t i = 0; i < frames; i++)
        sbuf_printf(&line, ";f%zu", i % 1000);
    sbuf_printf(&line, " 5\npostgres;a;b 3\n");
    struct folded f = {0};
    folded_add_text(&f, line.s);
    folded_sort(&f);
    assert_true(f.total == 8);
    struct sbuf b = {0};
    size_t boxes = page_flame(&b, "deep", f.text.s, 0.0001);
    /* all, postgres, a, b, and the deep stack's frames down to the drawn depth */
    assert_true(boxes > 4 && boxes < 200);
    assert_non_null(strstr(b.s, "f0 (5 samples"));
    sbuf_free(&b);
    sbuf_free(&line);
    folded_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points),       cmocka_unit_test(test_sentence),
        cmocka_unit_test(test_baseline_map), cmocka_unit_test(test_folded_and_flame),
        cmocka_unit_test(test_deep_stack),   cmocka_unit_test(test_not_measured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
