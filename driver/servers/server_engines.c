/*
 * server_engines.c - the table of throwaway-server engines and what callers
 * ask of a running server whatever its engine: its name, its connection
 * target, its processes.
 *
 * The one idea: everything that differs between PostgreSQL and MariaDB is in
 * that engine's server_engine_ops (server_pgsql.c, server_mysql.c), found by
 * one lookup; nothing outside the engine files branches on which one it is.
 *
 * It must never start, stop or signal anything (that is server.c's).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/procfs.h"
#include "servers/server_engine.h"

const struct server_engine_ops *const server_engines[] = {&server_pgsql_ops, &server_mysql_ops,
                                                          NULL};

const struct server_engine_ops *server_engine_ops_of(enum server_engine e)
{
    for (int i = 0; server_engines[i]; i++)
        if (server_engines[i]->engine == e)
            return server_engines[i];
    return server_engines[0];
}

int server_engine_parse(const char *name)
{
    for (int i = 0; name && server_engines[i]; i++)
        for (const char *const *a = server_engines[i]->aliases; *a; a++)
            if (!strcmp(name, *a))
                return (int)server_engines[i]->engine;
    return -1;
}

const char *server_engine_name(enum server_engine e)
{
    return server_engine_ops_of(e)->name;
}

const char *server_engine_title(enum server_engine e)
{
    return server_engine_ops_of(e)->title;
}

void server_target(const struct server *s, struct db_target *t)
{
    memset(t, 0, sizeof *t);
    t->host = "127.0.0.1";
    t->port = s->port;
    t->socket = server_engine_ops_of(s->engine)->client_socket ? s->socket : NULL;
    t->user = s->user;
    t->password = s->password;
    t->db = s->db;
}

int server_pids(const struct server *s, pid_t *pids, int max)
{
    int n = 0;
    if (s->pid <= 0 || max <= 0)
        return 0;
    pids[n++] = s->pid;
    if (!server_engine_ops_of(s->engine)->children)
        return n;
    /* postgres' backends are children of the postmaster (zombies left out) */
    return n + procfs_children(s->pid, pids + n, max - n);
}

void server_client_hints(const struct server *s, char *opts, size_t n, char *pw, size_t m)
{
    const struct server_engine_ops *ops = server_engine_ops_of(s->engine);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral" /* the engines' own constant formats */
    snprintf(opts, n, ops->client_opts_fmt, s->dir);
    snprintf(pw, m, ops->client_pw_fmt, s->dir);
#pragma GCC diagnostic pop
}
