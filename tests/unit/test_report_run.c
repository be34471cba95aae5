/*
 * test_report_run.c - the run report, read the way sysbench users' scripts
 * read sysbench's: `grep percentile | awk '{print $3}'` gives one value, the
 * fourth line after "Latency (ms):" is the percentile, and from "SQL
 * statistics:" to the fairness line and its blank line the labels, their
 * order, the value columns and the blank lines are sysbench 1.0.20's exactly
 * (taken from a real sysbench 1.0.20 report); dbscale's figures come after.
 * Then the machine forms: JSON names the run and has error codes as an
 * object, CSV a column per percentile; --histogram's layout; the interval
 * figures as JSON lines / CSV rows and sysbench's --rate queue line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_run.h"

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

/* sysbench's report comes first, line for line, closed by its fairness
 * line and blank line; dbscale's figures come after it (issue 29: parsers
 * that count lines from the top read sysbench's lines). */
static void test_sysbench_report_first(void **state)
{
    (void)state;
    double p95 = 95;
    const char *s = text(&p95, 1);
    size_t l = strlen(s);
    assert_memory_equal(s, "SQL statistics:\n", 16);
    assert_true(l > 2);
    assert_string_equal(s + l - 2, "\n\n"); /* closed with a blank line, as sysbench's */
    const char *fig = strstr(s, "\ndbscale figures:\n");
    assert_non_null(fig);
    /* fig is the blank line; before it, sysbench's last line */
    const char *last = fig - 1;
    assert_int_equal(*last, '\n');
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
    assert_memory_equal(p, "dbscale figures:\n", 17);
}

static void test_percentile_zero_is_disabled(void **state)
{
    (void)state;
    char line[512];
    const char *s = text(NULL, 0);
    assert_int_equal(grep(s, "percentile", line, sizeof line), 1);
    assert_string_equal(line, "         percentile stats:               disabled");
}

static void test_extras_after_sysbench_sections(void **state)
{
    (void)state;
    double p[2] = {95, 99.9};
    const char *s = text(p, 2);
    const char *sql = strstr(s, "SQL statistics:");
    const char *cpu = strstr(s, "client CPU");
    const char *codes = strstr(s, "40P01");
    assert_non_null(cpu);
    assert_non_null(codes);
    assert_true(cpu > sql);
    assert_true(codes > sql);
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

static const char *render(int what, const struct report_run_info *ri)
{
    size_t len;
    free(out);
    FILE *f = open_memstream(&out, &len);
    if (what == 0)
        report_json(f, &res, ri);
    else if (what == 1)
        report_csv(f, &res, ri, 1);
    else
        report_text(f, &res, ri);
    fclose(f);
    return out;
}

static void test_json_identity_and_codes_object(void **state)
{
    (void)state;
    double p[2] = {95, 99.9};
    struct report_run_info ri = {.workload = "oltp_read_only",
                                 .engine = "pgsql",
                                 .server_version = "15.18",
                                 .options_json = "{\"threads\": \"2\"}",
                                 .pcts = p,
                                 .npcts = 2};
    res.ncodes = 2;
    snprintf(res.codes[1].code, sizeof res.codes[1].code, "1213");
    res.codes[1].n = 2;
    const char *s = render(0, &ri);
    assert_non_null(strstr(s, "\"error_codes\": {\"40P01\": 5, \"1213\": 2}"));
    assert_non_null(strstr(s, "\"workload\": \"oltp_read_only\""));
    assert_non_null(strstr(s, "\"engine\": \"pgsql\""));
    assert_non_null(strstr(s, "\"server_version\": \"15.18\""));
    assert_non_null(strstr(s, "\"dbscale_version\": \"" DBSCALE_VERSION "\""));
    assert_non_null(strstr(s, "\"options\": {\"threads\": \"2\"}"));
    assert_non_null(strstr(s, "\"p99.9\": "));
    /* each percentile once (95 is both a default and asked for) */
    const char *a = strstr(s, "\"p95\"");
    assert_non_null(a);
    assert_null(strstr(a + 1, "\"p95\""));
    ri.server_version = NULL;
    assert_non_null(strstr(render(0, &ri), "\"server_version\": null"));
}

static void test_json_histogram(void **state)
{
    (void)state;
    double p95 = 95;
    struct report_run_info ri = {.pcts = &p95, .npcts = 1};
    assert_null(strstr(render(0, &ri), "latency_histogram"));
    ri.histogram = 1;
    const char *s = render(0, &ri);
    const char *h = strstr(s, "\"latency_histogram\": [[0.0100, 1], [0.0200, 1], ");
    assert_non_null(h);
    /* every sample once: the counts add up to the histogram's count */
    unsigned long long sum = 0, c;
    double v;
    for (const char *p = strstr(h, "[[") + 1; p && *p == '[';) {
        assert_int_equal(sscanf(p, "[%lf, %llu]", &v, &c), 2);
        sum += c;
        p = strchr(p, ']') + 1;
        if (strncmp(p, ", [", 3))
            break;
        p += 2;
    }
    assert_int_equal(sum, 1000);
}

static int fields(const char *line, size_t len)
{
    int n = 1, q = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '"')
            q = !q;
        else if (line[i] == ',' && !q)
            n++;
    }
    return n;
}

