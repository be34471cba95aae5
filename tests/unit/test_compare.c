/*
 * test_compare.c - the will-it-scale reference table as a test vector: its
 * raw columns go through compare, and every FvD/FvN/DvN cell must come out
 * exactly as published (all 210 rows). Also: matching of results sets by
 * key, Welch marks on repeats, and the three renderers.
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

#include "analysis/compare.h"
#include "results/results.h"

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

static size_t col(const struct compare_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (!strcmp(t->head[c], name))
            return c;
    fail_msg("no column %s", name);
    return 0;
}

static void test_reference_tsv(void **state)
{
    (void)state;
    const char *path = data_path("will-it-scale-bsd-2020.tsv");
    struct compare_sets ss = {0};
    char err[512];
    assert_int_equal(compare_load(&ss, path, err, sizeof err), 0);
    assert_int_equal(ss.n, 3); /* FvD, FvN, DvN are recognised as relative, not sets */
    assert_string_equal(ss.s[0].name, "FreeBSD");
    assert_string_equal(ss.s[1].name, "DragonFlyBSD");
    assert_string_equal(ss.s[2].name, "NetBSD");
    struct compare_table t;
    compare_build(&ss, COMPARE_MICRO, &t);
    size_t ct = col(&t, "test"), cm = col(&t, "mode"), cn = col(&t, "tasks");
    size_t rel[3] = {col(&t, "FvD"), col(&t, "FvN"), col(&t, "DvN")};

    /* Read the expected cells straight from the file. */
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0, row = 0, checked = 0;
    int header = 0;
    while (getline(&line, &cap, f) >= 0) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        char *fld[9], *save = NULL;
        int n = 0;
        for (char *p = strtok_r(line, "\t", &save); p && n < 9; p = strtok_r(NULL, "\t", &save))
            fld[n++] = p;
        assert_int_equal(n, 9);
        if (!header) {
            header = 1;
            continue;
        }
        assert_true(row < t.nrows);
        char **cells = t.cell + row * t.ncols;
        assert_string_equal(cells[ct], fld[0]);
        assert_string_equal(cells[cm], fld[1]);
        assert_int_equal(atoi(cells[cn]), atoi(fld[2]));
        for (int k = 0; k < 3; k++) {
            if (strcmp(cells[rel[k]], fld[6 + k]))
                fail_msg("row %zu (%s %s %s) %s: got %s, reference %s", row + 1, fld[0], fld[1],
                         fld[2], t.head[rel[k]], cells[rel[k]], fld[6 + k]);
            checked++;
        }
        row++;
    }
    free(line);
    fclose(f);
    assert_int_equal(row, 210);
    assert_int_equal(t.nrows, 210);
    assert_int_equal(checked, 630);
    compare_table_free(&t);
    compare_sets_free(&ss);
}

static void row(struct result_row *r, const char *engine, const char *variant, int threads,
                int repeat, double tps)
{
    memset(r, 0, sizeof *r);
    snprintf(r->engine, sizeof r->engine, "%s", engine);
    snprintf(r->workload, sizeof r->workload, "oltp_read_only");
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    r->cpus = 2;
    r->threads = threads;
    r->repeat = repeat;
    r->tps = tps;
}

