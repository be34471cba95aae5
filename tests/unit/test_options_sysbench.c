/*
 * test_options_sysbench.c - a sysbench 1.0.20 command line parses unchanged,
 * against the real option tables (run's and sweep's): '_' and '-' alike in
 * names (command line and config files), the deprecated aliases with
 * sysbench's warning, --config-file in sysbench's name=value format with
 * file:line on a bad line, size suffixes (K/M/G/T, x1024 as sysbench's size
 * parser), port lists paired with host lists as sysbench's MySQL driver
 * pairs them, options sysbench has but dbscale refuses (with the reason), and
 * the engine: one default (mysql) and engine-specific options implying theirs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/oltp.h"
#include "core/options.h"
#include "verbs/verbs.h"

struct fx {
    struct opts o;
    struct optdef *sweep_defs;
    char err[700];
    char *pos[4];
    int npos;
};

static int run_parse(struct fx *f, const char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    opts_free(&f->o);
    opts_init(&f->o, oltp_optdefs(), oltp_noptdefs());
    f->err[0] = '\0';
    return opts_parse_argv(&f->o, argc, (char **)argv, 1, f->pos, 4, &f->npos, f->err,
                           sizeof f->err);
}

static int sweep_parse(struct fx *f, const char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    size_t n;
    opts_free(&f->o);
    free(f->sweep_defs);
    f->sweep_defs = sweep_verb_optdefs(&n);
    opts_init(&f->o, f->sweep_defs, n);
    f->err[0] = '\0';
    return opts_parse_argv(&f->o, argc, (char **)argv, 1, f->pos, 4, &f->npos, f->err,
                           sizeof f->err);
}

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    opts_init(&f->o, oltp_optdefs(), oltp_noptdefs());
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    opts_free(&f->o);
    free(f->sweep_defs);
    free(f);
    return 0;
}

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/dbscale-test-sbopts-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

/* 1. sysbench's own `help` prints --table_size, --skip_trx ...: both spellings work. */
static void test_underscores(void **state)
{
    struct fx *f = *state;
    const char *argv[] = {"run",
                          "--table_size=77",
                          "--skip_trx",
                          "--range_size",
                          "5",
                          "--sum_ranges=3",
                          "--auto_inc=off",
                          "--mysql_password=pw",
                          "--db_driver=pgsql",
                          "--pgsql_db=x",
                          "oltp_read_only",
                          NULL};
    assert_int_equal(run_parse(f, argv), 0);
    assert_int_equal(opts_int(&f->o, "table-size"), 77);
    assert_int_equal(opts_bool(&f->o, "skip-trx"), 1); /* bare flag, as --skip-trx */
    assert_int_equal(opts_int(&f->o, "range-size"), 5);
    assert_int_equal(opts_int(&f->o, "sum-ranges"), 3);
    assert_int_equal(opts_bool(&f->o, "auto-inc"), 0);
    assert_string_equal(opts_str(&f->o, "mysql-password"), "pw");
    assert_string_equal(opts_str(&f->o, "db-driver"), "pgsql");
    assert_int_equal(f->npos, 1);
    /* a typo still gets its hint, in the table's spelling */
    const char *bad[] = {"run", "--table_sise=5", NULL};
    assert_int_equal(run_parse(f, bad), -1);
    assert_non_null(strstr(f->err, "--table-size"));
}

static void test_underscores_sweep_and_ini(void **state)
{
    struct fx *f = *state;
    char *ini = write_tmp("table_size = 9\ncpu_method = affinity\nwarmup_time=2\n");
    char cfg[128];
    snprintf(cfg, sizeof cfg, "--config=%s", ini);
    const char *argv[] = {"sweep", cfg, "--server_pid=auto", "--rand_type=uniform", NULL};
    assert_int_equal(sweep_parse(f, argv), 0);
    assert_int_equal(opts_int(&f->o, "table-size"), 9);
    assert_float_equal(opts_num(&f->o, "warmup-time"), 2, 0);
    assert_string_equal(opts_str(&f->o, "rand-type"), "uniform");
    unlink(ini);
    free(ini);
}

