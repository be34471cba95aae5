/*
 * test_workload.c - the statements one transaction sends must be sysbench's
 * mix (/usr/share/sysbench/oltp_*.lua and oltp_common.lua), or throughput is
 * not comparable with sysbench numbers: the order and count of statements per
 * workload and knob (--skip-trx, --range-selects, --point-selects, ...), one
 * table per execute_* phase, parameters (ids in [1, table_size], range upper
 * bound = lower + range_size - 1, c/pad strings of 119/59 digits and dashes,
 * DELETE and INSERT of a pair on the same id), '?' count = nparams for every
 * prepared statement, select_random_* within the thread's own segment,
 * workload_init's errors, and the sbtest DDL read from schemas/ENGINE.sql.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/workload.h"

/* sysbench's defaults (oltp_common.lua) */
static struct wl_config defaults(const char *name, const char *engine)
{
    struct wl_config c = {
        .name = name,
        .ops = db_find(engine),
        .tables = 1,
        .table_size = 10000,
        .range_size = 100,
        .point_selects = 10,
        .simple_ranges = 1,
        .sum_ranges = 1,
        .order_ranges = 1,
        .distinct_ranges = 1,
        .index_updates = 1,
        .non_index_updates = 1,
        .delete_inserts = 1,
        .range_selects = 1,
        .skip_trx = 0,
        .auto_inc = 1,
        .secondary = 0,
        .create_secondary = 1,
        .random_points = 10,
        .number_of_ranges = 10,
        .delta = 5,
        .mysql_storage_engine = "innodb",
    };
    assert_int_equal(rng_dist_init(&c.dist, "special", 12, 1, 75, 0.2, 0.8), 0);
    return c;
}

static void init_ok(struct workload *w, const struct wl_config *c)
{
    char err[512] = "";
    if (workload_init(w, c, err, sizeof err) != 0)
        fail_msg("workload_init(%s): %s", c->name, err);
}

/* One letter per statement, from its SQL text. */
static char letter(const struct workload *w, const struct wl_stmt *s)
{
    const char *q = s->id >= 0 ? w->sql[s->id] : s->sql;
    assert_non_null(q);
    if (!strcmp(q, "BEGIN"))
        return 'B';
    if (!strcmp(q, "COMMIT"))
        return 'C';
    if (strstr(q, "WHERE k IN ("))
        return 'R';
    if (strstr(q, "count(k)"))
        return 'G';
    if (!strncmp(q, "SELECT DISTINCT c", 17))
        return 'D';
    if (!strncmp(q, "SELECT SUM(k)", 13))
        return 'U';
    if (!strncmp(q, "SELECT c", 8) && strstr(q, "ORDER BY c"))
        return 'O';
    if (!strncmp(q, "SELECT c", 8) && strstr(q, "BETWEEN"))
        return 'S';
    if (!strncmp(q, "SELECT c", 8) && strstr(q, "WHERE id=?"))
        return 'P';
    if (!strncmp(q, "UPDATE", 6) && strstr(q, "SET k=k+1"))
        return 'I';
    if (!strncmp(q, "UPDATE", 6) && strstr(q, "SET c=?"))
        return 'N';
    if (!strncmp(q, "DELETE", 6))
        return 'X';
    if (!strncmp(q, "INSERT", 6))
        return 'W';
    fail_msg("unexpected statement '%s'", q);
    return '?';
}

static enum wl_class letter_class(char l)
{
    return strchr("BC", l) ? WL_OTHER : strchr("INXW", l) ? WL_WRITE : WL_READ;
}

/* The letters of one transaction; checks each statement's class and ids. */
static void txn_letters(const struct workload *w, struct rng *r, char *out, size_t outlen)
{
    struct wl_state s;
    struct wl_stmt st;
    size_t n = 0;
    workload_txn_begin(w, &s, 0, 1);
    while (workload_next(w, &s, r, &st)) {
        assert_true(n + 1 < outlen);
        char l = letter(w, &st);
        assert_int_equal(st.cls, letter_class(l));
        if (st.id >= 0) {
            assert_true(st.id < w->nstmts);
            assert_int_equal(st.np, w->nparams[st.id]);
        } else {
            assert_int_equal(st.np, 0);
        }
        out[n++] = l;
    }
    out[n] = '\0';
    assert_int_equal(workload_next(w, &s, r, &st), 0); /* stays done */
}