static void test_csv_a_column_per_percentile(void **state)
{
    (void)state;
    double p[3] = {95, 99.9, 75};
    struct report_run_info ri = {.workload = "oltp_read_only",
                                 .engine = "mysql",
                                 .options_json = "{\"threads\": \"2\", \"tables\": \"1\"}",
                                 .pcts = p,
                                 .npcts = 3};
    const char *s = render(1, &ri);
    const char *nl = strchr(s, '\n');
    assert_non_null(nl);
    char header[1024];
    snprintf(header, sizeof header, "%.*s", (int)(nl - s), s);
    assert_non_null(strstr(header, ",lat_p99.9_ms,lat_p75_ms,"));
    /* the old columns keep their places */
    assert_memory_equal(header, "threads,time_s,transactions,tps,queries,qps,", 44);
    const char *row = nl + 1, *end = strchr(row, '\n');
    assert_non_null(end);
    assert_int_equal(fields(s, (size_t)(nl - s)), fields(row, (size_t)(end - row)));
    assert_non_null(strstr(row, ",\"{\"\"threads\"\": \"\"2\"\", \"\"tables\"\": \"\"1\"\"}\""));
}

static void test_histogram_layout(void **state)
{
    (void)state;
    double p95 = 95;
    for (int i = 0; i < 40; i++)
        hist_record(res.lat, 20000000); /* the fullest bucket: 40 of 1040 */
    struct report_run_info ri = {.pcts = &p95, .npcts = 1, .histogram = 1};
    const char *s = render(2, &ri);
    const char *h = strstr(s, "Latency histogram (values are in milliseconds)\n"
                              "       value  ------------- distribution ------------- count\n");
    assert_non_null(h);
    const char *sql = strstr(s, "SQL statistics:");
    assert_true(h < sql);
    assert_memory_equal(sql - 3, "\n \n", 3); /* sysbench's " " line */
    const char *row = strchr(strchr(h, '\n') + 1, '\n') + 1;
    double v;
    char bar[64];
    unsigned long long n;
    assert_int_equal(sscanf(row, "%12lf |%63s %llu", &v, bar, &n), 3);
    assert_int_equal(row[12], ' ');
    assert_int_equal(row[13], '|');
    /* the fullest row has 40 stars */
    const char *full = strstr(h, "|****************************************");
    assert_non_null(full);
    assert_true(full < sql);
    assert_non_null(strstr(full, " 40\n"));
    ri.histogram = 0;
    assert_null(strstr(render(2, &ri), "Latency histogram"));
}

static const char *interval(struct report_interval_sink *k, const struct interval_stats *st,
                            int twice)
{
    size_t len;
    free(out);
    FILE *f = open_memstream(&out, &len);
    k->machine = f;
    report_interval(st, k);
    if (twice)
        report_interval(st, k);
    fclose(f);
    return out;
}

static void test_interval_machine_and_queue(void **state)
{
    (void)state;
    struct interval_stats st = {.t = 2,
                                .dt = 1,
                                .threads = 4,
                                .tps = 100,
                                .reads = 1400,
                                .others = 200,
                                .pct = 95,
                                .lat_ms = 3.5};
    struct report_interval_sink k = {0};
    const char *s = interval(&k, &st, 0);
    assert_string_equal(s, "{\"t_s\": 2, \"dt_s\": 1.0000, \"threads\": 4, \"tps\": 100.0000, "
                           "\"qps\": 1600.0000, \"reads_ps\": 1400.0000, \"writes_ps\": 0.0000, "
                           "\"others_ps\": 200.0000, \"lat_pct\": 95, \"lat_ms\": 3.5000, "
                           "\"errors_ps\": 0.0000, \"reconnects_ps\": 0.0000}\n");
    struct report_interval_sink c = {.csv = 1};
    s = interval(&c, &st, 1);
    const char *l2 = strchr(s, '\n') + 1;
    assert_memory_equal(s, "t_s,dt_s,threads,tps,", 21);
    assert_string_equal(strchr(l2, '\n') + 1, l2 + (strchr(l2, '\n') - l2) + 1);
    assert_int_equal(fields(s, (size_t)(strchr(s, '\n') - s)), fields(l2, strlen(l2) / 2));
    assert_int_equal(c.rows, 2);

    /* sysbench's text: the queue line only with --rate and a counted queue */
    size_t len;
    free(out);
    FILE *f = open_memstream(&out, &len);
    struct report_interval_sink t = {.text = f, .rate = 50};
    report_interval(&st, &t);
    st.queue_known = 1;
    st.queue_length = 3;
    st.concurrency = 4;
    report_interval(&st, &t);
    t.pct_off = 1;
    t.rate = 0;
    report_interval(&st, &t);
    fclose(f);
    assert_string_equal(out, "[ 2s ] thds: 4 tps: 100.00 qps: 1600.00 (r/w/o: 1400.00/0.00/200.00) "
                             "lat (ms,95%): 3.50 err/s: 0.00 reconn/s: 0.00\n"
                             "[ 2s ] thds: 4 tps: 100.00 qps: 1600.00 (r/w/o: 1400.00/0.00/200.00) "
                             "lat (ms,95%): 3.50 err/s: 0.00 reconn/s: 0.00\n"
                             "[ 2s ] queue length: 3, concurrency: 4\n"
                             "[ 2s ] thds: 4 tps: 100.00 qps: 1600.00 (r/w/o: 1400.00/0.00/200.00) "
                             "lat (ms,0%): 0.00 err/s: 0.00 reconn/s: 0.00\n");
}

