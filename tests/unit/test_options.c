/*
 * test_options.c - the option vocabulary every verb and config file shares:
 * --name=value, --name value and bare boolean flags; errors that name the
 * option (unknown ones with a "did you mean" hint, bad numbers, choices not
 * listed); OPT_LIST joining; a --config INI file read first and overridden by
 * the command line, with FILE:LINE in its messages; secrets kept out of
 * opts_json and --help; and parse_int_list, which turns "1-64:x2" into the
 * thread counts a sweep runs; opts_bind, which fills a typed struct once.
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

#include "core/options.h"

static const struct optdef defs[] = {
    {"config", OPT_STR, NULL, "read options from FILE"},
    {"threads", OPT_INT, "1", "client threads", NULL, 1, 1024},
    {"time", OPT_NUM, "10", "seconds to run", NULL, 0.5, 3600},
    {"verbose", OPT_BOOL, "off", "say more"},
    {"db-driver", OPT_CHOICE, "pgsql", "database engine", "pgsql|mysql"},
    {"tag", OPT_LIST, NULL, "labels, may be repeated"},
    {"pgsql-password", OPT_SECRET, "hunter2", "password"},
    {"name", OPT_STR, "plain", "a name"},
    {"offset", OPT_INT, "0", "unbounded (min == max)"},
    {"profile", OPT_CHOICE, "off", "a choice that is a flag too", "off|on|knee"},
};
#define NDEFS (sizeof defs / sizeof defs[0])

struct fixture {
    struct opts o;
    char err[512];
    char *pos[4];
    int npos;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    opts_init(&f->o, defs, NDEFS);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    opts_free(&f->o);
    free(f);
    return 0;
}

/* argv is NULL-terminated; argv[0] is the program, parsing starts at 1. */
static int parse(struct fixture *f, const char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    f->err[0] = '\0';
    return opts_parse_argv(&f->o, argc, (char **)argv, 1, f->pos, 4, &f->npos, f->err,
                           sizeof f->err);
}

/* A fresh option set per call, so one test can try many command lines. */
static int parse_fresh(struct fixture *f, const char **argv)
{
    opts_free(&f->o);
    opts_init(&f->o, defs, NDEFS);
    return parse(f, argv);
}

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/dbscale-test-options-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

static void test_defaults(void **state)
{
    struct fixture *f = *state;
    const char *argv[] = {"dbscale", NULL};
    assert_int_equal(parse(f, argv), 0);
    assert_int_equal(f->npos, 0);
    assert_int_equal(opts_int(&f->o, "threads"), 1);
    assert_float_equal(opts_num(&f->o, "time"), 10, 0);
    assert_int_equal(opts_bool(&f->o, "verbose"), 0);
    assert_string_equal(opts_str(&f->o, "db-driver"), "pgsql");
    assert_null(opts_str(&f->o, "tag"));
    assert_false(opts_isset(&f->o, "threads"));
}

