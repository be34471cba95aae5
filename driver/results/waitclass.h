/*
 * waitclass.h - what a wait event of waits.csv is: one table for both
 * engines (PostgreSQL's wait_event_type:wait_event, MariaDB's
 * performance_schema instruments and InnoDB's counters), read where the
 * files are read, so a directory written by any version is classed alike.
 * The collectors write the same class into waits.csv's cls column for a
 * person reading the file; analysis reads the event's name through here.
 */
#ifndef DBSCALE_WAITCLASS_H
#define DBSCALE_WAITCLASS_H

/* The parts of a connection's time a wait can be. WC_ENGINE is MariaDB's
 * time inside the storage engine's row calls (wait/io/table): CPU work with
 * waits nested in it, so it is no part of its own (the budget counts it as
 * the statement's CPU). InnoDB's status counters (innodb:os_wait_array_...)
 * are classed like the waits they count; they carry no time. */
enum waitclass {
    WC_CPU,    /* on CPU or runnable: PostgreSQL's samples with no wait event */
    WC_LOCK,   /* locks and latches: row, table, lightweight, mutexes, pins */
    WC_IO,     /* file reads, writes and syncs, the log */
    WC_CLIENT, /* waiting for the client's next statement (network and client time) */
    WC_OTHER,  /* anything else: IPC, timeouts, background activity */
    WC_ENGINE, /* nested engine time (MariaDB wait/io/table) */
    WC_N
};

/* "cpu", "lock", "io", "client", "other", "table": waits.csv's cls */
const char *waitclass_name(enum waitclass c);
/* The class of an event's name, for either engine. */
enum waitclass waitclass_of(const char *event);
/* What kind of lock a lock-class event is, as a person names it: "row
 * locks", "lightweight locks", "mutexes", "read-write latches", "table
 * locks", "metadata locks", "buffer pins", "condition waits"; "waits" for
 * an event of another class. */
const char *waitclass_lock_kind(const char *event);

#endif
