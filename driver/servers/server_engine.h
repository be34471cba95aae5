/*
 * server_engine.h - what server.c asks of each engine; internal, included only
 * by the servers room's files (and the unit tests of their parts).
 *
 * An engine is a table of operations that one file fills, as db.h is for the
 * clients: it makes its data directory, names its daemon, says when that is up
 * and creates the user and database. Everything else (the directory, the
 * port, starting and stopping, the state file) is server.c's, the same for
 * both. Below the table, what the room's files share, declared by the file
 * that holds it; the engines call only down (server_files.c, server_capture.c,
 * server_template.c), never back into server.c or the table.
 */
#ifndef DBSCALE_SERVER_ENGINE_H
#define DBSCALE_SERVER_ENGINE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "servers/server.h"
#include "servers/spawn.h"
#include "core/util.h"

#define SERVER_START_TIMEOUT_MS 60000

/* The daemon to run; argv points into the struct. */
struct server_cmd {
    char path[PATH_MAX];
    char arg[PATH_MAX + 32];
    char *argv[4];
};

struct server_engine_ops {
    enum server_engine engine;
    const char *name;       /* "pgsql": the state file's and the messages' name */
    const char *aliases[5]; /* what server_engine_parse accepts, NULL-ended */
    const char *title;      /* "PostgreSQL", for people */
    int children;           /* 1: the server's processes are its main pid's children too */
    int client_socket;      /* 1: clients are given the unix socket (db_target.socket) */
    const char *os_user;    /* the system user it runs as when we are root */
    const char *package;    /* the package that brings the server and that user */
    const char *procs[3];   /* what the server process's cmdline holds (any), NULL-ended */
    int stop_signal;        /* the clean, fast shutdown */
    /* The programs of the installation in dir (NULL: the default one) into
     * in's bindir, daemon and tool, found by name alone (a link counts: the
     * caller judges what it finds). -1 with err when one is not there. */
    int (*programs)(const char *dir, struct server_install *in, char *err, size_t errlen);
    /* What the installation is called in a message: "a PostgreSQL bin
     * directory with initdb, pg_ctl and postgres". */
    const char *install_words;
    /* s->socket and s->pidfile from s->dir, s->socket_dir and s->port; -1 if too long. */
    int (*paths)(struct server *s);
    /* Make data/ and the config (extra: the caller's lines) with the engine's
     * own tools, as id, their output to logfd. May leave an admin password in
     * superpw (40 bytes) for setup. */
    int (*prepare)(struct server *s, const struct spawn_ident *id, const struct server_install *in,
                   int logfd, const char *extra, char *superpw, char *err, size_t errlen);
    /* The daemon: program and arguments. */
    int (*command)(const struct server *s, const struct server_install *in, struct server_cmd *cmd,
                   char *err, size_t errlen);
    /* 1 once the running server answers on its socket. */
    int (*ping)(const struct server *s, const struct spawn_ident *id);
    /* On the running server: s->version, user s->user owning database s->db. */
    int (*setup)(struct server *s, const struct spawn_ident *id, const char *superpw, char *err,
                 size_t errlen);
    /* The password, in the 0600 files the engine's own clients read (server_put_secret). */
    int (*write_credentials)(const struct server *s, char *err, size_t errlen);
    /* s->password back from those files; path (pathlen) names the file read. 0 or -1. */
    int (*read_password)(struct server *s, char *path, size_t pathlen);
    /* The managed setting an extra conf key (lower case, '-' as '_') would
     * change, as the engine reads keys, or NULL if the key only tunes. */
    const char *(*conf_managed)(const char *key);
    /* Every setting name the server daemon (a path) knows (lower case, '_'
     * for '-'), one a line, into out, from the binary (server_settings.c).
     * 0 or -1. */
    int (*list_settings)(const char *daemon, struct sbuf *out);
    int conf_needs_value; /* 1: a key alone is no setting (MariaDB's booleans are) */
    /* Characters a directory path must not hold because the engine's config
     * files cannot carry them (what can be escaped is escaped instead). */
    const char *dir_refuse;
    /* How a client finds the password, for people: printf formats taking the
     * directory once (extra connection options; where the password is). */
    const char *client_opts_fmt, *client_pw_fmt;
};

