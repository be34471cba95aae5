/*
 * test_page.c - the HTML page of `dbscale report`: data reaches it only as
 * escaped text (a variant or host holding <script>, quotes or & is shown, never
 * run), the headline's numbers are the fixture sweep's medians, every chart
 * draws its points and nothing but finite numbers, and the warnings name the
 * fixture's weak figures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "page/page.h"
#include "verbs/study_page.h"
#include "page/page_headline.h"
#include "page/page_html.h"
#include "page/page_svg.h"
#include "page/page_warn.h"
#include "analysis/curves.h"

/* The copy in tests/data, found from the repo root or from this file. */
static const char *data_path(const char *name)
{
    static char p[1024];
    snprintf(p, sizeof p, "tests/data/%s", name);
    if (access(p, R_OK) == 0)
        return p;
    snprintf(p, sizeof p, "%s", __FILE__);
    char *s = strrchr(p, '/');
    snprintf(s ? s + 1 : p, sizeof p - (size_t)(s ? s + 1 - p : 0), "../data/%s", name);
    return p;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *s = hay; (s = strstr(s, needle)); s += strlen(needle))
        n++;
    return n;
}

static void load(struct curves *p, const char *a, const char *b)
{
    char *paths[2] = {xstrdup(data_path(a)), b ? xstrdup(data_path(b)) : NULL};
    static struct curves_log log;
    memset(p, 0, sizeof *p);
    memset(&log, 0, sizeof log);
    p->log = &log;
    int rc = page_load(p, paths, b ? 2 : 1);
    if (rc < 0)
        fail_msg("%s", log.err);
    free(paths[0]);
    free(paths[1]);
}

static ssize_t curve(const struct curves *p, size_t dir, const char *variant)
{
    for (size_t i = 0; i < p->nc; i++)
        if (p->c[i].dir == (int)dir && !strcmp(p->c[i].variant, variant))
            return (ssize_t)i;
    fail_msg("no curve %s", variant);
    return -1;
}

static void test_escape(void **state)
{
    (void)state;
    struct sbuf b = {0};
    page_esc(&b, "<script>\"a\"&'b'\x01</script>");
    assert_string_equal(b.s, "&lt;script&gt;&quot;a&quot;&amp;&#39;b&#39; &lt;/script&gt;");
    sbuf_free(&b);
    page_escf(&b, "%s=%d", "<i>", 3);
    assert_string_equal(b.s, "&lt;i&gt;=3");
    sbuf_free(&b);
}

/* The fixture's medians (tests/data/pgsql-sweep/results.csv, 3 repeats):
 * smp 3834.48 @4, 3266.89 @8; up 2565.73 @4, 2426.61 @8. */
static void test_headline_numbers(void **state)
{
    (void)state;
    struct curves p;
    load(&p, "pgsql-sweep", NULL);
    char h[512];
    page_headline(&p, (size_t)curve(&p, 0, "smp"), h, sizeof h);
    assert_string_equal(h, "PostgreSQL 15.8 oltp_read_only smp on 1 -> 2 CPUs: 1.3x at 8 threads; "
                           "peak 3834 tps at 4 threads, -15% at 8");
    page_headline(&p, (size_t)curve(&p, 0, "up"), h, sizeof h);
    assert_string_equal(h, "PostgreSQL 15.8 oltp_read_only up on 1 CPU: peak 2566 tps at 4 "
                           "threads, -6% at 8");
    curves_free(&p);
}

/* Two directories: the second is set against the first, curve by curve. */
static void test_compare_sentence(void **state)
{
    (void)state;
    struct curves p;
    load(&p, "pgsql-sweep", "mysql-sweep");
    size_t my = (size_t)curve(&p, 1, "smp");
    assert_int_equal(curves_match(&p, my), curve(&p, 0, "smp"));
    assert_int_equal(curves_match(&p, (size_t)curve(&p, 0, "smp")), -1);
    char h[512];
    page_compare_sentence(&p, my, h, sizeof h);
    assert_non_null(strstr(h, "mysql-sweep against pgsql-sweep, smp on 2 CPUs: "));
    assert_non_null(strstr(h, "% at 8 threads"));
    page_headline(&p, my, h, sizeof h);
    assert_non_null(strstr(h, "MariaDB 10.11.6 oltp_read_only smp on 1 -> 2 CPUs"));
    curves_free(&p);
}