static void test_forms(void **state)
{
    struct fixture *f = *state;
    const char *argv[] = {
        "dbscale", "run",      "--threads=4",       "--time",   "2.5", "--verbose",
        "second",  "--name=x", "--db-driver=mysql", "--offset", "-7",  NULL};
    assert_int_equal(parse(f, argv), 0);
    assert_int_equal(f->npos, 2);
    assert_string_equal(f->pos[0], "run");
    assert_string_equal(f->pos[1], "second"); /* a bare bool does not eat the next word */
    assert_int_equal(opts_int(&f->o, "threads"), 4);
    assert_float_equal(opts_num(&f->o, "time"), 2.5, 0);
    assert_int_equal(opts_bool(&f->o, "verbose"), 1);
    assert_string_equal(opts_str(&f->o, "name"), "x");
    assert_string_equal(opts_str(&f->o, "db-driver"), "mysql");
    assert_int_equal(opts_int(&f->o, "offset"), -7); /* min == max: unbounded */
    assert_true(opts_isset(&f->o, "threads"));
    assert_false(opts_isset(&f->o, "tag"));

    const char *bools[] = {"dbscale", "--verbose=off", NULL};
    assert_int_equal(parse_fresh(f, bools), 0);
    assert_int_equal(opts_bool(&f->o, "verbose"), 0);
    const char *bools2[] = {"dbscale", "--verbose=YES", NULL};
    assert_int_equal(parse_fresh(f, bools2), 0);
    assert_int_equal(opts_bool(&f->o, "verbose"), 1);

    /* the last of a repeated scalar wins */
    const char *again[] = {"dbscale", "--threads=2", "--threads", "8", NULL};
    assert_int_equal(parse_fresh(f, again), 0);
    assert_int_equal(opts_int(&f->o, "threads"), 8);

    /* "--" ends the options */
    const char *dd[] = {"dbscale", "--", "--threads=3", NULL};
    assert_int_equal(parse_fresh(f, dd), 0);
    assert_int_equal(f->npos, 1);
    assert_string_equal(f->pos[0], "--threads=3");
    assert_int_equal(opts_int(&f->o, "threads"), 1);

    const char *help[] = {"dbscale", "--threads=2", "--help", NULL};
    assert_int_equal(parse_fresh(f, help), 1);
    const char *h[] = {"dbscale", "-h", NULL};
    assert_int_equal(parse_fresh(f, h), 1);
}

/* A choice with "on" among its values is a flag too (--profile); one
 * without takes the next word as its value, as before. */
static void test_choice_flag(void **state)
{
    struct fixture *f = *state;
    const char *bare[] = {"dbscale", "--profile", "--threads=3", NULL};
    assert_int_equal(parse_fresh(f, bare), 0);
    assert_string_equal(opts_str(&f->o, "profile"), "on");
    assert_int_equal(opts_int(&f->o, "threads"), 3);
    const char *knee[] = {"dbscale", "--profile=knee", NULL};
    assert_int_equal(parse_fresh(f, knee), 0);
    assert_string_equal(opts_str(&f->o, "profile"), "knee");
    const char *bad[] = {"dbscale", "--profile=flames", NULL};
    assert_int_equal(parse_fresh(f, bad), -1);
    assert_non_null(strstr(f->err, "'flames'"));
    const char *next[] = {"dbscale", "--db-driver", "mysql", NULL};
    assert_int_equal(parse_fresh(f, next), 0);
    assert_string_equal(opts_str(&f->o, "db-driver"), "mysql");
}

static void test_unknown(void **state)
{
    struct fixture *f = *state;
    const char *typo[] = {"dbscale", "--thraeds=4", NULL};
    assert_int_equal(parse(f, typo), -1);
    assert_non_null(strstr(f->err, "--thraeds"));
    assert_non_null(strstr(f->err, "did you mean '--threads'"));

    /* without "=": the hint still comes, the next word is not taken as its value */
    const char *typo2[] = {"dbscale", "--verbos", NULL};
    assert_int_equal(parse_fresh(f, typo2), -1);
    assert_non_null(strstr(f->err, "did you mean '--verbose'"));

    const char *far[] = {"dbscale", "--completely-different=1", NULL};
    assert_int_equal(parse_fresh(f, far), -1);
    assert_non_null(strstr(f->err, "unknown option '--completely-different'"));
    assert_null(strstr(f->err, "did you mean"));

    const char *dash[] = {"dbscale", "-t", "4", NULL};
    assert_int_equal(parse_fresh(f, dash), -1);
    assert_non_null(strstr(f->err, "-t"));

    const char *many[] = {"dbscale", "a", "b", "c", "d", "e", NULL};
    assert_int_equal(parse_fresh(f, many), -1);
    assert_non_null(strstr(f->err, "'e'"));

    const char *noval[] = {"dbscale", "--threads", NULL};
    assert_int_equal(parse_fresh(f, noval), -1);
    assert_non_null(strstr(f->err, "--threads"));
}

