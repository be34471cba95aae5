/*
 * test_page_command.c - the report page's reproduce line (page_command) and
 * what meta.json keeps for it (meta_command_words): only what the user set,
 * the workload first; from an older meta.json, the options that differ from
 * their defaults, of the study's engine only; a key that names no option
 * never reaches the line (issue 28: `x;touch /tmp/PWNED;#`), and every word
 * is quoted for a POSIX shell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "results/meta_command.h"
#include "core/options.h"
#include "page/page.h"
#include "page/page_study.h"
#include "analysis/curves.h"
#include "verbs/verbs.h"

static struct optdef *defs;
static size_t ndefs;

static int setup(void **state)
{
    (void)state;
    defs = sweep_verb_optdefs(&ndefs);
    page_known_options(defs, ndefs);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    page_known_options(NULL, 0);
    free(defs);
    return 0;
}

/* page_command over a meta.json given as text: the line, or "-" for none */
static char *line_of(const char *meta_json, int *left_out)
{
    struct curves_dir d;
    memset(&d, 0, sizeof d);
    d.meta = json_loads(meta_json, 0, NULL);
    assert_non_null(d.meta);
    struct sbuf b = {0};
    char *r = page_command(&d, &b, left_out) == 0 ? xstrdup(b.s) : xstrdup("-");
    sbuf_free(&b);
    json_decref(d.meta);
    return r;
}

static void test_hostile_key_left_out(void **state)
{
    (void)state;
    int lo;
    char *l = line_of("{\"engine\": \"pgsql\", \"options\": {\"workload\": \"oltp_read_only\", "
                      "\"x;touch /tmp/PWNED;#\": \"1\", \"threads\": \"1,2\", "
                      "\"pgsql-host\": \"a b'c\", \"mysql-host\": \"localhost\", "
                      "\"pgsql-password\": \"secret\", \"out\": \"/r\"}}",
                      &lo);
    assert_string_equal(l, "dbscale sweep oltp_read_only --threads=1,2 --pgsql-host='a b'\\''c'");
    assert_int_equal(lo, 1); /* the hostile key; the password and --out are never counted */
    free(l);
}

/* An older meta.json holds every default of both engines: only what
 * differs reaches the line, so it does not conflict with itself. */
static void test_defaults_and_other_engine_left_out(void **state)
{
    (void)state;
    int lo;
    char *l = line_of("{\"engine\": \"pgsql\", \"options\": {\"workload\": \"oltp_point_select\", "
                      "\"db-driver\": \"pgsql\", \"repeats\": \"3\", \"time\": \"30\", "
                      "\"mysql-host\": \"localhost\", \"mysql-port\": \"3306\", "
                      "\"pgsql-port\": \"5432\", \"tables\": \"1\"}}",
                      &lo);
    assert_string_equal(l, "dbscale sweep oltp_point_select --db-driver=pgsql --time=30");
    assert_int_equal(lo, 0);
    free(l);
    /* no workload: no line that would run */
    l = line_of("{\"options\": {\"threads\": \"1\"}}", &lo);
    assert_string_equal(l, "-");
    free(l);
}

static void test_command_words(void **state)
{
    (void)state;
    int lo;
    char *l = line_of("{\"command\": [\"oltp_read_only\", \"--x;touch /tmp/PWNED;#=1\", "
                      "\"--threads=1,2\", \"`touch /tmp/PWNED`\", \"--server-conf=a='b'\", "
                      "\"--no-such-option=1\", \"--out=/somewhere\"]}",
                      &lo);
    assert_string_equal(l,
                        "dbscale sweep oltp_read_only --threads=1,2 --server-conf='a='\\''b'\\'''");
    assert_int_equal(lo, 3); /* --out is left out on purpose, not counted */
    free(l);
    /* a script's own options are in no table the page has: shaped like an
     * option, they stay (quoted); anything else does not */
    l = line_of("{\"command\": [\"./kit.lua\", \"--scale=2\", \"--a;b=1\"]}", &lo);
    assert_string_equal(l, "dbscale sweep ./kit.lua --scale=2");
    assert_int_equal(lo, 1);
    free(l);
}

/* What the sweep writes: the workload, then only what was set, a repeated
 * option one word per value, no secret, no --out / --append / --config. */
static void test_words_from_options(void **state)
{
    (void)state;
    struct opts o;
    opts_init(&o, defs, ndefs);
    char *argv[] = {"sweep",
                    "oltp_read_only",
                    "--db-driver=pgsql",
                    "--threads=1,2",
                    "--pgsql-password=secret",
                    "--server-conf=a=1,2",
                    "--server-conf=b=3",
                    "--out=/r",
                    "--append",
                    NULL};
    char *pos[1], err[256];
    int npos;
    assert_int_equal(opts_parse_argv(&o, 9, argv, 1, pos, 1, &npos, err, sizeof err), 0);
    json_t *w = meta_command_words(&o, "oltp_read_only");
    char *text = json_dumps(w, JSON_COMPACT);
    assert_string_equal(text, "[\"oltp_read_only\",\"--threads=1,2\",\"--db-driver=pgsql\","
                              "\"--server-conf=a=1,2\",\"--server-conf=b=3\"]");
    free(text);
    json_decref(w);
    opts_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_key_left_out),
        cmocka_unit_test(test_defaults_and_other_engine_left_out),
        cmocka_unit_test(test_command_words),
        cmocka_unit_test(test_words_from_options),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
