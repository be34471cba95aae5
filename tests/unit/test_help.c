/*
 * test_help.c - `WORKLOAD help` in sysbench's columns (description at
 * column 32, '_' names, [=on|off] for booleans, sorted, the workload's own
 * options only), prepare/cleanup/prewarm listing only what they use, and
 * every verb of the table having an option table the help can draw, with
 * no option in it twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs/help.h"
#include "verbs/verb_table.h"

static char *workload_help(const char *w, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    *rc = help_workload(f, w);
    fclose(f);
    return buf;
}

static void sysbench_columns(void **state)
{
    (void)state;
    int rc;
    char *out = workload_help("oltp_read_only", &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "\noltp_read_only options:\n"));
    assert_non_null(strstr(out, "\n  --table_size=N                Rows per table"));
    assert_non_null(strstr(out, "\n  --skip_trx[=on|off]           "));
    assert_null(strstr(out, "--threads"));
    assert_null(strstr(out, "--random_points"));
    /* sorted, every description at column 32 (or one blank after a long name) */
    char prev[64] = "";
    int lines = 0;
    for (char *l = strstr(out, "\n  --"); l; l = strstr(l + 1, "\n  --")) {
        char name[64];
        assert_int_equal(sscanf(l + 5, "%63[a-z_]", name), 1);
        assert_true(strcmp(prev, name) < 0);
        snprintf(prev, sizeof prev, "%s", name);
        const char *sp = strchr(l + 3, ' ');
        assert_true(sp - (l + 1) <= 31);
        assert_true(strlen(l + 1) > 32 && l[1 + 31] == ' ' && l[1 + 32] != ' ');
        lines++;
    }
    assert_true(lines >= 17);
    free(out);
    out = workload_help("select_random_ranges", &rc);
    assert_non_null(strstr(out, "--number_of_ranges=N"));
    assert_non_null(strstr(out, "--delta=N"));
    free(out);
    out = workload_help("no_such_workload", &rc);
    assert_int_equal(rc, -1);
    free(out);
}

static void load_verbs_list_theirs(void **state)
{
    (void)state;
    assert_true(verb_table_uses("prepare", "table-size"));
    assert_true(verb_table_uses("prepare", "pgsql-host"));
    assert_false(verb_table_uses("prepare", "time"));
    assert_false(verb_table_uses("prepare", "point-selects"));
    assert_false(verb_table_uses("prepare", "mysql-ignore-errors"));
    assert_true(verb_table_uses("cleanup", "tables"));
    assert_false(verb_table_uses("cleanup", "table-size"));
    assert_true(verb_table_uses("prewarm", "threads"));
    assert_true(verb_table_uses("run", "point-selects"));
}

static void every_verb_has_a_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < verb_table_n; i++) {
        size_t n = 0;
        struct verb_opt *o = verb_table_opts(verb_table[i].name, &n);
        assert_true(n > 0);
        for (size_t k = 0; k < n; k++)
            assert_true(o[k].name[0] && o[k].meta[0] && o[k].text[0]);
        verb_table_opts_free(o, n);
    }
    size_t nr, np;
    struct verb_opt *p = verb_table_opts("prepare", &np);
    verb_table_opts_free(p, np);
    /* the line --help prints, taken apart */
    struct verb_opt *o = verb_table_opts("run", &nr);
    assert_true(np < nr);
    int seen = 0;
    for (size_t k = 0; k < nr; k++)
        if (!strcmp(o[k].name, "table-size")) {
            assert_true(o[k].meta[0] != '\0');
            assert_string_equal(o[k].def, "10000");
            seen = 1;
        }
    assert_true(seen);
    verb_table_opts_free(o, nr);
}

/* No verb's table names an option twice: the first would win every
 * look-up and --help, the man page and the completion list it twice. */
static void no_option_twice(void **state)
{
    (void)state;
    for (size_t i = 0; i < verb_table_n; i++) {
        size_t n = 0;
        struct optdef *d = verb_table_optdefs(verb_table[i].name, &n);
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++)
                if (!strcmp(d[a].name, d[b].name))
                    fail_msg("dbscale %s: --%s is in its table twice", verb_table[i].name,
                             d[a].name);
        free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sysbench_columns),
        cmocka_unit_test(load_verbs_list_theirs),
        cmocka_unit_test(every_verb_has_a_table),
        cmocka_unit_test(no_option_twice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