static void expect_bad(struct fixture *f, const char *arg, const char *opt, const char *what)
{
    const char *argv[] = {"dbscale", arg, NULL};
    assert_int_equal(parse_fresh(f, argv), -1);
    if (!strstr(f->err, opt) || !strstr(f->err, what))
        fail_msg("%s: message '%s' should name '%s' and say '%s'", arg, f->err, opt, what);
}

static void test_bad_values(void **state)
{
    struct fixture *f = *state;
    expect_bad(f, "--threads=0", "--threads", "out of range");
    expect_bad(f, "--threads=1025", "--threads", "out of range");
    expect_bad(f, "--threads=abc", "--threads", "not a whole number");
    expect_bad(f, "--threads=4x", "--threads", "not a whole number");
    expect_bad(f, "--threads=2.5", "--threads", "not a whole number");
    expect_bad(f, "--threads=", "--threads", "not a whole number");
    expect_bad(f, "--time=0.1", "--time", "out of range");
    expect_bad(f, "--time=soon", "--time", "not a number");
    expect_bad(f, "--time=nan", "--time", "not a number");
    expect_bad(f, "--verbose=maybe", "--verbose", "not on/off");
    expect_bad(f, "--db-driver=oracle", "--db-driver", "'oracle' is not one of pgsql|mysql");
    expect_bad(f, "--db-driver=pg", "--db-driver", "not one of"); /* no prefix match */
    expect_bad(f, "--db-driver=pgsql|mysql", "--db-driver", "not one of");
    expect_bad(f, "--db-driver=", "--db-driver", "not one of");
    /* an empty text or list value is a slip (--out=), never a choice */
    expect_bad(f, "--name=", "--name", "empty value");
    expect_bad(f, "--tag=", "--tag", "empty value");
    /* the bounds themselves are allowed */
    const char *edge[] = {"dbscale", "--threads=1024", "--time=0.5", NULL};
    assert_int_equal(parse_fresh(f, edge), 0);
    assert_int_equal(opts_int(&f->o, "threads"), 1024);
}

static void test_list(void **state)
{
    struct fixture *f = *state;
    const char *argv[] = {"dbscale", "--tag=a", "--tag", "b", "--tag=c,d", NULL};
    assert_int_equal(parse(f, argv), 0);
    assert_string_equal(opts_str(&f->o, "tag"), "a,b,c,d");
    /* the values themselves, as given: a comma inside one is not a split
     * (shared_preload_libraries='a,b' is one server setting) */
    size_t n = 0;
    const char *const *v = opts_list(&f->o, "tag", &n);
    assert_int_equal(n, 3);
    assert_string_equal(v[0], "a");
    assert_string_equal(v[1], "b");
    assert_string_equal(v[2], "c,d");
    char *lines = opts_lines(&f->o, "tag");
    assert_string_equal(lines, "a\nb\nc,d");
    free(lines);
    const char *argv2[] = {"dbscale", "--tag=x='p,q'", "--tag", "y=1", NULL};
    assert_int_equal(parse_fresh(f, argv2), 0);
    v = opts_list(&f->o, "tag", &n);
    assert_int_equal(n, 2);
    assert_string_equal(v[0], "x='p,q'");
    /* unset and no default: no values */
    const char *argv3[] = {"dbscale", NULL};
    assert_int_equal(parse_fresh(f, argv3), 0);
    (void)opts_list(&f->o, "tag", &n);
    assert_int_equal(n, 0);
    assert_null(opts_lines(&f->o, "tag"));
}