static void test_results_sets(void **state)
{
    (void)state;
    char a[] = "/tmp/dbscale-cmp-XXXXXX", b[] = "/tmp/dbscale-cmp-XXXXXX";
    assert_non_null(mkdtemp(a));
    assert_non_null(mkdtemp(b));
    struct result_row ra[12], rb[12];
    size_t na = 0, nb = 0;
    double noisy[3] = {0.97, 1.0, 1.03};
    for (int rep = 0; rep < 3; rep++) {
        /* threads 1: clearly different; threads 2: within noise; threads 4: only in a */
        row(&ra[na++], "pgsql", "smp", 1, rep, 1000 * noisy[rep]);
        row(&rb[nb++], "mysql", "smp", 1, rep, 500 * noisy[rep]);
        row(&ra[na++], "pgsql", "smp", 2, rep, 1900 * noisy[rep]);
        row(&rb[nb++], "mysql", "smp", 2, rep, 1890 * noisy[(rep + 1) % 3]);
        row(&ra[na++], "pgsql", "smp", 4, rep, 3000);
    }
    row(&rb[nb++], "mysql", "smp", 8, 0, 100.5); /* one sample: no mark */
    row(&ra[na++], "pgsql", "smp", 8, 0, 200);
    assert_int_equal(results_write_csv(a, ra, na), 0);
    assert_int_equal(results_write_csv(b, rb, nb), 0);

    struct compare_sets ss = {0};
    char err[512];
    assert_int_equal(compare_load(&ss, a, err, sizeof err), 0);
    assert_int_equal(compare_load(&ss, b, err, sizeof err), 0);
    compare_name_sets(&ss);
    struct compare_table t;
    compare_build(&ss, COMPARE_RESULTS, &t);
    /* engine is constant inside each set, so it is not part of the key:
     * pgsql and mysql points match by threads. */
    assert_int_equal(t.nrows, 4);
    assert_string_equal(t.head[0], "threads");
    /* both sets are named dbscale-cmp-...: one initial for two sets would
     * name the pair "dvd", so they are lettered A and B instead */
    assert_int_equal(ss.s[0].name[0], ss.s[1].name[0]);
    size_t r = col(&t, "AvB");
    assert_string_equal(t.cell[0 * t.ncols + r], "+100");
    assert_string_equal(t.cell[0 * t.ncols + r + 1], "*");
    assert_string_equal(t.cell[1 * t.ncols + r], "+0");
    assert_string_equal(t.cell[1 * t.ncols + r + 1], "~");
    assert_string_equal(t.cell[2 * t.ncols + r], "N/A");
    assert_string_equal(t.cell[3 * t.ncols + r], "+99"); /* floor(99.00497...) */
    assert_string_equal(t.cell[3 * t.ncols + r + 1], "no test (n=1)");
    assert_string_equal(t.cell[3 * t.ncols + 2], "100.5");

    struct sbuf txt = {0}, md = {0}, csv = {0};
    compare_render_text(&t, &txt);
    compare_render_md(&t, &md);
    compare_render_csv(&t, &csv);
    assert_non_null(strstr(txt.s, "+100*"));
    assert_non_null(strstr(txt.s, "no difference proven"));
    assert_non_null(strstr(md.s, "|---|"));
    assert_non_null(strstr(csv.s, "no difference proven"));
    assert_non_null(strstr(csv.s, ",significant,"));
    sbuf_free(&txt);
    sbuf_free(&md);
    sbuf_free(&csv);
    compare_table_free(&t);
    compare_sets_free(&ss);

    char p[600];
    snprintf(p, sizeof p, "%s/results.csv", a);
    unlink(p);
    snprintf(p, sizeof p, "%s/results.csv", b);
    unlink(p);
    rmdir(a);
    rmdir(b);
}

static void test_micro_csv(void **state)
{
    (void)state;
    char path[] = "/tmp/dbscale-micro-XXXXXX.csv";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    const char *text = "test,mode,tasks,cpus,ops_per_s,min,max,cv,samples,fs_type,error\n"
                       "getppid1,p,1,2,100,99,101,0.01,99;100;101,,\n"
                       "getppid1,p,2,2,190,188,192,0.01,188;190;192,,\n"
                       "open1,t,2,2,0,0,0,0,,tmpfs,\"EMFILE, too many\"\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct compare_sets ss = {0};
    char err[512];
    assert_int_equal(compare_load(&ss, path, err, sizeof err), 0);
    assert_int_equal(ss.n, 1);
    assert_int_equal(ss.s[0].kind, COMPARE_MICRO);
    assert_int_equal(ss.s[0].n, 2); /* the failed row is left out */
    assert_int_equal(ss.s[0].pts[1].n, 3);
    compare_sets_free(&ss);
    unlink(path);

    assert_int_equal(compare_load(&ss, "/nonexistent/x.tsv", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.tsv"));
    compare_sets_free(&ss);
}

/* ---- the unit of replication is the repeat ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static double unif(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
    return sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif());
}

/* A micro.csv of nkeys points, each run `repeats` times (one row a run, as
 * `dbscale micro --out` appends them), 5 samples a run. A run's level
 * wanders by `between` (the noise between independent runs); the samples of
 * one run only by 0.2% around it, so pooled samples look far surer than
 * they are. */
static void write_micro(const char *path, int nkeys, int repeats, double scale, double between)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "test,mode,tasks,cpus,ops_per_s,min,max,cv,samples,fs_type,error,variant\n");
    for (int k = 0; k < nkeys; k++)
        for (int r = 0; r < repeats; r++) {
            double level = 1e6 * scale * (1 + between * gauss()), s[5];
            for (int i = 0; i < 5; i++)
                s[i] = level * (1 + 0.002 * gauss());
            fprintf(f, "t%d,t,1,2,%.1f,%.1f,%.1f,0.1,%.1f;%.1f;%.1f;%.1f;%.1f,,,\n", k, level,
                    level, level, s[0], s[1], s[2], s[3], s[4]);
        }
    fclose(f);
}