static void expect_mix(const struct wl_config *c, const char *want)
{
    struct workload w;
    struct rng r;
    char got[256];
    init_ok(&w, c);
    rng_seed(&r, 1, 0);
    for (int t = 0; t < 3; t++) { /* every transaction is the same mix */
        txn_letters(&w, &r, got, sizeof got);
        if (strcmp(got, want) != 0)
            fail_msg("%s: transaction %s, want %s", c->name, got, want);
    }
    workload_free(&w);
}

static void test_mixes(void **state)
{
    (void)state;
    struct wl_config c;
    /* BEGIN, 10 point, simple, sum, order, distinct, COMMIT: 16 = 14 reads + 2 other */
    c = defaults("oltp_read_only", "pgsql");
    expect_mix(&c, "BPPPPPPPPPPSUODC");
    /* + index update, non-index update, DELETE+INSERT: 18 = 14 + 4 writes + 2 */
    c = defaults("oltp_read_write", "pgsql");
    expect_mix(&c, "BPPPPPPPPPPSUODINXWC");
    c = defaults("oltp_read_write", "mysql");
    c.tables = 5;
    expect_mix(&c, "BPPPPPPPPPPSUODINXWC");
    c = defaults("oltp_write_only", "pgsql");
    expect_mix(&c, "BINXWC");
    c = defaults("oltp_point_select", "pgsql"); /* sysbench forces point_selects=1 */
    expect_mix(&c, "P");
    c = defaults("oltp_update_index", "pgsql");
    expect_mix(&c, "I");
    c = defaults("oltp_update_non_index", "mysql");
    expect_mix(&c, "N");
    c = defaults("oltp_delete", "pgsql"); /* a DELETE alone, no INSERT back */
    expect_mix(&c, "X");
    c = defaults("oltp_insert", "mysql");
    expect_mix(&c, "W");
    c = defaults("select_random_points", "pgsql");
    expect_mix(&c, "R");
    c = defaults("select_random_ranges", "pgsql");
    expect_mix(&c, "G");
}

static void test_knobs(void **state)
{
    (void)state;
    struct wl_config c = defaults("oltp_read_only", "pgsql");
    c.skip_trx = 1;
    expect_mix(&c, "PPPPPPPPPPSUOD");
    c = defaults("oltp_read_write", "pgsql");
    c.skip_trx = 1;
    expect_mix(&c, "PPPPPPPPPPSUODINXW");
    c = defaults("oltp_write_only", "mysql");
    c.skip_trx = 1;
    expect_mix(&c, "INXW");
    c = defaults("oltp_read_only", "pgsql");
    c.range_selects = 0;
    expect_mix(&c, "BPPPPPPPPPPC");
    c = defaults("oltp_read_write", "pgsql");
    c.range_selects = 0;
    expect_mix(&c, "BPPPPPPPPPPINXWC");
    c = defaults("oltp_read_write", "pgsql");
    c.point_selects = 3;
    c.simple_ranges = 2;
    c.sum_ranges = 0;
    c.order_ranges = 3;
    c.distinct_ranges = 0;
    c.index_updates = 2;
    c.non_index_updates = 0;
    c.delete_inserts = 2;
    expect_mix(&c, "BPPPSSOOOIIXWXWC");
    c = defaults("oltp_read_only", "pgsql");
    c.point_selects = 0;
    expect_mix(&c, "BSUODC");
    c = defaults("oltp_update_index", "pgsql");
    c.index_updates = 3;
    expect_mix(&c, "III");
    c = defaults("oltp_point_select", "pgsql");
    c.point_selects = 5;
    expect_mix(&c, "P");
}

static int table_of(const char *sql)
{
    const char *p = strstr(sql, "sbtest");
    assert_non_null(p);
    return atoi(p + 6);
}

