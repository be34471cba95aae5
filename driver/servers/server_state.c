/*
 * server_state.c - the state file of a throwaway server and the files that
 * hold its password: written once the server is up, read back by
 * `dbscale server stop` and by anyone handed the directory.
 *
 * The one idea: the state file (key=value, one a line) says where the server
 * lives and who it is; the password is never in it, only in the files each
 * engine's own clients read (pgpass, client.cnf), written by the engine's
 * table (through server_put_secret, server_files.c) and read back through
 * it. Both are 0600.
 *
 * It must never write the password anywhere but those 0600 files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "servers/server_engine.h"
#include "core/util.h"

int server_state_write(struct server *s, const struct spawn_ident *id, char *err, size_t errlen)
{
    char path[PATH_MAX];
    struct sbuf b = {0};
    sbuf_printf(&b,
                "# dbscale server state; the password is in pgpass / client.cnf\n"
                "engine=%s\nport=%d\nsocket_dir=%s\nsocket=%s\npidfile=%s\npid=%ld\n"
                "user=%s\ndb=%s\nversion=%s\nos_user=%s\n",
                server_engine_name(s->engine), s->port, s->socket_dir, s->socket, s->pidfile,
                (long)s->pid, s->user, s->db, s->version, id->name);
    int rc = server_fmt(path, sizeof path, "%s/state", s->dir) < 0
                 ? -1
                 : write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    if (rc == 0)
        rc = chmod(path, 0600); /* where and who: nobody else's business */
    if (rc < 0) {
        snprintf(err, errlen, "cannot write %s/state", s->dir);
        return -1;
    }
    return server_engine_ops_of(s->engine)->write_credentials(s, err, errlen);
}

int server_load(struct server *s, const char *dir, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    char path[PATH_MAX], text[8192], v[64];
    if (!realpath(dir, s->dir)) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (server_fmt(path, sizeof path, "%s/state", s->dir) < 0 ||
        server_read_small(path, text, sizeof text)) {
        snprintf(err, errlen, "%s: not a dbscale server directory (no state file)", dir);
        return -1;
    }
    int e = server_kv(text, "engine", v, sizeof v) == 0 ? server_engine_parse(v) : -1;
    if (e < 0 || server_kv(text, "port", v, sizeof v) < 0 || (s->port = atoi(v)) <= 0 ||
        server_kv(text, "pid", v, sizeof v) < 0 ||
        server_kv(text, "socket", s->socket, sizeof s->socket) ||
        server_kv(text, "socket_dir", s->socket_dir, sizeof s->socket_dir) ||
        server_kv(text, "pidfile", s->pidfile, sizeof s->pidfile) ||
        server_kv(text, "user", s->user, sizeof s->user) ||
        server_kv(text, "db", s->db, sizeof s->db)) {
        snprintf(err, errlen, "%s: malformed state file", path);
        return -1;
    }
    s->engine = (enum server_engine)e;
    s->pid = (pid_t)atol(v);
    server_kv(text, "version", s->version, sizeof s->version);
    /* The password, back from the engine's own client file. */
    if (server_engine_ops_of(s->engine)->read_password(s, path, sizeof path) < 0 ||
        !s->password[0]) {
        snprintf(err, errlen, "%s: cannot read the password", path);
        return -1;
    }
    return 0;
}