/* 2. the aliases 1.0.20 still takes set their option and leave sysbench's warning */
static void test_deprecated_aliases(void **state)
{
    struct fx *f = *state;
    const char *argv[] = {"run",
                          "--num-threads=3",
                          "--max-time=7",
                          "--max_requests=11",
                          "--tx-rate=5.5",
                          "oltp_read_only",
                          NULL};
    assert_int_equal(run_parse(f, argv), 0);
    assert_int_equal(opts_int(&f->o, "threads"), 3);
    assert_float_equal(opts_num(&f->o, "time"), 7, 0);
    assert_int_equal(opts_int(&f->o, "events"), 11);
    assert_float_equal(opts_num(&f->o, "rate"), 5.5, 0);
    const char *w = opts_warnings(&f->o);
    assert_non_null(w);
    assert_non_null(strstr(w, "WARNING: --num-threads is deprecated, use --threads instead\n"));
    assert_non_null(strstr(w, "WARNING: --max-time is deprecated, use --time instead\n"));
    assert_non_null(strstr(w, "WARNING: --max-requests is deprecated, use --events instead\n"));
    assert_non_null(strstr(w, "WARNING: --tx-rate is deprecated, use --rate instead\n"));
    /* the alias takes its option's type: sweep's --threads is a list */
    const char *sw[] = {"sweep", "--num_threads=1,2", NULL};
    assert_int_equal(sweep_parse(f, sw), 0);
    assert_string_equal(opts_str(&f->o, "threads"), "1,2");
    /* and its option's checks */
    const char *bad[] = {"run", "--num-threads=0", NULL};
    assert_int_equal(run_parse(f, bad), -1);
    assert_non_null(strstr(f->err, "threads"));
    /* nothing deprecated given: no warning */
    const char *plain[] = {"run", "--threads=2", NULL};
    assert_int_equal(run_parse(f, plain), 0);
    assert_null(opts_warnings(&f->o));
}

/* 3. sysbench's --config-file: name=value per line */
static void test_config_file(void **state)
{
    struct fx *f = *state;
    char *p = write_tmp("# a sysbench config\nthreads=3\ntable_size=21\n\nmax-time=4\n"
                        "--events=9\nmysql-host=db1\n");
    char cfg[128];
    snprintf(cfg, sizeof cfg, "--config-file=%s", p);
    const char *argv[] = {"run", cfg, "--threads=5", "oltp_read_only", NULL};
    assert_int_equal(run_parse(f, argv), 0);
    assert_int_equal(opts_int(&f->o, "threads"), 5); /* the command line wins */
    assert_int_equal(opts_int(&f->o, "table-size"), 21);
    assert_float_equal(opts_num(&f->o, "time"), 4, 0);
    assert_int_equal(opts_int(&f->o, "events"), 9);
    assert_string_equal(opts_str(&f->o, "mysql-host"), "db1");
    assert_non_null(strstr(opts_warnings(&f->o), "--max-time is deprecated"));
    unlink(p);
    free(p);

    /* sysbench skips a line it cannot read; here it is named, file:line */
    p = write_tmp("threads=2\nthis is not an option line\n");
    snprintf(cfg, sizeof cfg, "--config-file=%s", p);
    const char *a2[] = {"run", cfg, NULL};
    assert_int_equal(run_parse(f, a2), -1);
    char want[128];
    snprintf(want, sizeof want, "%s:2", p);
    assert_non_null(strstr(f->err, want));
    unlink(p);
    free(p);

    p = write_tmp("threads=2\nnosuch_option=1\n");
    const char *a3[] = {"run", "--config_file", p, NULL};
    assert_int_equal(run_parse(f, a3), -1);
    snprintf(want, sizeof want, "%s:2", p);
    assert_non_null(strstr(f->err, want));
    assert_non_null(strstr(f->err, "nosuch_option"));
    unlink(p);
    free(p);

    /* a file that is not there is an error (sysbench says so and runs on) */
    const char *a4[] = {"run", "--config-file=/nonexistent/x.cfg", NULL};
    assert_int_equal(run_parse(f, a4), -1);
    assert_non_null(strstr(f->err, "/nonexistent/x.cfg"));
}

