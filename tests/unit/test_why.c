/*
 * test_why.c - the why room's pure parts: /proc/stat's per-CPU lines become
 * seconds per field for the held CPUs only; task counters subtract task by
 * task (a task born in the window counts whole, one gone is lost); perf
 * script's text folds into stacks as stackcollapse-perf does (outermost
 * first, kernel frames marked, unnamed symbols by their object, C++
 * arguments cut, a comm with spaces kept whole); --waits values per engine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "why/why_internal.h"

static void test_stat(void **st)
{
    (void)st;
    const char *a = "cpu  100 0 50 1000 10 0 5 0 0 0\n"
                    "cpu0 10 2 20 500 4 1 2 3 0 0\n"
                    "cpu1 90 0 30 500 6 0 3 0 0 0\n"
                    "intr 12345\n";
    const char *b = "cpu  200 0 90 1100 10 0 5 0 0 0\n"
                    "cpu0 60 12 40 520 4 3 6 4 0 0\n"
                    "cpu1 190 0 70 560 6 0 3 0 0 0\n";
    struct why_stat s0, s1;
    assert_int_equal(why_stat_parse(&s0, a, "0"), 0);
    assert_int_equal(why_stat_parse(&s1, b, "0"), 0);
    assert_int_equal(s0.n, 1); /* only the held CPU */
    struct why_result r;
    memset(&r, 0, sizeof r);
    why_stat_rows(&s0, &s1, &r);
    assert_int_equal(r.ncpu, 1);
    double hz = (double)sysconf(_SC_CLK_TCK);
    assert_int_equal(r.cpu[0].cpu, 0);
    assert_true(r.cpu[0].s[WHY_USER] == 60 / hz); /* user 50 + nice 10 */
    assert_true(r.cpu[0].s[WHY_SYSTEM] == 20 / hz);
    assert_true(r.cpu[0].s[WHY_IDLE] == 20 / hz);
    assert_true(r.cpu[0].s[WHY_IRQ] == 2 / hz);
    assert_true(r.cpu[0].s[WHY_SOFTIRQ] == 4 / hz);
    assert_true(r.cpu[0].s[WHY_STEAL] == 1 / hz);
    assert_true(r.cpu[0].s[WHY_IOWAIT] == 0);
    why_result_free(&r);
    why_stat_free(&s0);
    why_stat_free(&s1);
    assert_int_equal(why_stat_parse(&s0, a, "0-1"), 0);
    assert_int_equal(s0.n, 2);
    why_stat_free(&s0);
}

static void test_tasks(void **st)
{
    (void)st;
    struct why_task ta[] = {{.tid = 10,
                             .vol = 100,
                             .invol = 5,
                             .migr = 1,
                             .run_ns = 1000000000,
                             .has_sched = 1,
                             .has_schedstat = 1},
                            {.tid = 11, .vol = 50, .utime = 10}};
    struct why_task tb[] = {{.tid = 11, .vol = 80, .utime = 30, .stime = 5},
                            {.tid = 10,
                             .vol = 160,
                             .invol = 9,
                             .migr = 4,
                             .run_ns = 3000000000,
                             .has_sched = 1,
                             .has_schedstat = 1},
                            {.tid = 12, .vol = 7, .wait_ns = 500000000, .has_schedstat = 1}};
    struct why_tasks a = {ta, 2, 2}, b = {tb, 3, 3};
    struct why_sched s;
    why_tasks_delta(&a, &b, &s);
    assert_int_equal(s.tasks, 3);
    assert_true(s.voluntary == 60 + 30 + 7);
    assert_true(s.involuntary == 4);
    assert_true(s.migrations == 3);
    assert_true(s.run_s == 2.0);
    assert_true(s.runq_s == 0.5);
    double hz = (double)sysconf(_SC_CLK_TCK);
    assert_true(s.user_s == 20 / hz && s.system_s == 5 / hz);
    /* a kernel without SCHED_DEBUG and SCHEDSTATS: migrations and run-queue
     * time not measured (NAN), never 0 */
    for (size_t i = 0; i < 3; i++)
        tb[i].has_sched = tb[i].has_schedstat = 0;
    why_tasks_delta(&a, &b, &s);
    assert_true(isnan(s.migrations) && isnan(s.run_s) && isnan(s.runq_s));
    assert_true(s.voluntary == 60 + 30 + 7);
}

static const char script[] =
    "postgres 4711 1001001 \n"
    "\tffffffff81e7f080 __x64_sys_sendto+0x10 ([kernel.kallsyms])\n"
    "\tffffffff8225a101 do_syscall_64 ([kernel.kallsyms])\n"
    "\t          10ab59 __send (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\t          34b06c [unknown] (/usr/lib/postgresql/15/bin/postgres)\n"
    "\t          2fba8c standard_ExecutorRun (/usr/lib/postgresql/15/bin/postgres)\n"
    "\n"
    "postgres 4711 1001001 \n"
    "\tffffffff81e7f080 __x64_sys_sendto ([kernel.kallsyms])\n"
    "\tffffffff8225a101 do_syscall_64 ([kernel.kallsyms])\n"
    "\t          10ab59 __send (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\t          34b06c [unknown] (/usr/lib/postgresql/15/bin/postgres)\n"
    "\t          2fba8c standard_ExecutorRun (/usr/lib/postgresql/15/bin/postgres)\n"
    "\n"
    "my conn;x 99 1000 \n"
    "\t          5a1 JOIN::optimize(bool, int) (/usr/sbin/mariadbd)\n"
    "\t          5b2 do_command(THD*, bool) (/usr/sbin/mariadbd)\n"
    "\n"
    "postgres 1 1000 \n"
    "\n";

static void test_fold(void **st)
{
    (void)st;
    struct why_fold *f = why_fold_new();
    char line[256];
    for (const char *p = script; *p;) {
        const char *e = strchr(p, '\n');
        snprintf(line, sizeof line, "%.*s", (int)(e - p + 1), p);
        why_fold_line(f, line);
        p = e + 1;
    }
    double n, k;
    char *out = why_fold_done(f, &n, &k);
    assert_true(n == 3); /* the frameless sample is no stack */
    assert_true(k == 2);
    assert_non_null(strstr(out, "postgres;standard_ExecutorRun;[postgres];__send;do_syscall_64_[k];"
                                "__x64_sys_sendto_[k] 2\n"));
    assert_non_null(strstr(out, "my_conn:x;do_command;JOIN::optimize 1\n"));
    assert_null(strstr(out, "+0x"));
    free(out);
}

static void test_waits_values(void **st)
{
    (void)st;
    char err[256];
    assert_int_equal(why_check_waits("pgsql", "pg_stat_activity", err, sizeof err), 0);
    assert_int_equal(why_check_waits("mysql", "off", err, sizeof err), 0);
    assert_int_equal(why_check_waits("pgsql", "performance_schema", err, sizeof err), -1);
    assert_non_null(strstr(err, "'performance_schema'"));
    assert_int_equal(why_check_waits("mysql", "pg_wait_sampling", err, sizeof err), -1);
    assert_string_not_equal(why_server_conf("pgsql", NULL), "");
    /* MariaDB's performance_schema costs too much to be on unasked */
    assert_string_equal(why_server_conf("mysql", NULL), "");
    assert_string_equal(why_server_conf("mysql", "auto"), "");
    assert_non_null(strstr(why_server_conf("mysql", "performance_schema"), "wait/synch"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stat),
        cmocka_unit_test(test_tasks),
        cmocka_unit_test(test_fold),
        cmocka_unit_test(test_waits_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