static void test_svg_points(void **state)
{
    (void)state;
    struct page_series s[2] = {0};
    for (size_t i = 0; i < 4; i++) {
        s[0].x[i] = s[1].x[i] = 1 << i;
        s[0].y[i] = 100.0 * (i + 1);
        s[1].y[i] = 0; /* an all-zero curve must not divide by zero */
        s[0].lo[i] = s[0].y[i] - 5, s[0].hi[i] = s[0].y[i] + 5;
    }
    s[0].k = s[1].k = 4;
    s[0].bars = 1;
    s[1].y[2] = NAN; /* no figure at 4 threads: left out */
    snprintf(s[0].label, sizeof s[0].label, "a<b>");
    struct page_chart c = {"TPS", "threads", "tps", 1, s, 2};
    struct sbuf b = {0};
    assert_int_equal(page_svg_chart(&b, &c), 7);
    assert_int_equal(count(b.s, "<circle class=\"pt\""), 7);
    assert_int_equal(count(b.s, "<svg"), 1);
    assert_null(strstr(b.s, "nan"));
    assert_null(strstr(b.s, "inf"));
    assert_null(strstr(b.s, "<b>"));
    assert_non_null(strstr(b.s, "a&lt;b&gt;"));
    sbuf_free(&b);
    /* Nothing at all to draw: still one well-formed, empty chart. */
    struct page_chart e = {"empty", "x", "y", 0, NULL, 0};
    assert_int_equal(page_svg_chart(&b, &e), 0);
    assert_non_null(strstr(b.s, "</svg>"));
    sbuf_free(&b);
}

static void test_warnings_fixture(void **state)
{
    (void)state;
    struct curves p;
    load(&p, "pgsql-sweep", NULL);
    struct sbuf w = {0};
    assert_true(page_warnings(&p, &w) >= 3);
    assert_non_null(strstr(w.s, "superlinear"));
    assert_non_null(strstr(w.s, "shared CPUs"));
    assert_non_null(strstr(w.s, "55% idle at 1 thread"));
    assert_null(strstr(w.s, "disturbed"));
    sbuf_free(&w);
    curves_free(&p);
}

static char tmp[] = "/tmp/dbscale-page-XXXXXX", tmp2[] = "/tmp/dbscale-page2-XXXXXX";

static void put(const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A variant, host, server setting and option that hold markup, quotes and &
 * appear on the page as text, never as markup; a disturbed level and a wide
 * spread are warned about. */
static void test_hostile_page(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(tmp));
    put("results.csv", "engine,workload,variant,cpus,threads,repeat,tps,lat_p95_ms,disturbed\n"
                       "pgsql,oltp_read_only,\"<script>x\"\"&'\",1,1,0,100,1,0\n"
                       "pgsql,oltp_read_only,\"<script>x\"\"&'\",1,1,1,160,1,0\n"
                       "pgsql,oltp_read_only,\"<script>x\"\"&'\",1,2,0,190,2,1\n");
    put("meta.json", "{\"hostname\": \"<img src=x onerror=alert(1)>\", \"kernel\": \"k&<\","
                     " \"server_settings\": {\"fsync\": \"</td><script>\"},"
                     " \"options\": {\"workload\": \"a'b\\\"c<d>\", \"pgsql-password\": "
                     "\"hunter2\"}}");
    char *paths[1] = {tmp};
    struct curves_log log = {0};
    struct curves p = {.log = &log};
    char err[1024];
    assert_int_equal(page_load(&p, paths, 1), 0);
    struct sbuf h = {0};
    page_render(&p, NULL, &h);
    assert_null(strstr(h.s, "<script"));
    assert_null(strstr(h.s, "<img"));
    assert_null(strstr(h.s, "</td><script"));
    assert_non_null(strstr(h.s, "&lt;script&gt;x&quot;&amp;&#39;"));
    assert_non_null(strstr(h.s, "&lt;img src=x onerror=alert(1)&gt;"));
    assert_non_null(strstr(h.s, "k&amp;&lt;"));
    assert_non_null(strstr(h.s, "disturbed"));
    assert_non_null(strstr(h.s, "wide spread"));
    /* The reproduce command quotes for the shell, then escapes for HTML. */
    assert_non_null(strstr(h.s, "dbscale sweep &#39;a&#39;\\&#39;&#39;b&quot;c&lt;d&gt;&#39;"));
    /* An old or hand-made meta.json with a password: never on the page. */
    assert_null(strstr(h.s, "hunter2"));
    assert_null(strstr(h.s, "pgsql-password"));
    sbuf_free(&h);
    char out[600];
    snprintf(out, sizeof out, "%s/page.html", tmp);
    assert_int_equal(page_write(&p, NULL, out, err, sizeof err), 0);
    assert_int_equal(access(out, R_OK), 0);
    curves_free(&p);
    unlink(out);
    char made[700];
    assert_int_equal(study_page_write_dir(tmp, made, sizeof made, err, sizeof err), 0);
    snprintf(out, sizeof out, "%s/report.html", tmp);
    assert_string_equal(made, out);
    assert_int_equal(access(out, R_OK), 0);
    unlink(out);
    snprintf(out, sizeof out, "%s/verdict.json", tmp); /* the verdict beside the page */
    assert_int_equal(access(out, R_OK), 0);
    unlink(out);
    char f[700];
    snprintf(f, sizeof f, "%s/results.csv", tmp);
    unlink(f);
    snprintf(f, sizeof f, "%s/meta.json", tmp);
    unlink(f);
    rmdir(tmp);
}