static void test_header_as_sysbench(void **state)
{
    (void)state;
    struct report_run_info ri = {.threads = 2, .rate = 50, .report_interval = 1, .rand_seed = 42};
    size_t len;
    free(out);
    FILE *f = open_memstream(&out, &len);
    report_run_header(f, &ri);
    fclose(f);
    const char *s = strchr(out, '\n') + 1; /* the first line names the program */
    assert_string_equal(s, "\nRunning the test with following options:\n"
                           "Number of threads: 2\n"
                           "Target transaction rate: 50/sec\n"
                           "Report intermediate results every 1 second(s)\n"
                           "Initializing random number generator from seed (42).\n"
                           "\n\nInitializing worker threads...\n\n");
}

/* --report-checkpoints and --forced-shutdown in the header, as sysbench
 * 1.0.20 prints them (the forced line takes one of the two blank lines) */
static void test_header_checkpoints_forced(void **state)
{
    (void)state;
    const double ck[] = {1, 2.5};
    struct report_run_info ri = {
        .threads = 1, .checkpoints = ck, .ncheckpoints = 2, .forced_in_s = 11};
    size_t len;
    free(out);
    FILE *f = open_memstream(&out, &len);
    report_run_header(f, &ri);
    fclose(f);
    const char *s = strchr(out, '\n') + 1;
    assert_string_equal(s, "\nRunning the test with following options:\n"
                           "Number of threads: 1\n"
                           "Report checkpoint(s) at 1, 2.5 seconds\n"
                           "Initializing random number generator from current time\n"
                           "\nForcing shutdown in 11 seconds\n"
                           "\nInitializing worker threads...\n\n");
}

/* A forced shutdown's count sits between SQL statistics and General
 * statistics, a blank line either side; a checkpoint's total time runs from
 * the start while its rates are over its own period. */
static void test_forced_count_and_checkpoint_time(void **state)
{
    (void)state;
    const double p95 = 95;
    res.unfinished = 3;
    struct report_run_info ri = {.pcts = &p95, .npcts = 1, .forced = 1};
    size_t len;
    free(out);
    FILE *f = open_memstream(&out, &len);
    report_text(f, &res, &ri);
    fclose(f);
    assert_non_null(strstr(out, "(0.00 per sec.)\n\nNumber of unfinished transactions on forced "
                                "shutdown: 3\n\nGeneral statistics:\n"));
    ri.forced = 0; /* unset: only dbscale's own line */
    free(out);
    f = open_memstream(&out, &len);
    report_text(f, &res, &ri);
    fclose(f);
    assert_null(strstr(out, "forced shutdown"));
    res.time_s = 1.0;
    res.total_time_s = 3.0;
    free(out);
    f = open_memstream(&out, &len);
    report_checkpoint(f, 3, &res, &ri);
    fclose(f);
    assert_true(strncmp(out, "[ 3s ] Checkpoint report:\nSQL statistics:\n", 41) == 0);
    assert_non_null(strstr(out, "    total time:                          3.0000s\n"));
    assert_non_null(strstr(out, "(1000.00 per sec.)")); /* 1000 txns over 1 s */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_one_percentile_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fourth_line_after_latency_is_the_percentile, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_sysbench_report_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sysbench_sections_exactly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_percentile_zero_is_disabled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_extras_after_sysbench_sections, setup, teardown),
        cmocka_unit_test_setup_teardown(test_json_identity_and_codes_object, setup, teardown),
        cmocka_unit_test_setup_teardown(test_json_histogram, setup, teardown),
        cmocka_unit_test_setup_teardown(test_csv_a_column_per_percentile, setup, teardown),
        cmocka_unit_test_setup_teardown(test_histogram_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interval_machine_and_queue, setup, teardown),
        cmocka_unit_test_setup_teardown(test_header_as_sysbench, setup, teardown),
        cmocka_unit_test_setup_teardown(test_header_checkpoints_forced, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forced_count_and_checkpoint_time, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