static void test_config(void **state)
{
    struct fixture *f = *state;
    char *path = write_tmp("# a comment\n"
                           "[run]\n"
                           "threads = 8\n"
                           "time = 30\n"
                           "db-driver = mysql\n"
                           "--name = from-file\n"
                           "tag = x\n");
    const char *argv[] = {"dbscale", "--threads=16", "--config", path, "--tag=y", "word", NULL};
    assert_int_equal(parse(f, argv), 0);
    assert_int_equal(opts_int(&f->o, "threads"), 16); /* command line wins, wherever it is */
    assert_float_equal(opts_num(&f->o, "time"), 30, 0);
    assert_string_equal(opts_str(&f->o, "db-driver"), "mysql");
    assert_string_equal(opts_str(&f->o, "name"), "from-file");
    assert_string_equal(opts_str(&f->o, "tag"), "y"); /* the command line replaces a file's list */
    assert_int_equal(f->npos, 1);
    assert_string_equal(f->pos[0], "word"); /* the file name is not a positional */

    /* where each value came from */
    char line4[600];
    snprintf(line4, sizeof line4, "%s:4", path);
    assert_string_equal(f->o.where[2], line4); /* time */
    assert_string_equal(f->o.where[1], "command line");

    const char *eq[] = {"dbscale", NULL, NULL};
    char arg[600];
    snprintf(arg, sizeof arg, "--config=%s", path);
    eq[1] = arg;
    assert_int_equal(parse_fresh(f, eq), 0);
    assert_int_equal(opts_int(&f->o, "threads"), 8);
    assert_int_equal(f->npos, 0);
    unlink(path);
    free(path);

    const char *missing[] = {"dbscale", "--config", "/nonexistent/dbscale.ini", NULL};
    assert_int_equal(parse_fresh(f, missing), -1);
    assert_non_null(strstr(f->err, "/nonexistent/dbscale.ini"));
    const char *noname[] = {"dbscale", "--config", NULL};
    assert_int_equal(parse_fresh(f, noname), -1);
    assert_non_null(strstr(f->err, "--config"));
}

static void expect_ini_error(struct fixture *f, const char *text, int line, const char *what)
{
    char *path = write_tmp(text);
    const char *argv[] = {"dbscale", "--config", path, NULL};
    assert_int_equal(parse_fresh(f, argv), -1);
    char want[600];
    snprintf(want, sizeof want, "%s:%d:", path, line);
    if (!strstr(f->err, want) || !strstr(f->err, what))
        fail_msg("message '%s' should contain '%s' and '%s'", f->err, want, what);
    unlink(path);
    free(path);
}

static void test_config_errors(void **state)
{
    struct fixture *f = *state;
    expect_ini_error(f, "threads = 2\n\n; comment\n[s]\nthrads = 4\ntime = 3\n", 5,
                     "did you mean '--threads'");
    expect_ini_error(f, "time = 3\nthreads = 0\n", 2, "--threads");
    expect_ini_error(f, "# c\ndb-driver = oracle\n", 2, "not one of");
    expect_ini_error(f, "threads = 4\nthis line has no equals sign\ntime = 3\n", 2, "malformed");
    expect_ini_error(f, "threads = 4\n[unclosed\n", 2, "malformed");
    /* a good file followed by a bad command line still reports the command line */
    char *path = write_tmp("threads = 2\n");
    const char *argv[] = {"dbscale", "--config", path, "--threads=x", NULL};
    assert_int_equal(parse_fresh(f, argv), -1);
    assert_non_null(strstr(f->err, "command line"));
    unlink(path);
    free(path);
}