static void check_str(const struct db_param *p, const char *tmpl)
{
    assert_int_equal(p->type, DB_PSTR);
    assert_int_equal(p->len, (int)strlen(tmpl));
    for (int i = 0; i < p->len; i++) {
        char c = p->s[i];
        if (tmpl[i] == '#' ? !(c >= '0' && c <= '9') : c != tmpl[i])
            fail_msg("string param char %d is '%c', template '%c'", i, c, tmpl[i]);
    }
}

static void check_id(const struct db_param *p, uint32_t size)
{
    assert_int_equal(p->type, DB_PINT);
    if (p->i < 1 || p->i > (long long)size)
        fail_msg("id %lld outside [1, %u]", p->i, size);
}

static void test_params(void **state)
{
    (void)state;
    static const char *kinds[] = {"uniform", "gaussian", "special", "pareto", "zipfian"};
    assert_int_equal(strlen(WL_C_TEMPLATE), 119);
    assert_int_equal(strlen(WL_PAD_TEMPLATE), 59);
    for (size_t k = 0; k < 5; k++) {
        struct wl_config c = defaults("oltp_read_write", "pgsql");
        c.tables = 4;
        c.table_size = 50;
        c.range_size = 7;
        assert_int_equal(rng_dist_init(&c.dist, kinds[k], 12, 1, 75, 0.2, 0.8), 0);
        struct workload w;
        init_ok(&w, &c);
        struct rng r;
        rng_seed(&r, 5, k);
        int used[5] = {0};
        for (int t = 0; t < 300; t++) {
            struct wl_state s;
            struct wl_stmt st;
            char prev = 0;
            int prev_table = 0;
            long long del_id = -1;
            int del_table = 0;
            workload_txn_begin(&w, &s, 0, 1);
            while (workload_next(&w, &s, &r, &st)) {
                char l = letter(&w, &st);
                if (l == 'B' || l == 'C')
                    continue;
                int tb = table_of(w.sql[st.id]);
                assert_true(tb >= 1 && tb <= 4);
                used[tb]++;
                if (l == prev && tb != prev_table) /* one table per execute_* phase */
                    fail_msg("phase %c moved from sbtest%d to sbtest%d", l, prev_table, tb);
                prev = l;
                prev_table = tb;
                switch (l) {
                case 'P':
                case 'I':
                    assert_int_equal(st.np, 1);
                    check_id(&st.p[0], c.table_size);
                    break;
                case 'S':
                case 'U':
                case 'O':
                case 'D':
                    assert_int_equal(st.np, 2);
                    check_id(&st.p[0], c.table_size);
                    assert_int_equal(st.p[1].type, DB_PINT);
                    assert_int_equal(st.p[1].i, st.p[0].i + 7 - 1);
                    break;
                case 'N':
                    assert_int_equal(st.np, 2);
                    check_str(&st.p[0], WL_C_TEMPLATE);
                    check_id(&st.p[1], c.table_size);
                    break;
                case 'X':
                    assert_int_equal(st.np, 1);
                    check_id(&st.p[0], c.table_size);
                    del_id = st.p[0].i;
                    del_table = tb;
                    break;
                case 'W':
                    assert_int_equal(st.np, 4);
                    assert_int_equal(st.p[0].type, DB_PINT);
                    assert_int_equal(st.p[0].i, del_id); /* the row just deleted */
                    assert_int_equal(tb, del_table);
                    check_id(&st.p[1], c.table_size); /* k */
                    check_str(&st.p[2], WL_C_TEMPLATE);
                    check_str(&st.p[3], WL_PAD_TEMPLATE);
                    assert_non_null(strstr(w.sql[st.id], "(id, k, c, pad)"));
                    break;
                default:
                    fail_msg("unexpected %c", l);
                }
            }
        }
        for (int tb = 1; tb <= 4; tb++) /* every table is used */
            assert_true(used[tb] > 0);
        workload_free(&w);
    }
}

static int count_q(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '?';
    return n;
}

