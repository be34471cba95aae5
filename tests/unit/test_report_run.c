/*
 * test_report_run.c - the run report, read the way sysbench users' scripts
 * read sysbench's: `grep percentile | awk '{print $3}'` gives one value, the
 * fourth line after "Latency (ms):" is the percentile, the last line before
 * the closing blank line is the fairness line, and from "SQL statistics:" on
 * the labels, their order, the value columns and the blank lines are
 * sysbench 1.0.20's exactly (taken from a real sysbench 1.0.20 report).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static struct level_result res;
static char *out;

static int setup(void **state)
{
    (void)state;
    memset(&res, 0, sizeof res);
    res.lat = calloc(1, sizeof *res.lat);
    hist_init(res.lat);
    for (uint64_t i = 1; i <= 1000; i++)
        hist_record(res.lat, i * 10000); /* 0.01 .. 10 ms */
    res.threads = 2;
    res.loops = 2;
    res.time_s = 2.0038;
    res.txns = 1000;
    res.reads = 14000;
    res.others = 2000;
    res.errors = 5;
    res.ncodes = 1;
    snprintf(res.codes[0].code, sizeof res.codes[0].code, "40P01");
    res.codes[0].n = 5;
    res.client_user_s = 0.5;
    res.fair_events_avg = 500;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(res.lat);
    free(out);
    out = NULL;
    return 0;
}

static const char *text(const double *pcts, int npcts)
{
    size_t len;
    free(out);
    FILE *f = open_memstream(&out, &len);
    struct report_run_info ri = {.pcts = pcts, .npcts = npcts};
    report_text(f, &res, &ri);
    fclose(f);
    return out;
}

/* Lines of s that contain needle; the last one copied to line. */
static int grep(const char *s, const char *needle, char *line, size_t len)
{
    int n = 0;
    for (const char *p = s; *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(l < 511 ? l : 511), p);
        if (strstr(buf, needle)) {
            n++;
            if (line)
                snprintf(line, len, "%s", buf);
        }
        p += l + (e ? 1 : 0);
    }
    return n;
}