extern const struct server_engine_ops server_pgsql_ops; /* server_pgsql.c */
extern const struct server_engine_ops server_mysql_ops; /* server_mysql.c */

/* server_engines.c: the table, NULL-ended, and the one lookup by enum. */
extern const struct server_engine_ops *const server_engines[];
const struct server_engine_ops *server_engine_ops_of(enum server_engine e);

/* server_state.c: the state file (then the engine's credentials files). */
int server_state_write(struct server *s, const struct spawn_ident *id, char *err, size_t errlen);

/* server_capture.c: run path with argv, its stdout and stderr into out;
 * 0 when it exited 0. */
int server_capture(const char *path, char *const argv[], struct sbuf *out);

/* server_settings.c: 1 if the engine's server (daemon: its path, NULL
 * the default installation's) knows setting key (lower case, '_' for '-'),
 * 0 if not, -1 when that cannot be told. */
int server_setting_known(enum server_engine e, const char *daemon, const char *key);

/* server_conf.c: extra config lines, and where the running server listens.
 * server_conf_check_in judges setting names by daemon's list (NULL: the
 * default installation's). */
int server_conf_check(enum server_engine e, const char *extra, char *err, size_t errlen);
int server_conf_check_in(enum server_engine e, const char *daemon, const char *extra, char *err,
                         size_t errlen);
/* 0 if every socket of the server's processes listens on loopback only,
 * else -1 naming the address in err. */
int server_check_listen(const struct server *s, char *err, size_t errlen);
/* One /proc/net/{tcp,udp}[6] table's text: -1 with the first socket whose
 * inode is in inodes (n) and that is bound beyond loopback, as "ADDR:PORT"
 * in bad; else 0. Exposed for the unit test. */
int server_listen_scan(const char *table, const unsigned long *inodes, int n, char *bad,
                       size_t badlen);

/* server_template.c: DBSCALE_SERVER_CACHE's templates (opt-in). take: the
 * template named by the engine, the files that make it (NULL-ended) and the
 * extra settings the tool reads (NULL: none) into data (made, empty): 1 when
 * data now holds a copy (superpw, when not NULL, gets the superuser's
 * password it was made with), 0 when there is no cache or no template yet
 * (run the tool), -1 with err when the variable names a directory that is
 * not ours alone or the copy failed. keep: data, just made by the tool,
 * becomes t's template (best effort). */
struct server_template {
    int on;
    char dir[PATH_MAX];
    char path[PATH_MAX];
};
int server_template_take(struct server_template *t, const char *engine, const char *const stamps[],
                         const char *extra, const char *data, char *superpw, size_t pwlen,
                         int logfd, char *err, size_t errlen);
void server_template_keep(const struct server_template *t, const char *data, const char *superpw,
                          int logfd);

/* server_log.c: appends what a failed start's log says to err: its last
 * lines, and above them its first error line ([ERROR], FATAL:, ERROR:) when
 * those lines do not hold it. note: from log's text (trimmed in place);
 * tail: from D/log's last 8 KiB. */
void server_log_note(char *log, char *err, size_t errlen);
void server_log_tail(const struct server *s, char *err, size_t errlen);

/* server_files.c, below every other file of the room. snprintf that says
 * -1 when it truncates. */
int server_fmt(char *dst, size_t n, const char *f, ...) __attribute__((format(printf, 3, 4)));
int server_exists(const char *path);
/* A whole small file / a directory with mode, owned by id when it drops (id may be NULL). */
int server_put_file(const char *path, const char *text, int flags, mode_t mode,
                    const struct spawn_ident *id);
int server_make_dir(const char *path, mode_t mode, const struct spawn_ident *id);
/* len-1 random letters and digits: no quoting needed anywhere. */
int server_random_password(char *out, size_t len);
/* text into the 0600 file s->dir/name (made anew). 0, or -1 with err. */
int server_put_secret(const struct server *s, const char *name, const char *text, char *err,
                      size_t errlen);
/* A small file whole into buf (n bytes, terminated). 0 or -1. */
int server_read_small(const char *path, char *buf, size_t n);
/* Value of "key=" at a line start in text, copied into out (n bytes). 0 or -1. */
int server_kv(const char *text, const char *key, char *out, size_t n);

#endif