static void test_placeholders(void **state)
{
    (void)state;
    static const char *engines[] = {"pgsql", "mysql"};
    for (int i = 0; workload_names[i]; i++)
        for (int e = 0; e < 2; e++)
            for (int ai = 0; ai < 2; ai++)
                for (int tables = 1; tables <= 3; tables += 2) {
                    struct wl_config c = defaults(workload_names[i], engines[e]);
                    c.auto_inc = ai;
                    c.random_points = 7;
                    c.number_of_ranges = 4;
                    c.tables = tables;
                    struct workload w;
                    init_ok(&w, &c);
                    assert_true(w.nstmts > 0);
                    for (int s = 0; s < w.nstmts; s++) {
                        assert_non_null(w.sql[s]);
                        if (count_q(w.sql[s]) != w.nparams[s])
                            fail_msg("%s: '%s' has %d '?', nparams %d", workload_names[i], w.sql[s],
                                     count_q(w.sql[s]), w.nparams[s]);
                        assert_true(w.nparams[s] <= WL_MAX_PARAMS);
                        if (!strncmp(workload_names[i], "select_random_points", 20))
                            assert_int_equal(w.nparams[s], 7);
                        if (!strncmp(workload_names[i], "select_random_ranges", 20))
                            assert_int_equal(w.nparams[s], 8);
                    }
                    /* one statement per (kind, table): the tables all appear;
                     * MariaDB prepares BEGIN and COMMIT once each, as sysbench */
                    if (!strcmp(workload_names[i], "oltp_read_write")) {
                        assert_int_equal(w.nstmts, 9 * tables + (e == 1 ? 2 : 0));
                        for (int t = 1; t <= tables; t++) {
                            char want[32];
                            snprintf(want, sizeof want, "sbtest%d ", t);
                            int hits = 0;
                            for (int s = 0; s < w.nstmts; s++)
                                hits += strstr(w.sql[s], want) != NULL;
                            assert_int_equal(hits, 9);
                        }
                    }
                    workload_free(&w);
                }
}

static void check_segment(const char *name, int thread, int nthreads, uint32_t lo, uint32_t hi)
{
    struct wl_config c = defaults(name, "pgsql");
    c.table_size = 1000;
    struct workload w;
    init_ok(&w, &c);
    struct rng r;
    rng_seed(&r, 3, (uint64_t)thread);
    uint32_t mn = UINT32_MAX, mx = 0;
    for (int t = 0; t < 500; t++) {
        struct wl_state s;
        struct wl_stmt st;
        workload_txn_begin(&w, &s, thread, nthreads);
        assert_int_equal(workload_next(&w, &s, &r, &st), 1);
        assert_int_equal(st.cls, WL_READ);
        for (int i = 0; i < st.np; i++) {
            assert_int_equal(st.p[i].type, DB_PINT);
            long long v = st.p[i].i;
            if (!strcmp(name, "select_random_ranges") && i % 2 == 1) {
                assert_int_equal(v, st.p[i - 1].i + (long long)c.delta);
                continue;
            }
            if (v < lo || v > hi)
                fail_msg("%s thread %d/%d: %lld outside [%u, %u]", name, thread, nthreads, v, lo,
                         hi);
            mn = v < mn ? (uint32_t)v : mn;
            mx = v > mx ? (uint32_t)v : mx;
        }
        assert_int_equal(workload_next(&w, &s, &r, &st), 0);
    }
    /* the draws spread over the segment, not one corner of it */
    assert_true(mn < lo + (hi - lo) / 2 && mx > lo + (hi - lo) / 2);
    workload_free(&w);
}

static void test_segments(void **state)
{
    (void)state;
    /* sysbench: rlen = table_size / threads, rmin = rlen * tid, rmax = rmin + rlen */
    check_segment("select_random_points", 2, 4, 500, 750);
    check_segment("select_random_points", 0, 4, 0, 250);
    check_segment("select_random_points", 3, 4, 750, 1000);
    check_segment("select_random_points", 0, 1, 0, 1000);
    check_segment("select_random_ranges", 1, 4, 250, 500);
    check_segment("select_random_ranges", 6, 4, 500, 750); /* thread_id % threads */
}

