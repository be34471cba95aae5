/*
 * waitclass.c - the one table of wait events: a prefix of the event's name
 * (PostgreSQL "Lock:", "LWLock:", "IO:"...; MariaDB "wait/synch/mutex/",
 * "wait/io/file/"...; InnoDB's "innodb:" counters) gives its class and, for
 * a lock, the kind a person names it by.
 *
 * The one idea: the first matching prefix wins, so an exact name comes
 * before the family it belongs to; an event no row names is "other", never
 * dropped. Knows no engine beyond these names and no file.
 */
#include "results/waitclass.h"

#include <string.h>

static const char *const class_names[WC_N] = {"cpu", "lock", "io", "client", "other", "table"};

static const struct {
    const char *prefix;
    enum waitclass cls;
    const char *kind; /* for a lock: what a person calls it */
} table[] = {
    /* PostgreSQL (wait_event_type:wait_event; "CPU" for a sample with none) */
    {"CPU", WC_CPU, NULL},
    {"Lock:transactionid", WC_LOCK, "row locks"},
    {"Lock:tuple", WC_LOCK, "row locks"},
    {"Lock:relation", WC_LOCK, "table locks"},
    {"Lock:", WC_LOCK, "heavyweight locks"},
    {"LWLock:", WC_LOCK, "lightweight locks"},
    {"BufferPin:", WC_LOCK, "buffer pins"},
    {"IO:", WC_IO, NULL},
    {"Client:", WC_CLIENT, NULL},
    /* MariaDB (performance_schema instruments, InnoDB's counters) */
    {"idle", WC_CLIENT, NULL}, /* also "idle (between statements)" */
    {"wait/io/socket/", WC_CLIENT, NULL},
    {"wait/synch/mutex/", WC_LOCK, "mutexes"},
    {"wait/synch/rwlock/", WC_LOCK, "read-write latches"},
    {"wait/synch/sxlock/", WC_LOCK, "read-write latches"},
    {"wait/synch/cond/", WC_LOCK, "condition waits"},
    {"wait/synch/", WC_LOCK, "latches"},
    {"wait/lock/metadata/", WC_LOCK, "metadata locks"},
    {"wait/lock/table/", WC_LOCK, "table locks"},
    {"wait/lock/", WC_LOCK, "locks"},
    {"wait/io/file/", WC_IO, NULL},
    {"wait/io/table/", WC_ENGINE, NULL},
    {"innodb:row_lock_waits", WC_LOCK, "row locks"},
    {"innodb:lock_", WC_LOCK, "row locks"},
    {"innodb:os_wait_array_reservations", WC_LOCK, "latches"},
    {"innodb:buffer_pool_wait_free", WC_IO, NULL},
    {"innodb:log_waits", WC_IO, NULL},
};

const char *waitclass_name(enum waitclass c)
{
    return c < WC_N ? class_names[c] : "other";
}

static int find(const char *event)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strncmp(event, table[i].prefix, strlen(table[i].prefix)))
            return (int)i;
    return -1;
}

enum waitclass waitclass_of(const char *event)
{
    int i = find(event);
    return i < 0 ? WC_OTHER : table[i].cls;
}

const char *waitclass_lock_kind(const char *event)
{
    int i = find(event);
    return i >= 0 && table[i].kind ? table[i].kind : "waits";
}