/* The k-th line after the first one containing needle. */
static void after(const char *s, const char *needle, int k, char *line, size_t len)
{
    const char *p = strstr(s, needle);
    assert_non_null(p);
    for (int i = 0; i < k; i++) {
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    const char *e = strchr(p, '\n');
    snprintf(line, len, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
}

static void test_one_percentile_line(void **state)
{
    (void)state;
    double p95 = 95;
    char line[512], want[32];
    assert_int_equal(grep(text(&p95, 1), "percentile", line, sizeof line), 1);
    /* awk '{print $3}' */
    char a[64], b[64], c[64];
    assert_int_equal(sscanf(line, "%63s %63s %63s", a, b, c), 3);
    snprintf(want, sizeof want, "%.2f", (double)hist_percentile(res.lat, 95) / 1e6);
    assert_string_equal(c, want);
    assert_string_equal(a, "95th");
}

static void test_fourth_line_after_latency_is_the_percentile(void **state)
{
    (void)state;
    double p99 = 99;
    char line[512];
    after(text(&p99, 1), "Latency (ms):", 4, line, sizeof line);
    assert_non_null(strstr(line, "99th percentile:"));
}

static void test_last_line_is_fairness(void **state)
{
    (void)state;
    double p95 = 95;
    const char *s = text(&p95, 1);
    size_t l = strlen(s);
    assert_true(l > 2);
    assert_string_equal(s + l - 2, "\n\n"); /* sysbench closes with a blank line */
    const char *last = s + l - 2;
    while (last > s && last[-1] != '\n')
        last--;
    assert_memory_equal(last, "    execution time (avg/stddev):", 32);
}

/* sysbench 1.0.20's report from "SQL statistics:" on, numbers replaced by N
 * with the column where each one ends kept (a real report, see above). */
static const char *sysbench_tail[] = {
    "SQL statistics:",
    "    queries performed:",
    "        read:                            N",
    "        write:                           N",
    "        other:                           N",
    "        total:                           N",
    "    transactions:                        N   (N per sec.)",
    "    queries:                             N  (N per sec.)",
    "    ignored errors:                      N      (N per sec.)",
    "    reconnects:                          N      (N per sec.)",
    "",
    "General statistics:",
    "    total time:                          Ns",
    "    total number of events:              N",
    "",
    "Latency (ms):",
    "         min:                                    N",
    "         avg:                                    N",
    "         max:                                    N",
    "         95th percentile:                        N",
    "         sum:                                    N",
    "",
    "Threads fairness:",
    "    events (avg/stddev):           N/N",
    "    execution time (avg/stddev):   N/N",
    "",
};

/* Numbers (with their right-aligned padding) become a bare N; the position
 * where the number ended is what %10.2f columns keep, so right-aligned
 * fields are compared by the line's length instead. */
static void skeleton(const char *in, char *outl, size_t len)
{
    size_t o = 0;
    for (const char *p = in; *p && o + 2 < len;) {
        if ((*p >= '0' && *p <= '9') && !(p > in && (p[-1] >= 'a' && p[-1] <= 'z'))) {
            while ((*p >= '0' && *p <= '9') || *p == '.')
                p++;
            outl[o++] = 'N';
        } else {
            outl[o++] = *p++;
        }
    }
    outl[o] = '\0';
}

static void test_sysbench_sections_exactly(void **state)
{
    (void)state;
    double p95 = 95;
    const char *s = strstr(text(&p95, 1), "SQL statistics:");
    assert_non_null(s);
    size_t n = sizeof sysbench_tail / sizeof sysbench_tail[0];
    const char *p = s;
    for (size_t i = 0; i < n; i++) {
        const char *e = strchr(p, '\n');
        assert_non_null(e);
        char line[512], sk[512], want[512];
        snprintf(line, sizeof line, "%.*s", (int)(e - p), p);
        skeleton(line, sk, sizeof sk);
        skeleton(sysbench_tail[i], want, sizeof want);
        /* Latency lines: %10.2f right-aligned at column 53 */
        if (strstr(sysbench_tail[i], "         ") == sysbench_tail[i]) {
            assert_int_equal(strlen(line), 53);
            char *a = strrchr(sk, ' '), *b = strrchr(want, ' ');
            *a = *b = '\0';
            while (a > sk && a[-1] == ' ')
                *--a = '\0';
            while (b > want && b[-1] == ' ')
                *--b = '\0';
        } else if (strstr(want, "N   (N") || strstr(want, "N  (N") || strstr(want, "N      (N")) {
            /* %-6llu: the "(" stays at column 49 for counts up to 6 digits */
            assert_true(strlen(line) > 48);
            assert_int_equal(line[48], '(');
            sk[strcspn(sk, "(")] = '\0';
            want[strcspn(want, "(")] = '\0';
            for (char *q = sk + strlen(sk); q > sk && q[-1] == ' ';)
                *--q = '\0';
            for (char *q = want + strlen(want); q > want && q[-1] == ' ';)
                *--q = '\0';
        }
        assert_string_equal(sk, want);
        p = e + 1;
    }
    assert_int_equal(*p, '\0');
}

static void test_percentile_zero_is_disabled(void **state)
{
    (void)state;
    char line[512];
    const char *s = text(NULL, 0);
    assert_int_equal(grep(s, "percentile", line, sizeof line), 1);
    assert_string_equal(line, "         percentile stats:               disabled");
}

static void test_extras_before_sysbench_sections(void **state)
{
    (void)state;
    double p[2] = {95, 99.9};
    const char *s = text(p, 2);
    const char *sql = strstr(s, "SQL statistics:");
    const char *cpu = strstr(s, "client CPU");
    const char *codes = strstr(s, "40P01");
    assert_non_null(cpu);
    assert_non_null(codes);
    assert_true(cpu < sql);
    assert_true(codes < sql);
    /* words sysbench users grep for appear only in sysbench's own lines */
    assert_int_equal(grep(s, "percentile", NULL, 0), 1);
    assert_int_equal(grep(s, "transactions", NULL, 0), 1);
    assert_int_equal(grep(s, "error", NULL, 0), 1);
    assert_int_equal(grep(s, "event", NULL, 0), 2);
    assert_int_equal(grep(s, "time", NULL, 0), 2);
    assert_int_equal(grep(s, "Latency", NULL, 0), 1);
    assert_int_equal(grep(s, "avg", NULL, 0), 3);
    assert_int_equal(grep(s, "per sec", NULL, 0), 4);
    /* the extra percentiles are there, 99.9 included */
    assert_non_null(strstr(s, "99.9"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_one_percentile_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fourth_line_after_latency_is_the_percentile, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_last_line_is_fairness, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sysbench_sections_exactly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_percentile_zero_is_disabled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_extras_before_sysbench_sections, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
