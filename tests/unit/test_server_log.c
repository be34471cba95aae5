/*
 * test_server_log.c - what a failed server start says of its log: the last
 * lines, and the first error line when the engine buried it above them (a
 * mariadb-install-db failure ends with a page of advice; the cause, a
 * "[ERROR]" or "ERROR:" line, sits at the top), never the same line twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "servers/server_engine.h"

static const char install_db[] =
    "Installing MariaDB/MySQL system tables in '/tmp/x/data' ...\n"
    "ERROR: 6  Error on delete of '/tmp/#sql-temptable-49e1-1-27.MAI' (Errcode: 2)\n"
    "2026-12-03  1:53:57 0 [ERROR] Aborting\n"
    "\n"
    "Installation of system tables failed!  Examine the logs in\n"
    "/tmp/x/data for more information.\n"
    "\n"
    "The latest information about mysql_install_db is available at\n"
    "https://mariadb.com/docs/server/clients-and-utilities/deployment-tools/mariadb-install-db\n"
    "You can find the latest source at https://downloads.mariadb.org and\n"
    "the MariaDB discuss email list at https://lists.mariadb.org/\n"
    "\n"
    "Please check all of the above before submitting a bug report\n"
    "at https://mariadb.org/jira\n\n";

static void buried_error_is_named(void **state)
{
    (void)state;
    char log[sizeof install_db], err[1024] = "mariadb-install-db failed (exit 1)";
    memcpy(log, install_db, sizeof install_db);
    server_log_note(log, err, sizeof err);
    assert_non_null(strstr(err, "failed (exit 1); the server log says:\nERROR: 6  Error on delete "
                                "of '/tmp/#sql-temptable-49e1-1-27.MAI' (Errcode: 2)\n..."));
    /* the first error, not the later one */
    assert_null(strstr(err, "Aborting"));
    assert_non_null(strstr(err, "... the server log ends:\nhttps://mariadb.com/docs/"));
    /* ends with the log's last line, trailing blank lines trimmed */
    const char *end = "at https://mariadb.org/jira";
    assert_string_equal(err + strlen(err) - strlen(end), end);
}

static void error_in_tail_said_once(void **state)
{
    (void)state;
    char log[] = "starting\n"
                 "2026-12-03 01:00:00 UTC [1] FATAL:  invalid value for parameter \"port\"\n"
                 "2026-12-03 01:00:00 UTC [1] LOG:  database system is shut down\n";
    char err[512] = "postgres failed";
    server_log_note(log, err, sizeof err);
    assert_string_equal(err,
                        "postgres failed; the server log ends:\nstarting\n"
                        "2026-12-03 01:00:00 UTC [1] FATAL:  invalid value for parameter \"port\"\n"
                        "2026-12-03 01:00:00 UTC [1] LOG:  database system is shut down");
}

static void no_error_only_tail(void **state)
{
    (void)state;
    char log[] = "1\n2\n3\n4\n5\n6\n7\n8\n";
    char err[64] = "x";
    server_log_note(log, err, sizeof err);
    assert_string_equal(err, "x; the server log ends:\n3\n4\n5\n6\n7\n8");
}

static void small_buffer_truncates(void **state)
{
    (void)state;
    char log[sizeof install_db], err[40] = "mariadb-install-db failed";
    memcpy(log, install_db, sizeof install_db);
    server_log_note(log, err, sizeof err);
    assert_true(strlen(err) < sizeof err);
    assert_memory_equal(err, "mariadb-install-db failed", 25);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(buried_error_is_named),
        cmocka_unit_test(error_in_tail_said_once),
        cmocka_unit_test(no_error_only_tail),
        cmocka_unit_test(small_buffer_truncates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