/* A real sweep records PostgreSQL's bare "15.18": the headline names the
 * server, and a one-repeat wide-spread-free curve says "1 thread". */
static void test_headline_bare_version(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(tmp2));
    char path[600];
    snprintf(path, sizeof path, "%s/results.csv", tmp2);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("engine,workload,variant,cpus,threads,repeat,tps\n"
          "pgsql,oltp_read_only,smp-k1,1,1,0,100\npgsql,oltp_read_only,smp-k1,1,1,1,150\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/meta.json", tmp2);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"server_version\": \"15.18\"}", f);
    fclose(f);
    char *paths[1] = {tmp2}, h[512];
    struct curves_log log = {0};
    struct curves p = {.log = &log};
    assert_int_equal(page_load(&p, paths, 1), 0);
    page_headline(&p, 0, h, sizeof h);
    assert_string_equal(h, "PostgreSQL 15.18 oltp_read_only smp-k1 on 1 CPU: peak 125 tps at 1 "
                           "thread (the most threads measured)");
    struct sbuf w = {0};
    page_warnings(&p, &w);
    assert_non_null(strstr(w.s, "wide spread over repeats at 1 thread (sd"));
    sbuf_free(&w);
    /* One CPU count: no chart against CPUs, and the page says why. */
    struct sbuf html = {0};
    page_render(&p, NULL, &html);
    assert_null(strstr(html.s, "Throughput against server CPUs"));
    assert_non_null(strstr(html.s, "no graph against CPUs"));
    assert_int_equal(count(html.s, "<svg"), 2);
    sbuf_free(&html);
    curves_free(&p);
    unlink(path);
    snprintf(path, sizeof path, "%s/results.csv", tmp2);
    unlink(path);
    rmdir(tmp2);
}

/* The fixture page: every graph an <svg> with points, no script, no URL. */
static void test_fixture_page(void **state)
{
    (void)state;
    struct curves p;
    load(&p, "pgsql-sweep", "mysql-sweep");
    struct sbuf h = {0};
    page_render(&p, NULL, &h);
    assert_true(count(h.s, "<svg") >= 4);
    assert_int_equal(count(h.s, "<svg"), count(h.s, "</svg>"));
    assert_true(count(h.s, "<circle class=\"pt\"") >= 16 * 3);
    assert_null(strstr(h.s, "<script"));
    assert_null(strstr(h.s, "http:"));
    assert_null(strstr(h.s, "https:"));
    assert_non_null(strstr(h.s, "peak 3834 tps at 4 threads"));
    assert_non_null(strstr(h.s, "kernel: getppid1"));
    assert_non_null(strstr(h.s, "PostgreSQL 15.8"));
    assert_non_null(strstr(h.s, "dbscale sweep"));
    /* The relative table marks significance as compare does: at 8 threads
     * MariaDB's smp is -36% and significant over 3 repeats (compare: +56*
     * the other way round). */
    assert_non_null(strstr(h.s, "<td class=\"neg\">-36%*</td>"));
    sbuf_free(&h);
    curves_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),           cmocka_unit_test(test_headline_numbers),
        cmocka_unit_test(test_compare_sentence), cmocka_unit_test(test_svg_points),
        cmocka_unit_test(test_warnings_fixture), cmocka_unit_test(test_hostile_page),
        cmocka_unit_test(test_fixture_page),     cmocka_unit_test(test_headline_bare_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
