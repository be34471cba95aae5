/*
 * test_waitclass.c - the one table of wait events: PostgreSQL's and
 * MariaDB's names get the class and lock kind a reader expects, an exact
 * name wins over its family, and an unknown event is "other".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "results/waitclass.h"

static void test_classes(void **st)
{
    (void)st;
    static const struct {
        const char *event, *cls, *kind;
    } cases[] = {
        {"CPU", "cpu", "waits"},
        {"Lock:transactionid", "lock", "row locks"},
        {"Lock:tuple", "lock", "row locks"},
        {"Lock:relation", "lock", "table locks"},
        {"Lock:advisory", "lock", "heavyweight locks"},
        {"LWLock:WALWrite", "lock", "lightweight locks"},
        {"BufferPin:BufferPin", "lock", "buffer pins"},
        {"IO:WALSync", "io", "waits"},
        {"Client:ClientRead", "client", "waits"},
        {"IPC:ProcArrayGroupUpdate", "other", "waits"},
        {"idle (between statements)", "client", "waits"},
        {"wait/io/socket/sql/client_connection", "client", "waits"},
        {"wait/synch/mutex/innodb/trx_sys_mutex", "lock", "mutexes"},
        {"wait/synch/rwlock/innodb/index_tree_rw_lock", "lock", "read-write latches"},
        {"wait/synch/cond/sql/COND_wait", "lock", "condition waits"},
        {"wait/lock/table/sql/handler", "lock", "table locks"},
        {"wait/lock/metadata/sql/mdl", "lock", "metadata locks"},
        {"wait/io/file/innodb/innodb_log_file", "io", "waits"},
        {"wait/io/table/sql/handler", "table", "waits"},
        {"innodb:row_lock_waits", "lock", "row locks"},
        {"innodb:buffer_pool_wait_free", "io", "waits"},
        {"something new", "other", "waits"},
        {"", "other", "waits"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_string_equal(waitclass_name(waitclass_of(cases[i].event)), cases[i].cls);
        assert_string_equal(waitclass_lock_kind(cases[i].event), cases[i].kind);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
