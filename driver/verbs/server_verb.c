/*
 * server_verb.c - `dbscale server start|stop`: the command line over
 * server.h, for a server that outlives the command (an external server for
 * sweeps, a database to poke at by hand). Bad input exits 2 before anything
 * is created; a start that fails exits 1 with the engine's own words.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "servers/server.h"
#include "core/util.h"
#include "verbs/verbs.h"

static const struct optdef server_opts[] = {
    {"dir", OPT_STR, NULL,
     "directory for all the server owns (start: empty or missing, default a new temp dir; "
     "stop: default $DBSCALE_SERVER_DIR)"},
    {"port", OPT_INT, "0", "TCP port on 127.0.0.1 (0 = pick a free one)", NULL, 0, 65535},
    {"cpus", OPT_STR, NULL, "CPU list the server runs on, e.g. 0, 0-1, 0,2"},
    {"conf", OPT_LIST, NULL, "extra server setting k=v (repeat for several)"},
    {"server-bin", OPT_STR, NULL,
     "start: the installation to run, a PostgreSQL bin directory (initdb, pg_ctl, postgres) or "
     "a MariaDB basedir (mariadbd, mariadb-install-db) (default: the system's)"},
};

/* the table, for the man page and the completion (verb_table.c) */
const struct optdef *server_verb_optdefs(size_t *n)
{
    *n = sizeof server_opts / sizeof server_opts[0];
    return server_opts;
}

static void server_usage(FILE *f, const struct opts *o)
{
    fputs("usage: dbscale server start pgsql|mysql [options]\n"
          "       dbscale server stop [--dir DIR]\n\n"
          "Starts a fresh PostgreSQL or MariaDB listening on its own unix socket and\n"
          "127.0.0.1 only, with database sbtest and user sbtest (random password, in\n"
          "DIR/pgpass or DIR/client.cnf). Stop shuts it down and removes DIR.\n\n",
          f);
    opts_help(o, f);
}

static int verb_start(const struct opts *o, const char *engine)
{
    int e = server_engine_parse(engine);
    if (e < 0) {
        warnx_("server start: unknown engine '%s' (expected pgsql or mysql)", engine);
        return EXIT_USAGE;
    }
    const char *cpus = opts_str(o, "cpus"), *dir = opts_str(o, "dir");
    const char *bin = opts_str(o, "server-bin");
    char *conf = opts_lines(o, "conf"); /* one line per --conf */
    char err[2048];
    struct server_install in;
    /* one check per option, so the message names it */
    const char *bad =
        bin && server_install_find(e, bin, &in, err, sizeof err) < 0     ? "--server-bin"
        : server_check_request(e, NULL, cpus, NULL, err, sizeof err) < 0 ? "--cpus"
        : server_check_request(e, dir, NULL, NULL, err, sizeof err) < 0  ? "--dir"
        : server_check_request_from(e, bin ? &in : NULL, NULL, NULL, conf, err, sizeof err) < 0
            ? "--conf"
            : NULL;
    if (bad) {
        warnx_("server start: %s: %s", bad, err);
        free(conf);
        return EXIT_USAGE;
    }
    struct server s;
    int rc = server_start_from(&s, (enum server_engine)e, bin ? &in : NULL, dir,
                               (int)opts_int(o, "port"), cpus, conf, err, sizeof err);
    free(conf);
    if (rc < 0) {
        warnx_("server start %s: %s", engine, err);
        return EXIT_RUNTIME;
    }
    server_unguard(&s); /* up: it outlives us, till `server stop` */
    const char *n = server_engine_name(s.engine);
    printf("%s %s running: pid %ld, 127.0.0.1:%d, socket %s\n", server_engine_title(s.engine),
           s.version, (long)s.pid, s.port, s.socket);
    printf("dir: %s\n", s.dir);
    char extra[PATH_MAX + 64], pw[PATH_MAX + 128];
    server_client_hints(&s, extra, sizeof extra, pw, sizeof pw);
    printf("options: --db-driver=%s --%s-host=127.0.0.1 --%s-port=%d --%s-user=%s --%s-db=%s%s\n",
           n, n, n, s.port, n, s.user, n, s.db, extra);
    printf("password: %s\n", pw);
    printf("stop: dbscale server stop --dir %s   (or export DBSCALE_SERVER_DIR=%s)\n", s.dir,
           s.dir);
    memset(s.password, 0, sizeof s.password);
    return 0;
}

static int verb_stop(const struct opts *o)
{
    const char *dir = opts_str(o, "dir");
    if (!dir || !*dir)
        dir = getenv("DBSCALE_SERVER_DIR");
    if (!dir || !*dir) {
        warnx_("server stop: which server? give --dir DIR (or set DBSCALE_SERVER_DIR)");
        return EXIT_USAGE;
    }
    struct server s;
    char err[1024];
    if (server_load(&s, dir, err, sizeof err) < 0) {
        warnx_("server stop: %s", err);
        return EXIT_USAGE;
    }
    if (server_stop(&s, err, sizeof err) < 0) {
        warnx_("server stop: %s", err);
        return EXIT_RUNTIME;
    }
    return 0;
}

int server_main(int argc, char **argv)
{
    struct opts o;
    opts_init(&o, server_opts, sizeof server_opts / sizeof server_opts[0]);
    char *pos[4], err[512];
    int npos = 0, rc;
    int r = opts_parse_argv(&o, argc, argv, 1, pos, 4, &npos, err, sizeof err);
    if (r == 1) {
        server_usage(stdout, &o);
        rc = 0;
    } else if (r < 0) {
        warnx_("server: %s", err);
        rc = EXIT_USAGE;
    } else if (npos == 2 && !strcmp(pos[0], "start")) {
        rc = verb_start(&o, pos[1]);
    } else if (npos == 1 && !strcmp(pos[0], "start")) {
        warnx_("server start: which engine? pgsql or mysql");
        rc = EXIT_USAGE;
    } else if (npos >= 1 && !strcmp(pos[0], "stop") && npos <= 2) {
        rc = verb_stop(&o); /* "stop ENGINE" is accepted: the state file knows the engine */
    } else {
        server_usage(stderr, &o);
        rc = EXIT_USAGE;
    }
    opts_free(&o);
    return rc;
}