static void test_insert(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 9, 0);
    struct wl_state s;
    struct wl_stmt st;
    struct workload w;

    /* PostgreSQL + auto_inc: leave id out so SERIAL fills it */
    struct wl_config c = defaults("oltp_insert", "pgsql");
    init_ok(&w, &c);
    workload_txn_begin(&w, &s, 0, 1);
    assert_int_equal(workload_next(&w, &s, &r, &st), 1);
    assert_int_equal(st.cls, WL_WRITE);
    assert_int_equal(st.np, 3);
    assert_non_null(strstr(w.sql[st.id], "(k, c, pad) VALUES (?, ?, ?)"));
    check_id(&st.p[0], c.table_size);
    check_str(&st.p[1], WL_C_TEMPLATE);
    check_str(&st.p[2], WL_PAD_TEMPLATE);
    workload_free(&w);

    /* MySQL + auto_inc: id 0 asks AUTO_INCREMENT for the next one */
    c = defaults("oltp_insert", "mysql");
    init_ok(&w, &c);
    workload_txn_begin(&w, &s, 0, 1);
    assert_int_equal(workload_next(&w, &s, &r, &st), 1);
    assert_int_equal(st.np, 4);
    assert_int_equal(st.p[0].i, 0);
    check_id(&st.p[1], c.table_size);
    workload_free(&w);

    /* no auto_inc: client ids, distinct, within SQL INT */
    for (int e = 0; e < 2; e++) {
        c = defaults("oltp_insert", e ? "mysql" : "pgsql");
        c.auto_inc = 0;
        init_ok(&w, &c);
        enum { N = 2000 };
        static long long ids[N];
        for (int i = 0; i < N; i++) {
            workload_txn_begin(&w, &s, 0, 1);
            assert_int_equal(workload_next(&w, &s, &r, &st), 1);
            assert_int_equal(st.np, 4);
            ids[i] = st.p[0].i;
            assert_true(ids[i] >= INT32_MIN && ids[i] <= INT32_MAX);
        }
        for (int i = 0; i < N; i++)
            for (int j = i + 1; j < N; j++)
                if (ids[i] == ids[j])
                    fail_msg("oltp_insert drew id %lld twice", ids[i]);
        workload_free(&w);
    }
}

static void test_init_errors(void **state)
{
    (void)state;
    struct workload w;
    char err[512];
    struct wl_config c = defaults("oltp_read_wrote", "pgsql");
    err[0] = '\0';
    assert_int_equal(workload_init(&w, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "oltp_read_wrote"));
    for (int i = 0; workload_names[i]; i++)
        if (!strstr(err, workload_names[i]))
            fail_msg("message '%s' does not list %s", err, workload_names[i]);

    /* select_random_* run on sbtest1 whatever --tables says; as in
     * sysbench, only prepare and cleanup refuse --tables > 1 */
    c = defaults("select_random_points", "pgsql");
    c.tables = 2;
    init_ok(&w, &c);
    err[0] = '\0';
    assert_int_equal(workload_check_load(&w, err, sizeof err), -1);
    assert_non_null(strstr(err, "--tables"));
    workload_free(&w);
    c = defaults("select_random_ranges", "mysql");
    c.tables = 3;
    init_ok(&w, &c);
    assert_int_equal(workload_check_load(&w, err, sizeof err), -1);
    workload_free(&w);
    c.tables = 1;
    init_ok(&w, &c);
    assert_int_equal(workload_check_load(&w, err, sizeof err), 0);
    workload_free(&w);

    int bad_tables[] = {0, -1, 101};
    for (size_t i = 0; i < 3; i++) {
        c = defaults("oltp_read_only", "pgsql");
        c.tables = bad_tables[i];
        err[0] = '\0';
        assert_int_equal(workload_init(&w, &c, err, sizeof err), -1);
        assert_non_null(strstr(err, "--tables"));
    }
    c = defaults("oltp_read_only", "pgsql");
    c.tables = 100;
    init_ok(&w, &c);
    workload_free(&w);

    c = defaults("oltp_read_only", "pgsql");
    c.table_size = 0;
    assert_int_equal(workload_init(&w, &c, err, sizeof err), -1);
    c = defaults("select_random_points", "pgsql");
    c.random_points = 0;
    assert_int_equal(workload_init(&w, &c, err, sizeof err), -1);
    c.random_points = WL_MAX_PARAMS + 1;
    assert_int_equal(workload_init(&w, &c, err, sizeof err), -1);
}