static void test_secret(void **state)
{
    struct fixture *f = *state;
    struct sbuf b = {0};
    opts_json(&f->o, &b);
    assert_null(strstr(b.s, "hunter2"));
    assert_null(strstr(b.s, "pgsql-password"));
    assert_non_null(strstr(b.s, "\"threads\": \"1\""));
    sbuf_free(&b);

    const char *argv[] = {
        "dbscale", "--pgsql-password=s3cret\"", "--threads=3", "--tag=a", "--tag=b", NULL};
    assert_int_equal(parse_fresh(f, argv), 0);
    assert_string_equal(opts_str(&f->o, "pgsql-password"), "s3cret\"");
    struct sbuf j = {0};
    opts_json(&f->o, &j);
    assert_null(strstr(j.s, "s3cret"));
    assert_null(strstr(j.s, "hunter2"));
    assert_non_null(strstr(j.s, "\"threads\": \"3\""));
    assert_non_null(strstr(j.s, "\"tag\": \"a,b\""));
    assert_int_equal(j.s[0], '{');
    assert_int_equal(j.s[strlen(j.s) - 1], '}');
    sbuf_free(&j);

    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    opts_help(&f->o, m);
    fclose(m);
    assert_null(strstr(text, "hunter2"));
    assert_null(strstr(text, "s3cret"));
    assert_non_null(strstr(text, "--pgsql-password"));
    assert_non_null(strstr(text, "[pgsql]"));     /* other defaults are shown */
    assert_non_null(strstr(text, "pgsql|mysql")); /* and the choices */
    free(text);
}

static void expect_list(const char *s, const long long *want, int n)
{
    long long out[128];
    int got = parse_int_list(s, out, 128);
    if (got != n)
        fail_msg("parse_int_list(\"%s\") = %d, want %d", s, got, n);
    for (int i = 0; i < n; i++)
        if (out[i] != want[i])
            fail_msg("parse_int_list(\"%s\")[%d] = %lld, want %lld", s, i, out[i], want[i]);
}

static void test_int_list(void **state)
{
    (void)state;
    expect_list("1,2,8", (long long[]){1, 2, 8}, 3);
    expect_list("7", (long long[]){7}, 1);
    expect_list("1-4", (long long[]){1, 2, 3, 4}, 4);
    expect_list("1-64:x2", (long long[]){1, 2, 4, 8, 16, 32, 64}, 7);
    expect_list("1-100:x2", (long long[]){1, 2, 4, 8, 16, 32, 64}, 7);
    expect_list("1-10:+3", (long long[]){1, 4, 7, 10}, 4);
    expect_list("2-9:3", (long long[]){2, 5, 8}, 3);
    expect_list("3-3", (long long[]){3}, 1);
    expect_list("1,4-6,32", (long long[]){1, 4, 5, 6, 32}, 5);

    const char *bad[] = {
        "",    "1,,2",   "4-1",  "1-8:x1", "a",      "1,",   ",1",    "1-",  "-",
        "1-a", "1-8:+0", "1-8:", "1-8:y2", "0-8:x2", "1 ,2", "1-8:x", "2.5", "1-4-8"};
    long long out[128];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (parse_int_list(bad[i], out, 128) != -1)
            fail_msg("parse_int_list(\"%s\") should be -1", bad[i]);
    /* more values than fit is an error, not a silent cut */
    assert_int_equal(parse_int_list("1-10", out, 9), -1);
    assert_int_equal(parse_int_list("1-10", out, 10), 10);
}

static void test_parse_helpers(void **state)
{
    (void)state;
    long long i;
    double d;
    int b;
    assert_int_equal(parse_int("-12", &i), 0);
    assert_int_equal(i, -12);
    assert_int_equal(parse_int("99999999999999999999", &i), -1);
    assert_int_equal(parse_int(" ", &i), -1);
    assert_int_equal(parse_num("1e3", &d), 0);
    assert_float_equal(d, 1000, 0);
    assert_int_equal(parse_num("inf", &d), -1);
    assert_int_equal(parse_bool("On", &b), 0);
    assert_int_equal(b, 1);
    assert_int_equal(parse_bool("0", &b), 0);
    assert_int_equal(b, 0);
    assert_int_equal(parse_bool("2", &b), -1);
}

/*
 * Regression tests for bugs these tests found in driver/options.c (all
 * fixed): each asserts the behaviour the header promises.
 */
