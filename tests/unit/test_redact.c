/*
 * test_redact.c - conninfo passwords never survive redact_conninfo in any
 * form libpq reads (keyword password=, URI userinfo, URI ?password=,
 * sslpassword), a conninfo without secrets is kept as given, an unparsable
 * one is not shown at all, and redact_opts_json masks conninfo options.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/redact.h"

static void masks_every_form(void **state)
{
    (void)state;
    static const char *const forms[] = {
        "host=h port=5 user=u password=S3cretPw dbname=d",
        "host=h password='S3cretPw' sslpassword=S3cretPw",
        "postgresql://u:S3cretPw@h:5/d",
        "postgresql://u@h:5/d?password=S3cretPw",
        "postgres://u:S3cretPw@h/d?sslpassword=S3cretPw&sslmode=disable",
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char out[512];
        assert_int_equal(redact_conninfo(forms[i], out, sizeof out), 1);
        assert_null(strstr(out, "S3cretPw"));
        assert_non_null(strstr(out, REDACT_MASK));
        assert_non_null(strstr(out, "host='h'"));
    }
}

static void keeps_what_has_no_secret(void **state)
{
    (void)state;
    char out[256];
    assert_int_equal(redact_conninfo("host=h dbname=d", out, sizeof out), 0);
    assert_string_equal(out, "host=h dbname=d");
    assert_int_equal(redact_conninfo("postgresql://u@h/d", out, sizeof out), 0);
    assert_string_equal(out, "postgresql://u@h/d");
}

static void hides_what_it_cannot_parse(void **state)
{
    (void)state;
    char out[256];
    assert_int_equal(redact_conninfo("host=h password='S3cretPw", out, sizeof out), -1);
    assert_null(strstr(out, "S3cretPw"));
    assert_int_equal(redact_conninfo("password=S3cretPw", out, 8), -1);
    assert_null(strstr(out, "S3cr"));
}

static void opts_json_masks_conninfo(void **state)
{
    (void)state;
    static const struct optdef defs[] = {
        {"pgsql-conninfo", OPT_STR, NULL, "conninfo"},
        {"threads", OPT_INT, "1", "threads", NULL, 1, 8},
    };
    struct opts o;
    char err[256];
    opts_init(&o, defs, 2);
    assert_int_equal(
        opts_set(&o, "pgsql-conninfo", "postgresql://u:S3cretPw@h/d", "test", err, sizeof err), 0);
    struct sbuf b = {0};
    redact_opts_json(&o, &b);
    assert_null(strstr(b.s, "S3cretPw"));
    assert_non_null(strstr(b.s, "pgsql-conninfo"));
    assert_non_null(strstr(b.s, "threads"));
    assert_string_equal(opts_str(&o, "pgsql-conninfo"), "postgresql://u:S3cretPw@h/d");
    sbuf_free(&b);
    opts_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(masks_every_form),
        cmocka_unit_test(keeps_what_has_no_secret),
        cmocka_unit_test(hides_what_it_cannot_parse),
        cmocka_unit_test(opts_json_masks_conninfo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
