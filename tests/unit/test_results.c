/*
 * test_results.c - results.csv round trip (every column survives write +
 * read), header-driven reading (reordered and unknown columns), and
 * malformed files: each gives an error naming the file and line, never a
 * crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/meta.h"
#include "results/results.h"
#include "core/util.h"

static char dir[] = "/tmp/dbscale-results-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char p[600];
    snprintf(p, sizeof p, "%s/results.csv", dir);
    unlink(p);
    return rmdir(dir);
}

static void write_text(const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s/results.csv", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_round_trip(void **state)
{
    (void)state;
    struct result_row w[2];
    memset(w, 0, sizeof w);
    for (int i = 0; i < 2; i++) {
        struct result_row *r = &w[i];
        snprintf(r->engine, sizeof r->engine, "pgsql");
        snprintf(r->workload, sizeof r->workload, "oltp_read_write");
        snprintf(r->variant, sizeof r->variant, i ? "label, \"quoted\"" : "smp-k2");
        r->cpus = 2, r->threads = 8 << i, r->repeat = i;
        r->time_s = 10.001, r->tps = 1234.5678 + i, r->qps = 24691.25, r->qps_read = 17283.5;
        r->qps_write = 4938.25, r->qps_other = 2469.5;
        r->lat_min_ms = 0.125, r->lat_avg_ms = 6.48, r->lat_p50_ms = 5.99;
        r->lat_p95_ms = 11.87, r->lat_p99_ms = 17.32, r->lat_max_ms = 240.9;
        r->errors = 12, r->reconnects = 1;
        snprintf(r->error_codes, sizeof r->error_codes, i ? "40001:10;40P01:2" : "");
        r->client_cpu_s = 3.5, r->client_cpu_per_txn_us = 283.4, r->server_cpu_s = 15.25;
        r->idle_pct = 4.5;
        snprintf(r->client_cpus, sizeof r->client_cpus, "0-1");
        snprintf(r->server_cpus, sizeof r->server_cpus, "0,1");
        r->shared_cpus = 1, r->disturbed = i;
        snprintf(r->disturbed_why, sizeof r->disturbed_why,
                 i ? "stall 2.1s, \"3\" reconnects" : "");
    }
    assert_int_equal(results_write_csv(dir, w, 2), 0);
    struct result_set s;
    char err[512];
    assert_int_equal(results_read(dir, &s, err, sizeof err), 0);
    assert_int_equal(s.n, 2);
    for (int i = 0; i < 2; i++) {
        /* Doubles are written with 15 significant digits: these decimals come back exactly. */
        assert_memory_equal(&s.rows[i], &w[i], sizeof w[i]);
    }
    results_free(&s);
}

/* dbscale-mpi: the ranks' rows come back apart from the levels, so plot,
 * compare and the page, which read rows, see the levels only. */
static void test_rank_rows_apart(void **state)
{
    (void)state;
    struct result_row lv = {.engine = "pgsql", .variant = "smp-k2", .cpus = 2, .threads = 7};
    lv.tps = 700, lv.connections = 7;
    struct result_row rk[3];
    for (int i = 0; i < 3; i++) {
        rk[i] = lv;
        snprintf(rk[i].rank, sizeof rk[i].rank, "%d", i);
        snprintf(rk[i].host, sizeof rk[i].host, "client%d", i);
        rk[i].connections = i ? 2 : 3;
        rk[i].tps = i ? 200 : 300;
    }
    assert_int_equal(results_write_csv_ranks(dir, &lv, 1, rk, 3), 0);
    struct result_set s;
    char err[512];
    assert_int_equal(results_read(dir, &s, err, sizeof err), 0);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.rows[0].rank, "");
    assert_int_equal(s.rows[0].connections, 7);
    assert_int_equal(s.nrank, 3);
    for (int i = 0; i < 3; i++)
        assert_memory_equal(&s.rank_rows[i], &rk[i], sizeof rk[i]);
    results_free(&s);
}

static void test_by_header(void **state)
{
    (void)state;
    write_text("# a comment\n"
               "threads,tps,future_column,variant,engine,cpus\n"
               "4,100.5,xyz,up,mysql,1\n"
               "\n"
               "8,180,,up,mysql,1\n");
    struct result_set s;
    char err[512];
    assert_int_equal(results_read(dir, &s, err, sizeof err), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.rows[1].threads, 8);
    assert_float_equal(s.rows[0].tps, 100.5, 0);
    assert_string_equal(s.rows[0].engine, "mysql");
    assert_string_equal(s.rows[0].workload, "");
    results_free(&s);
}