/* Marks in the a-vs-b sig column of two micro.csv files. */
static size_t count_marks(const char *a, const char *b, const char *mark, size_t *rows)
{
    struct compare_sets ss = {0};
    char err[512];
    assert_int_equal(compare_load(&ss, a, err, sizeof err), 0);
    assert_int_equal(compare_load(&ss, b, err, sizeof err), 0);
    compare_name_sets(&ss);
    struct compare_table t;
    compare_build(&ss, COMPARE_MICRO, &t);
    size_t c = t.ncols, n = 0;
    for (size_t i = 0; i < t.ncols; i++)
        if (t.type[i] == CC_SIG)
            c = i;
    assert_true(c < t.ncols);
    for (size_t r = 0; r < t.nrows; r++)
        n += !strcmp(t.cell[r * t.ncols + c], mark);
    *rows = t.nrows;
    compare_table_free(&t);
    compare_sets_free(&ss);
    return n;
}

static void test_aa_noise_is_not_significant(void **state)
{
    (void)state;
    char a[] = "/tmp/dbscale-aa-XXXXXX.csv", b[] = "/tmp/dbscale-ab-XXXXXX.csv";
    close(mkstemps(a, 4));
    close(mkstemps(b, 4));
    /* 1000 A/A comparisons in one table: both sides from one distribution,
     * 5 repeats each. Marked one by one at 95%, about 50 rows would be; with
     * the table's marks held at a 5% false-discovery rate, a table of pure
     * noise is marked at all in at most 5% of such tables, so at most a
     * couple of marks here, usually none. */
    write_micro(a, 1000, 5, 1.0, 0.02);
    write_micro(b, 1000, 5, 1.0, 0.02);
    size_t rows, marked = count_marks(a, b, "*", &rows);
    assert_int_equal(rows, 1000);
    printf("A/A: %zu of 1000 marked at a 5%% false-discovery rate\n", marked);
    assert_in_range(marked, 0, 2);
    /* A true 10% difference with 5 repeats and 2% noise is found. */
    write_micro(a, 200, 5, 1.1, 0.02);
    write_micro(b, 200, 5, 1.0, 0.02);
    marked = count_marks(a, b, "*", &rows);
    printf("10%% apart: %zu of 200 found\n", marked);
    assert_in_range(marked, 196, 200);
    /* One run a side proves nothing, whatever its samples say. */
    write_micro(a, 10, 1, 1.1, 0.02);
    write_micro(b, 10, 1, 1.0, 0.02);
    assert_int_equal(count_marks(a, b, "no test (n=1)", &rows), 10);
    unlink(a);
    unlink(b);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* [12.20] a TSV of 100 sets, a raw column of negative values, and a
 * micro.csv header error that names a micro column, not "engine". */
static void test_load_edges(void **state)
{
    (void)state;
    char err[512];
    struct compare_sets ss = {0};
    char p[] = "/tmp/dbscale-wide-XXXXXX.tsv";
    close(mkstemps(p, 4));
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "test\tmode\ttasks");
    for (int i = 0; i < 100; i++)
        fprintf(f, "\ts%d", i);
    fprintf(f, "\nt1\tp\t1");
    for (int i = 0; i < 100; i++)
        fprintf(f, "\t%d", 100 + i);
    fprintf(f, "\n");
    fclose(f);
    assert_int_equal(compare_load(&ss, p, err, sizeof err), 0);
    assert_int_equal(ss.n, 100);
    compare_sets_free(&ss);

    write_file(p, "test\tmode\ttasks\tA\tB\tAvB\n"
                  "t1\tp\t1\t-5\t10\t-150\n"
                  "t2\tp\t1\t-7\t10\t-170\n");
    assert_int_equal(compare_load(&ss, p, err, sizeof err), 0);
    assert_int_equal(ss.n, 2); /* A is data, negative or not; AvB is relative */
    assert_string_equal(ss.s[0].name, "A");
    compare_sets_free(&ss);
    unlink(p);

    char m[] = "/tmp/dbscale-mhdr-XXXXXX/micro.csv";
    char *slash = strrchr(m, '/');
    *slash = '\0';
    assert_non_null(mkdtemp(m));
    *slash = '/';
    write_file(m, "mode,test,tasks,cpus,ops\np,getppid1,1,2,100\n");
    assert_int_equal(compare_load(&ss, m, err, sizeof err), -1);
    assert_null(strstr(err, "engine"));
    assert_non_null(strstr(err, "ops_per_s"));
    compare_sets_free(&ss);
    unlink(m);
    *slash = '\0';
    rmdir(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_tsv), cmocka_unit_test(test_results_sets),
        cmocka_unit_test(test_micro_csv),     cmocka_unit_test(test_aa_noise_is_not_significant),
        cmocka_unit_test(test_load_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