/* 4. size suffixes, x1024 as sysbench's size options (4K = 4096) */
static void test_size_suffixes(void **state)
{
    struct fx *f = *state;
    const char *argv[] = {"run", "--table-size=10K", "--events=2m", NULL};
    assert_int_equal(run_parse(f, argv), 0);
    assert_int_equal(opts_int(&f->o, "table-size"), 10240);
    assert_int_equal(opts_int(&f->o, "events"), 2 * 1024 * 1024);
    /* read as a number too (a Lua script's sysbench.opt.table_size is one) */
    assert_float_equal(opts_num(&f->o, "table-size"), 10240, 0);
    const char *g[] = {"run", "--table-size=1G", "--events=1T", NULL};
    assert_int_equal(run_parse(f, g), 0);
    assert_int_equal(opts_int(&f->o, "table-size"), 1073741824LL);
    assert_int_equal(opts_int(&f->o, "events"), 1099511627776LL);
    /* still range-checked, and junk is junk (sysbench's Lua parser makes
     * "10X" 10 and "abc" 0 without a word) */
    const char *over[] = {"run", "--table-size=2G", NULL};
    assert_int_equal(run_parse(f, over), -1);
    assert_non_null(strstr(f->err, "table-size"));
    const char *junk[] = {"run", "--table-size=10X", NULL};
    assert_int_equal(run_parse(f, junk), -1);
    const char *frac[] = {"run", "--table-size=1.5K", NULL};
    assert_int_equal(run_parse(f, frac), -1);
    long long v;
    assert_int_equal(parse_size("3k", &v), 0);
    assert_int_equal(v, 3072);
    assert_int_equal(parse_size("17", &v), 0);
    assert_int_equal(v, 17);
    assert_int_equal(parse_size("9999999999T", &v), -1); /* overflow */
    assert_int_equal(parse_size("K", &v), -1);
    assert_int_equal(parse_size("", &v), -1);
}

static int setup_from(struct fx *f, const char **argv, struct oltp_setup *s)
{
    if (run_parse(f, argv) != 0)
        return -2;
    return oltp_setup(s, &f->o, "oltp_read_only", f->err, sizeof f->err);
}

/* 5. sysbench's MySQL driver: connection i gets port i % nports of host
 * (i / nports) % nhosts: every host with every port, ports fastest */
static void test_port_lists(void **state)
{
    struct fx *f = *state;
    struct oltp_setup s;
    const char *argv[] = {"run", "--mysql-host=a,b", "--mysql-port=3306,3307,3308", NULL};
    assert_int_equal(setup_from(f, argv, &s), 0);
    assert_int_equal(s.ntargets, 6);
    const char *hosts[] = {"a", "a", "a", "b", "b", "b"};
    int ports[] = {3306, 3307, 3308, 3306, 3307, 3308};
    for (int i = 0; i < 6; i++) {
        assert_string_equal(s.targets[i].host, hosts[i]);
        assert_int_equal(s.targets[i].port, ports[i]);
    }
    oltp_setup_free(&s);
    const char *pg[] = {"run", "--pgsql-host=h1", "--pgsql-port=5433,5434", NULL};
    assert_int_equal(setup_from(f, pg, &s), 0);
    assert_ptr_equal(s.ops, &db_pgsql_ops); /* and pgsql options imply pgsql */
    assert_int_equal(s.ntargets, 2);
    assert_int_equal(s.targets[1].port, 5434);
    assert_string_equal(s.targets[1].host, "h1");
    oltp_setup_free(&s);
    const char *bad[] = {"run", "--mysql-port=3306,x", NULL};
    assert_int_equal(setup_from(f, bad, &s), -1);
    assert_non_null(strstr(f->err, "--mysql-port"));
    oltp_setup_free(&s);
    const char *big[] = {"run", "--mysql-port=70000", NULL};
    assert_int_equal(setup_from(f, big, &s), -1);
    oltp_setup_free(&s);
    /* sockets: a list too, each connection the next one */
    const char *so[] = {"run", "--mysql-socket=/s1,/s2", NULL};
    assert_int_equal(setup_from(f, so, &s), 0);
    assert_int_equal(s.ntargets, 2);
    assert_string_equal(s.targets[1].socket, "/s2");
    oltp_setup_free(&s);
}

