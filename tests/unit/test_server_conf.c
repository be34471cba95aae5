/*
 * test_server_conf.c - the two loopback guards of the throwaway servers:
 * extra config lines that would move a server (directly, through an include
 * or through the way mysqld reads keys) are refused and lines that only tune
 * pass; and the socket-table scan flags a server socket bound beyond
 * 127.0.0.0/8 and ::1, in IPv4, IPv6 and v4-mapped form, ignoring sockets that
 * are not the server's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "servers/server_engine.h"

static void refuses_managed_and_indirect(void **state)
{
    (void)state;
    static const char *const pg_bad[] = {
        "listen_addresses='*'", "include '/tmp/x.conf'",  "include_if_exists=/tmp/x",
        "include_dir=/tmp",     "  Include_Dir = '/tmp'", "[client]",
        "work_mem=1MB\nport=1",
    };
    static const char *const my_bad[] = {
        "bind-address=0.0.0.0",
        "loose-bind-address=0.0.0.0",
        "loose_loose_bind_address=::",
        "bind-addr=0.0.0.0",
        "bind=::",
        "!include /tmp/x.cnf",
        "[client]",
        "skip-grant-tables",
        "loose-skip-networking",
        "max_connections=9\nport=1",
    };
    for (size_t i = 0; i < sizeof pg_bad / sizeof pg_bad[0]; i++) {
        char err[512] = "";
        assert_int_equal(server_conf_check(SERVER_PGSQL, pg_bad[i], err, sizeof err), -1);
        assert_true(err[0]);
    }
    for (size_t i = 0; i < sizeof my_bad / sizeof my_bad[0]; i++) {
        char err[512] = "";
        assert_int_equal(server_conf_check(SERVER_MYSQL, my_bad[i], err, sizeof err), -1);
        assert_true(err[0]);
    }
}

static void passes_tuning(void **state)
{
    (void)state;
    static const char *const pg_good[] = {
        "max_connections=300", "shared_buffers = 1GB\nwork_mem=4MB", "log_statement=all",
        "enable_seqscan=off",  "enable_partitionwise_join=on",       "# a comment\n\n",
    };
    static const char *const my_good[] = {
        "max_connections=300",
        "innodb_buffer_pool_size=1G",
        "# a comment\n\n; another",
        "innodb-flush-log-at-trx-commit=2",
        "general_log=1",
    };
    for (size_t i = 0; i < sizeof pg_good / sizeof pg_good[0]; i++) {
        char err[512] = "";
        assert_int_equal(server_conf_check(SERVER_PGSQL, pg_good[i], err, sizeof err), 0);
    }
    for (size_t i = 0; i < sizeof my_good / sizeof my_good[0]; i++) {
        char err[512] = "";
        assert_int_equal(server_conf_check(SERVER_MYSQL, my_good[i], err, sizeof err), 0);
    }
}

#define HDR                                                                                        \
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout "  \
    "inode\n"

static void scan_flags_beyond_loopback(void **state)
{
    (void)state;
    static const char v4[] =
        HDR "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000   "
            "106        0 1111 1 0000000000000000 100 0 0 10 0\n"
            "   1: 00000000:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000   "
            "106        0 2222 1 0000000000000000 100 0 0 10 0\n";
    static const char v6[] =
        HDR "   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A "
            "00000000:00000000 00:00000000 00000000   106        0 3333 1\n"
            "   1: 0000000000000000FFFF00000100007F:1F92 00000000000000000000000000000000:0000 0A "
            "00000000:00000000 00:00000000 00000000   106        0 4444 1\n"
            "   2: 00000000000000000000000000000000:1F93 00000000000000000000000000000000:0000 0A "
            "00000000:00000000 00:00000000 00000000   106        0 5555 1\n";
    char bad[80];
    unsigned long loop[] = {1111, 3333, 4444};
    assert_int_equal(server_listen_scan(v4, loop, 3, bad, sizeof bad), 0);
    assert_int_equal(server_listen_scan(v6, loop, 3, bad, sizeof bad), 0);
    unsigned long any4[] = {1111, 2222};
    assert_int_equal(server_listen_scan(v4, any4, 2, bad, sizeof bad), -1);
    assert_string_equal(bad, "0.0.0.0:8081");
    unsigned long any6[] = {5555};
    assert_int_equal(server_listen_scan(v6, any6, 1, bad, sizeof bad), -1);
    assert_string_equal(bad, "[::]:8083");
    unsigned long none[] = {9};
    assert_int_equal(server_listen_scan(v4, none, 1, bad, sizeof bad), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refuses_managed_and_indirect),
        cmocka_unit_test(passes_tuning),
        cmocka_unit_test(scan_flags_beyond_loopback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
