/*
 * server.h - a throwaway local PostgreSQL or MariaDB: the embedded default.
 *
 * server_start() makes a fresh data directory, starts the engine on a unix
 * socket plus 127.0.0.1:port only, and creates database "sbtest" owned by
 * user "sbtest" with a random password. Everything the server owns lives
 * under one directory, which server_stop() removes. Safe to call from a
 * multi-threaded program (fork + exec, nothing but async-signal-safe calls
 * in between).
 *
 * Layout of dir: state (key=value), pgpass and client.cnf (0600, the password
 * in the engines' own client formats), log, data/, sock/ (socket, pid file).
 */
#ifndef DBSCALE_SERVER_H
#define DBSCALE_SERVER_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "engines/db.h"

enum server_engine { SERVER_PGSQL, SERVER_MYSQL };

struct server {
    enum server_engine engine;
    char dir[PATH_MAX];        /* root of everything this server owns */
    char socket_dir[PATH_MAX]; /* pgsql: the directory holding .s.PGSQL.PORT */
    char socket[PATH_MAX];     /* pgsql: the socket file; mysql: the socket path */
    char pidfile[PATH_MAX];    /* postmaster.pid / mariadbd's pid-file */
    int port;                  /* 127.0.0.1:port */
    pid_t pid;                 /* postmaster / mariadbd */
    int child;                 /* 1 if this process forked it (and must reap it) */
    char user[64], password[64], db[64];
    char version[64]; /* "15.10", "10.11.6-MariaDB-0+deb12u1" */
    pid_t guard_pid;  /* server_guard()'s guardian, 0 if none */
    int guard_fd;     /* our end of its pipe (valid while guard_pid > 0) */
};

/* "pgsql"/"postgresql"/"postgres"/"pg" or "mysql"/"mariadb"; -1 if unknown. */
int server_engine_parse(const char *name);
const char *server_engine_name(enum server_engine e);
/* "PostgreSQL" or "MariaDB", for people. */
const char *server_engine_title(enum server_engine e);

/*
 * A server installation: where the engine's programs are, as found and
 * checked by server_install_find(). bindir is what the engine runs them
 * from (PostgreSQL's bin directory; a MariaDB basedir, "" for the system's
 * own). sha256 (of the daemon) and version (its --version line) label the
 * results a server of it measured ("" when they cannot be read).
 */
struct server_install {
    char dir[PATH_MAX];    /* the installation given, absolute; "" for the default */
    char bindir[PATH_MAX]; /* what the engine's prepare and command take */
    char daemon[PATH_MAX]; /* postgres, mariadbd */
    char tool[PATH_MAX];   /* initdb, mariadb-install-db */
    char sha256[65];
    char version[160];
};

/*
 * dir NULL: the installation server_start() uses by default (a PostgreSQL's
 * highest /usr/lib/postgresql/N/bin or $DBSCALE_PGBIN; MariaDB's
 * /usr/sbin/mariadbd). Else dir must be an installation of engine e: a
 * directory holding e's programs (PostgreSQL: initdb, pg_ctl and postgres;
 * MariaDB: a basedir with bin/ or sbin/mariadbd and bin/ or scripts/
 * mariadb-install-db) as regular executable files, not links into another
 * installation. Only reads (stat, the daemon's --version and its sha256).
 * 0, or -1 with err naming dir and what is wrong: no such directory,
 * another engine's programs, a link farm, a program missing.
 */
int server_install_find(enum server_engine e, const char *dir, struct server_install *in, char *err,
                        size_t errlen);

/*
 * The checks server_start() makes before it creates anything, for callers
 * that must tell bad input from a failed start: cpus (NULL or a list) parses
 * and names only CPUs we may run on, dir (NULL or a path) is missing or an
 * empty directory whose path engine e's config files can carry, and no line
 * of extra_conf moves where the server listens or lives, as e reads it. 0, or
 * -1 with a message naming the problem in err.
 */
int server_check_request(enum server_engine e, const char *dir, const char *cpus,
                         const char *extra_conf, char *err, size_t errlen);
/* The same, extra_conf judged by the settings in's daemon knows (NULL: the
 * default installation's). */
int server_check_request_from(enum server_engine e, const struct server_install *in,
                              const char *dir, const char *cpus, const char *extra_conf, char *err,
                              size_t errlen);

/*
 * Start a fresh server. dir: NULL = mkdtemp under $TMPDIR or /tmp, else an
 * empty (or missing) directory. port 0 = pick a free one. cpus: NULL or a CPU
 * list ("0", "0-1", "0,2") the server and all its processes/threads are held
 * to. extra_conf: NULL or config lines ("k=v", one per line) appended to the
 * engine's own config. 0, or -1 with a message (and the log's last lines) in
 * err; on failure nothing is left running and what was created is removed.
 */
int server_start(struct server *s, enum server_engine e, const char *dir, int port,
                 const char *cpus, const char *extra_conf, char *err, size_t errlen);
/* The same with the server's programs from in (server_install_find; NULL:
 * the default installation), its extra settings checked against that
 * daemon's own list. */
int server_start_from(struct server *s, enum server_engine e, const struct server_install *in,
                      const char *dir, int port, const char *cpus, const char *extra_conf,
                      char *err, size_t errlen);
/*
 * A guardian process that, should we die without server_stop() (SIGKILL, a
 * crash), kills the server's processes, removes our cpuset cgroup and the
 * directory. server_start() starts one as soon as the directory exists and
 * keeps it: a server that must outlive us (dbscale server start) is
 * dismissed with server_unguard(); server_stop() dismisses it first.
 * server_guard() on a server that has one does nothing. 0, or -1 with a
 * message. server_guard_pid(): one more process for it to kill (sent as a
 * pidfd, so a recycled pid is never signalled).
 */
int server_guard(struct server *s, char *err, size_t errlen);
void server_guard_pid(struct server *s, pid_t pid);
void server_unguard(struct server *s);
/* Clean shutdown (SIGKILL after a timeout), then remove the directory. */
int server_stop(struct server *s, char *err, size_t errlen);
/* Read back a server started by `dbscale server start --dir DIR`. */
int server_load(struct server *s, const char *dir, char *err, size_t errlen);
/* Fill host/port/socket/user/password/db for db.h. Pointers into s. */
void server_target(const struct server *s, struct db_target *t);
/* For people: the extra client options (e.g. " --mysql-defaults-file=...",
 * maybe empty) into opts, and where the password is into pw. */
void server_client_hints(const struct server *s, char *opts, size_t n, char *pw, size_t m);
/* The server's processes (pgsql: postmaster + children; mysql: mariadbd). */
int server_pids(const struct server *s, pid_t *pids, int max);

/*
 * text names the database server's process (sweep --server-pid): a whole
 * number above 0 of a live process that listens on TCP port (when port > 0)
 * or whose executable is postgres, mariadbd or mysqld. 0 with the pid in out,
 * or -1 saying why not in err.
 */
int server_check_pid(const char *text, int port, pid_t *out, char *err, size_t errlen);

/* 1 when the PostgreSQL a throwaway server would run has the library
 * NAME.so (say pg_wait_sampling) in its lib directory. */
int server_pg_has_library(const char *name);
/* The same for the PostgreSQL of installation in (NULL: the default). */
int server_install_has_library(const struct server_install *in, const char *name);

#endif