static char *ddl(const char *engine, int auto_inc, int secondary, const char *storage,
                 const char *section, int n)
{
    struct wl_config c = defaults("oltp_read_write", engine);
    c.auto_inc = auto_inc;
    c.secondary = secondary;
    c.mysql_storage_engine = storage;
    struct workload w;
    init_ok(&w, &c);
    char err[512] = "";
    char *sql = workload_ddl(&w, section, n, err, sizeof err);
    if (!sql)
        fail_msg("workload_ddl(%s, %s): %s", engine, section, err);
    workload_free(&w);
    return sql;
}

static void test_ddl(void **state)
{
    (void)state;
    char *s = ddl("pgsql", 1, 0, NULL, "create", 7);
    assert_string_equal(s, "CREATE TABLE sbtest7(\n"
                           "  id SERIAL,\n"
                           "  k INTEGER DEFAULT '0' NOT NULL,\n"
                           "  c CHAR(120) DEFAULT '' NOT NULL,\n"
                           "  pad CHAR(60) DEFAULT '' NOT NULL,\n"
                           "  PRIMARY KEY (id)\n"
                           ")");
    free(s);
    s = ddl("pgsql", 0, 0, NULL, "create", 12);
    assert_non_null(strstr(s, "CREATE TABLE sbtest12("));
    assert_non_null(strstr(s, "id INTEGER NOT NULL,"));
    assert_null(strstr(s, "SERIAL"));
    free(s);

    s = ddl("mysql", 1, 0, "innodb", "create", 3);
    assert_string_equal(s, "CREATE TABLE sbtest3(\n"
                           "  id INTEGER NOT NULL AUTO_INCREMENT,\n"
                           "  k INTEGER DEFAULT '0' NOT NULL,\n"
                           "  c CHAR(120) DEFAULT '' NOT NULL,\n"
                           "  pad CHAR(60) DEFAULT '' NOT NULL,\n"
                           "  PRIMARY KEY (id)\n"
                           ") /*! ENGINE = innodb */");
    free(s);
    s = ddl("mysql", 0, 1, "myisam", "create", 3);
    assert_non_null(strstr(s, "id INTEGER NOT NULL,"));
    assert_null(strstr(s, "AUTO_INCREMENT"));
    assert_non_null(strstr(s, "KEY xid (id)"));
    assert_non_null(strstr(s, "ENGINE = myisam"));
    free(s);
    s = ddl("mysql", 1, 0, NULL, "create", 1); /* no engine given: innodb */
    assert_non_null(strstr(s, "ENGINE = innodb"));
    free(s);

    s = ddl("pgsql", 1, 0, NULL, "index", 7);
    assert_string_equal(s, "CREATE INDEX k_7 ON sbtest7(k)");
    free(s);
    s = ddl("mysql", 1, 0, NULL, "index", 100);
    assert_string_equal(s, "CREATE INDEX k_100 ON sbtest100(k)");
    free(s);
    s = ddl("pgsql", 1, 0, NULL, "drop", 2);
    assert_string_equal(s, "DROP TABLE IF EXISTS sbtest2");
    free(s);

    struct wl_config c = defaults("oltp_read_write", "pgsql");
    struct workload w;
    init_ok(&w, &c);
    char err[512] = "";
    assert_null(workload_ddl(&w, "nosuch", 1, err, sizeof err));
    assert_non_null(strstr(err, "nosuch"));
    workload_free(&w);
}

