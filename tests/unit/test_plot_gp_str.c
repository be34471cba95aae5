/*
 * test_plot_gp_str.c - plot_gp_str() makes any text an inert gnuplot string
 * that gnuplot 5.4 also parses: a single-quoted string, '' for a quote. Its
 * scanner reads a string opening with '' as an empty string followed by
 * junk ('''y' fails: "unrecognized token"), so a label whose text starts
 * with a quote broke the whole script.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "plot/plot_gp_text.h"

static char *quoted(const char *s)
{
    static char out[256];
    struct sbuf b = {0};
    plot_gp_str(&b, s);
    snprintf(out, sizeof out, "%s", b.s);
    sbuf_free(&b);
    return out;
}

static void test_plain_and_quotes(void **st)
{
    (void)st;
    assert_string_equal(quoted("abc"), "'abc'");
    assert_string_equal(quoted("a'b"), "'a''b'");
    assert_string_equal(quoted("a\nb"), "'a b'");
    assert_string_equal(quoted(""), "''");
}

static void test_leading_quote_never_opens_with_two(void **st)
{
    (void)st;
    const char *q = quoted("'.system('x').'");
    assert_true(strncmp(q, "'''", 3) != 0);
    assert_string_equal(q, "' ''.system(''x'').'''");
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(test_plain_and_quotes),
        cmocka_unit_test(test_leading_quote_never_opens_with_two),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