static void test_bug_ini_list_repeat(void **state)
{
    /* A list option repeated on two lines of one file joins, as on the
     * command line (it used to keep only the last). */
    struct fixture *f = *state;
    char *path = write_tmp("tag = a\ntag = b\n");
    const char *argv[] = {"dbscale", "--config", path, NULL};
    int r = parse_fresh(f, argv);
    unlink(path);
    free(path);
    assert_int_equal(r, 0);
    assert_string_equal(opts_str(&f->o, "tag"), "a,b");
}

static void test_bug_ini_long_line(void **state)
{
    /* Debian's libinih reads lines into 200 bytes and used to cut a longer
     * value silently (and then count lines one ahead). Now the long line is
     * an error naming it. */
    struct fixture *f = *state;
    char text[600] = "name = ";
    for (int i = 0; i < 250; i++)
        strcat(text, "a");
    strcat(text, "\nthreads = zz\n");
    char *path = write_tmp(text);
    char want[600];
    snprintf(want, sizeof want, "%s:1: line too long", path);
    const char *argv[] = {"dbscale", "--config", path, NULL};
    int r = parse_fresh(f, argv);
    unlink(path);
    free(path);
    assert_int_equal(r, -1);
    assert_non_null(strstr(f->err, want));
}

static void test_bug_indented_key(void **state)
{
    /* libinih treats an indented line as a continuation of the previous
     * key; dbscale's reader strips the indent so it is a key of its own. */
    struct fixture *f = *state;
    char *path = write_tmp("time = 3\n  threads = 8\n");
    const char *argv[] = {"dbscale", "--config", path, NULL};
    int r = parse_fresh(f, argv);
    unlink(path);
    free(path);
    assert_int_equal(r, 0);
    assert_int_equal(opts_int(&f->o, "threads"), 8);
}

static void test_bug_config_prefix(void **state)
{
    /* The --config pre-pass must not take --configure for --config. */
    struct fixture *f = *state;
    const char *argv[] = {"dbscale", "--configure=1", NULL};
    assert_int_equal(parse_fresh(f, argv), -1);
    assert_non_null(strstr(f->err, "unknown option"));
}

/* opts_bind: each binding's value lands in its field, typed, from the
 * command line or the default; a name the table lacks is an error naming
 * it, not an abort in a level later. */
struct bound {
    long long threads;
    double time;
    int verbose;
    const char *driver, *name;
};

static void test_bind(void **state)
{
    struct fixture *f = *state;
    const char *argv[] = {"dbscale", "--threads=12", "--verbose", "--db-driver=mysql", NULL};
    assert_int_equal(parse_fresh(f, argv), 0);
    static const struct opt_bind b[] = {
        {"threads", OPT_INT, offsetof(struct bound, threads)},
        {"time", OPT_NUM, offsetof(struct bound, time)},
        {"verbose", OPT_BOOL, offsetof(struct bound, verbose)},
        {"db-driver", OPT_STR, offsetof(struct bound, driver)},
        {"name", OPT_STR, offsetof(struct bound, name)},
    };
    struct bound v = {0};
    assert_int_equal(opts_bind(&f->o, b, 5, &v, f->err, sizeof f->err), 0);
    assert_int_equal(v.threads, 12);
    assert_true(v.time == 10.0); /* the default */
    assert_int_equal(v.verbose, 1);
    assert_string_equal(v.driver, "mysql");
    assert_string_equal(v.name, "plain");
    static const struct opt_bind bad[] = {{"no-such", OPT_STR, offsetof(struct bound, name)}};
    assert_int_equal(opts_bind(&f->o, bad, 1, &v, f->err, sizeof f->err), -1);
    assert_non_null(strstr(f->err, "'no-such'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_choice_flag, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list, setup, teardown),
        cmocka_unit_test_setup_teardown(test_config, setup, teardown),
        cmocka_unit_test_setup_teardown(test_config_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_secret, setup, teardown),
        cmocka_unit_test(test_int_list),
        cmocka_unit_test(test_parse_helpers),
        cmocka_unit_test_setup_teardown(test_bug_ini_list_repeat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bug_ini_long_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bug_indented_key, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bug_config_prefix, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bind, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