static void test_load_row(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 2, 0);
    char vals[4][128];
    struct wl_config c = defaults("oltp_read_write", "pgsql");
    c.table_size = 30;
    struct workload w;
    init_ok(&w, &c);
    assert_string_equal(workload_load_cols(&w), "k, c, pad");
    assert_int_equal(workload_load_row(&w, &r, 17, vals), 3);
    int k = atoi(vals[0]);
    assert_true(k >= 1 && k <= 30);
    assert_int_equal(strlen(vals[1]), 119);
    assert_int_equal(strlen(vals[2]), 59);
    workload_free(&w);
    c.auto_inc = 0;
    init_ok(&w, &c);
    assert_string_equal(workload_load_cols(&w), "id, k, c, pad");
    assert_int_equal(workload_load_row(&w, &r, 17, vals), 4);
    assert_string_equal(vals[0], "17");
    workload_free(&w);
}

/* sysbench's prepare draws k with sb_rand, which is sysbench.rand.default:
 * the --rand-type distribution ("special" by default), so 10,000 rows hold
 * about 1,750 distinct k; uniform draws would give about 6,300. With
 * --rand-type=uniform the load is uniform too. */
static int distinct_k(const char *dist)
{
    struct wl_config c = defaults("oltp_read_write", "pgsql");
    assert_int_equal(rng_dist_init(&c.dist, dist, 12, 1, 75, 0.2, 0.8), 0);
    struct workload w;
    init_ok(&w, &c);
    struct rng r;
    rng_seed(&r, 5, 0);
    static unsigned char seen[10001];
    memset(seen, 0, sizeof seen);
    int n = 0;
    char vals[4][128];
    for (uint32_t i = 1; i <= c.table_size; i++) {
        workload_load_row(&w, &r, i, vals);
        int k = atoi(vals[0]);
        assert_true(k >= 1 && k <= 10000);
        n += !seen[k];
        seen[k] = 1;
    }
    workload_free(&w);
    return n;
}

static void test_load_k_follows_rand_type(void **state)
{
    (void)state;
    int special = distinct_k("special"), uniform = distinct_k("uniform");
    assert_in_range(special, 1400, 2200);
    assert_in_range(uniform, 6000, 6700);
}

/* Engine knowledge sits in the engines' tables, found by one lookup; the
 * DDL follows those caps, never a comparison of engine names. */
static void test_engine_caps(void **state)
{
    (void)state;
    const char *names[] = {"pgsql", "postgresql", "mysql", "mariadb"};
    for (int i = 0; i < 4; i++) {
        const struct db_ops *ops = db_find(names[i]);
        assert_non_null(ops);
        assert_non_null(ops->max_connections_sql);
        assert_true(ops->nsettings > 0);
        assert_non_null(ops->schema);
        assert_non_null(ops->auto_id_def);
        assert_non_null(ops->secondary_key);
    }
    assert_null(db_find("oracle"));
    struct wl_config c = defaults("oltp_insert", "pgsql");
    struct workload w;
    char err[256];
    init_ok(&w, &c);
    char *sql = workload_ddl(&w, "create", 1, err, sizeof err);
    assert_non_null(sql);
    assert_non_null(strstr(sql, db_pgsql_ops.auto_id_def));
    free(sql);
    workload_free(&w);
    c.ops = NULL;
    assert_int_equal(workload_init(&w, &c, err, sizeof err), -1);
}

int main(void)
{
    /* workload_ddl reads schemas/ENGINE.sql under datadir(), which caches
     * its answer: set it before the first call. make runs the tests from the
     * repository root; a DBSCALE_DATADIR already set wins. */
    char cwd[PATH_MAX], probe[PATH_MAX + 32];
    if (!getenv("DBSCALE_DATADIR") && getcwd(cwd, sizeof cwd)) {
        snprintf(probe, sizeof probe, "%s/schemas/pgsql.sql", cwd);
        if (access(probe, R_OK) == 0)
            setenv("DBSCALE_DATADIR", cwd, 1);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixes),       cmocka_unit_test(test_knobs),
        cmocka_unit_test(test_params),      cmocka_unit_test(test_placeholders),
        cmocka_unit_test(test_segments),    cmocka_unit_test(test_insert),
        cmocka_unit_test(test_init_errors), cmocka_unit_test(test_ddl),
        cmocka_unit_test(test_load_row),    cmocka_unit_test(test_load_k_follows_rand_type),
        cmocka_unit_test(test_engine_caps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