static void expect_error(const char *text, const char *needle)
{
    write_text(text);
    struct result_set s;
    char err[512] = "";
    assert_int_equal(results_read(dir, &s, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' does not contain '%s'", err, needle);
    assert_non_null(strstr(err, "results.csv"));
    assert_null(s.rows);
}

static void test_malformed(void **state)
{
    (void)state;
    const char *h = "engine,variant,cpus,threads,tps\n";
    char buf[512];
    snprintf(buf, sizeof buf, "%spgsql,up,1,1,100\npgsql,up,1,2\n", h);
    expect_error(buf, ":3:");
    snprintf(buf, sizeof buf, "%spgsql,up,1,1,100\npgsql,up,1,2,12x\n", h);
    expect_error(buf, ":3: bad tps '12x'");
    snprintf(buf, sizeof buf, "%spgsql,up,one,1,100\n", h);
    expect_error(buf, ":2: bad cpus");
    snprintf(buf, sizeof buf, "%s\"pgsql,up,1,1,100\n", h);
    expect_error(buf, ":2: unterminated quote");
    snprintf(buf, sizeof buf, "%spgsql,up,1,0,100\n", h);
    expect_error(buf, ":2:");
    snprintf(buf, sizeof buf, "%sa-very-long-engine-name,up,1,1,100\n", h);
    expect_error(buf, ":2: bad engine");
    expect_error("engine,variant,cpus,threads\npgsql,up,1,1\n", ":1: header lacks required "
                                                                "column 'tps'");
    expect_error("# only a comment\n", "no header");
    expect_error("", "no header");
    struct result_set s;
    char err[512];
    assert_int_equal(results_read("/nonexistent/dir", &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/dir"));
}

/* A symlink planted where the temp file goes must not be followed: the
 * file it points at stays as it was, and the target gets the data. */
static void test_atomic_planted_symlink(void **state)
{
    (void)state;
    char target[600], tmp[700], victim[600];
    snprintf(target, sizeof target, "%s/meta.json", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", target, (long)getpid());
    snprintf(victim, sizeof victim, "%s/victim", dir);
    FILE *f = fopen(victim, "w");
    assert_non_null(f);
    fputs("precious\n", f);
    fclose(f);
    assert_int_equal(symlink(victim, tmp), 0);
    assert_int_equal(write_file_atomic(target, "new\n", 4), 0);
    char buf[64] = "";
    f = fopen(victim, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "precious\n");
    struct stat st;
    assert_int_equal(lstat(target, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    f = fopen(target, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "new\n");
    unlink(tmp);
    unlink(target);
    unlink(victim);
}

/* meta.json round trip: every field and the variant list come back, strings
 * with quotes, backslashes and newlines intact; broken files are errors. */
static void test_meta_round_trip(void **state)
{
    (void)state;
    struct meta m, r;
    char err[512];
    memset(&m, 0, sizeof m);
    snprintf(m.engine, sizeof m.engine, "pgsql");
    snprintf(m.workload, sizeof m.workload, "oltp_read_only");
    snprintf(m.host, sizeof m.host, "h\"o\\st\nx");
    snprintf(m.kernel, sizeof m.kernel, "6.1.0");
    snprintf(m.cpu_model, sizeof m.cpu_model, "Some CPU @ 2.0GHz");
    snprintf(m.server_version, sizeof m.server_version, "PostgreSQL 15.1");
    snprintf(m.db_host, sizeof m.db_host, "127.0.0.1");
    m.db_port = 5433;
    snprintf(m.started, sizeof m.started, "2026-01-01T00:00:00Z");
    m.time_s = 2.5;
    m.warmup_s = 5;
    m.repeats = 3;
    m.levels_planned = 12;
    m.levels_done = 4;
    m.uniprocessor = 1;
    m.mem_kb = 1LL << 40;
    meta_add_variant(&m, "smp-k1");
    meta_add_variant(&m, "smp-k2");
    meta_add_variant(&m, "smp-k1");
    m.options = json_pack("{ss}", "threads", "1,2");
    assert_int_equal(meta_write(dir, &m), 0);
    assert_int_equal(meta_load(dir, &r, err, sizeof err), 0);
    assert_string_equal(r.engine, "pgsql");
    assert_string_equal(r.workload, "oltp_read_only");
    assert_string_equal(r.host, m.host);
    assert_string_equal(r.kernel, "6.1.0");
    assert_string_equal(r.cpu_model, m.cpu_model);
    assert_string_equal(r.server_version, "PostgreSQL 15.1");
    assert_string_equal(r.db_host, "127.0.0.1");
    assert_int_equal(r.db_port, 5433);
    assert_string_equal(r.started, m.started);
    assert_string_equal(r.ended, "");
    assert_true(r.time_s == 2.5 && r.warmup_s == 5);
    assert_int_equal(r.repeats, 3);
    assert_int_equal(r.levels_planned, 12);
    assert_int_equal(r.levels_done, 4);
    assert_int_equal(r.uniprocessor, 1);
    assert_true(r.mem_kb == 1LL << 40);
    assert_int_equal(r.nvariants, 2);
    assert_string_equal(r.variants[1], "smp-k2");
    assert_string_equal(json_string_value(json_object_get(r.options, "threads")), "1,2");
    meta_free(&r);
    meta_free(&m);

    char p[600];
    snprintf(p, sizeof p, "%s/meta.json", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("{\"engine\": \"pgsql\",\n\"host\": \n", f);
    fclose(f);
    assert_int_equal(meta_load(dir, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "meta.json:"));
    f = fopen(p, "w");
    assert_non_null(f);
    fputs("[1, 2]\n", f);
    fclose(f);
    assert_int_equal(meta_load(p, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a JSON object"));
    unlink(p);
    assert_int_equal(meta_load(dir, &r, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_rows_apart),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_by_header),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_atomic_planted_symlink),
        cmocka_unit_test(test_meta_round_trip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
