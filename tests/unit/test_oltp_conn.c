/*
 * test_oltp_conn.c - connection options as db_targets (client/oltp_conn.c):
 * only what was given is a field, sysbench's defaults are fallbacks, and
 * --mysql-ssl takes sysbench 1.0's and later sysbench's words; contradictory
 * TLS options are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "client/oltp_conn.h"
#include "engines/db_mysql_conn.h"

static int build(struct oltp_setup *s, struct opts *o, const char *driver, char **args, int n,
                 char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    opts_init(o, oltp_optdefs(), oltp_noptdefs());
    assert_int_equal(opts_set(o, "db-driver", driver, "test", err, errlen), 0);
    for (int i = 0; i < n; i += 2)
        assert_int_equal(opts_set(o, args[i], args[i + 1], "test", err, errlen), 0);
    s->ops = db_find(driver);
    return oltp_conn_targets(s, o, err, errlen);
}

static void done(struct oltp_setup *s, struct opts *o)
{
    free(s->targets);
    free(s->hosts);
    opts_free(o);
}

static void test_defaults_are_fallbacks(void **state)
{
    (void)state;
    struct oltp_setup s;
    struct opts o;
    char err[256];
    assert_int_equal(build(&s, &o, "pgsql", NULL, 0, err, sizeof err), 0);
    assert_int_equal(s.ntargets, 1);
    const struct db_target *t = &s.targets[0];
    assert_null(t->host);
    assert_int_equal(t->port, 0);
    assert_null(t->user);
    assert_null(t->db);
    assert_string_equal(t->fallback_host, "localhost");
    assert_int_equal(t->fallback_port, 5432);
    assert_string_equal(t->fallback_user, "sbtest");
    assert_string_equal(t->fallback_db, "sbtest");
    done(&s, &o);

    char *a[] = {"mysql-host", "h1,h2", "mysql-port", "3307", "mysql-user", "u"};
    assert_int_equal(build(&s, &o, "mysql", a, 6, err, sizeof err), 0);
    assert_int_equal(s.ntargets, 2);
    assert_string_equal(s.targets[1].host, "h2");
    assert_int_equal(s.targets[1].port, 3307);
    assert_string_equal(s.targets[1].user, "u");
    assert_null(s.targets[1].db);
    assert_string_equal(s.targets[1].fallback_db, "sbtest");
    assert_int_equal(s.targets[1].ssl, DB_SSL_DEFAULT);
    done(&s, &o);
}

static void test_socket_is_localhost(void **state)
{
    (void)state;
    struct oltp_setup s;
    struct opts o;
    char err[256];
    char *a[] = {"mysql-socket", "/tmp/x.sock"};
    assert_int_equal(build(&s, &o, "mysql", a, 2, err, sizeof err), 0);
    assert_string_equal(s.targets[0].host, "localhost");
    done(&s, &o);
}

static void test_ssl_modes(void **state)
{
    (void)state;
    enum db_ssl m;
    assert_int_equal(db_mysql_ssl_mode("on", &m), 0);
    assert_int_equal(m, DB_SSL_REQUIRED);
    assert_int_equal(db_mysql_ssl_mode("OFF", &m), 0);
    assert_int_equal(m, DB_SSL_DISABLED);
    assert_int_equal(db_mysql_ssl_mode("verify_identity", &m), 0);
    assert_int_equal(m, DB_SSL_VERIFY_IDENTITY);
    assert_int_equal(db_mysql_ssl_mode("PREFERRED", &m), 0);
    assert_int_equal(m, DB_SSL_PREFERRED);
    assert_int_equal(db_mysql_ssl_mode("yes please", &m), -1);
}

static void test_ssl_conflicts(void **state)
{
    (void)state;
    struct oltp_setup s;
    struct opts o;
    char err[256];
    /* a file asks for TLS */
    char *ca[] = {"mysql-ssl-ca", "/etc/hostname"};
    assert_int_equal(build(&s, &o, "mysql", ca, 2, err, sizeof err), 0);
    assert_int_equal(s.targets[0].ssl, DB_SSL_REQUIRED);
    done(&s, &o);
    char *off[] = {"mysql-ssl", "off", "mysql-ssl-ca", "/etc/hostname"};
    assert_int_equal(build(&s, &o, "mysql", off, 4, err, sizeof err), -1);
    assert_non_null(strstr(err, "contradict"));
    done(&s, &o);
    char *half[] = {"mysql-ssl-cert", "/etc/hostname"};
    assert_int_equal(build(&s, &o, "mysql", half, 2, err, sizeof err), -1);
    done(&s, &o);
    char *missing[] = {"mysql-ssl-ca", "/nonexistent/ca.pem"};
    assert_int_equal(build(&s, &o, "mysql", missing, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "--mysql-ssl-ca"));
    done(&s, &o);
    char *bad[] = {"mysql-ssl", "maybe"};
    assert_int_equal(build(&s, &o, "mysql", bad, 2, err, sizeof err), -1);
    done(&s, &o);
    char *comp[] = {"mysql-compression", "on"};
    assert_int_equal(build(&s, &o, "mysql", comp, 2, err, sizeof err), 0);
    assert_int_equal(s.targets[0].compression, 1);
    done(&s, &o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_fallbacks),
        cmocka_unit_test(test_socket_is_localhost),
        cmocka_unit_test(test_ssl_modes),
        cmocka_unit_test(test_ssl_conflicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