/* 8. one default engine, sysbench's; engine options imply their engine */
static void test_engine_choice(void **state)
{
    struct fx *f = *state;
    struct oltp_setup s;
    const char *none[] = {"run", NULL};
    assert_int_equal(setup_from(f, none, &s), 0);
    assert_ptr_equal(s.ops, &db_mysql_ops);
    oltp_setup_free(&s);
    const char *my[] = {"run", "--mysql-host=10.0.0.1", NULL};
    assert_int_equal(setup_from(f, my, &s), 0);
    assert_ptr_equal(s.ops, &db_mysql_ops);
    oltp_setup_free(&s);
    const char *pg[] = {"run", "--pgsql-port=5999", NULL};
    assert_int_equal(setup_from(f, pg, &s), 0);
    assert_ptr_equal(s.ops, &db_pgsql_ops);
    oltp_setup_free(&s);
    const char *both[] = {"run", "--mysql-host=a", "--pgsql-port=5999", NULL};
    assert_int_equal(setup_from(f, both, &s), -1);
    assert_non_null(strstr(f->err, "--mysql-host"));
    assert_non_null(strstr(f->err, "--pgsql-port"));
    oltp_setup_free(&s);
    const char *clash[] = {"run", "--db-driver=pgsql", "--mysql-host=a", NULL};
    assert_int_equal(setup_from(f, clash, &s), -1);
    assert_non_null(strstr(f->err, "--db-driver=pgsql"));
    assert_non_null(strstr(f->err, "--mysql-host"));
    oltp_setup_free(&s);
    /* workload options that only name an engine are no connection */
    const char *se[] = {"run", "--db-driver=pgsql", "--mysql-storage-engine=innodb",
                        "--mysql-ignore-errors=all", NULL};
    assert_int_equal(setup_from(f, se, &s), 0);
    assert_ptr_equal(s.ops, &db_pgsql_ops);
    oltp_setup_free(&s);
    /* the sweep has the same default as run */
    const char *sw[] = {"sweep", NULL};
    assert_int_equal(sweep_parse(f, sw), 0);
    assert_string_equal(opts_str(&f->o, "db-driver"), "mysql");
}

/* 7. what sysbench has and dbscale does not do is refused, with why */
static void test_refused(void **state)
{
    struct fx *f = *state;
    const char *names[] = {"--thread-stack-size=64K", "--debug", "--validate=on", "--mysql-debug",
                           "--pgsql-variant=redshift"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *argv[] = {"run", names[i], NULL};
        assert_int_equal(run_parse(f, argv), -1);
        assert_non_null(strstr(f->err, "not supported"));
    }
    /* sysbench's --help[=on|off] */
    const char *h[] = {"run", "--help=on", NULL};
    assert_int_equal(run_parse(f, h), 1);
    const char *hoff[] = {"run", "--help=off", "--threads=2", NULL};
    assert_int_equal(run_parse(f, hoff), 0);
    assert_int_equal(opts_int(&f->o, "threads"), 2);
    /* sweep lists no option it ignores */
    const char *sw[] = {"sweep", "--histogram", NULL};
    assert_int_equal(sweep_parse(f, sw), -1);
    const char *so[] = {"sweep", "--output=json", NULL};
    assert_int_equal(sweep_parse(f, so), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_underscores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_underscores_sweep_and_ini, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deprecated_aliases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_config_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_size_suffixes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_port_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_choice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
