/*
 * server_pgsql.c - the PostgreSQL engine of the throwaway servers: initdb,
 * postgresql.conf and pg_hba.conf, the postgres daemon, the role and database.
 *
 * The one idea: initdb sets a superuser password (a fresh random one, given
 * in a file that is removed at once) and pg_hba.conf asks every connection
 * for a password, so the server is never open to whoever reaches its socket;
 * the superuser password lives only in the caller's memory until setup.
 *
 * It must never send the sbtest password to the server (only its SCRAM
 * verifier), echo a statement that holds one, nor let such a statement reach
 * the server log.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "servers/server_engine.h"
#include "core/util.h"

/* Highest /usr/lib/postgresql/N/bin, or $DBSCALE_PGBIN. */
static int pg_bindir(char *out, size_t n, char *err, size_t errlen)
{
    const char *env = getenv("DBSCALE_PGBIN");
    if (env && *env)
        return server_fmt(out, n, "%s", env);
    DIR *d = opendir("/usr/lib/postgresql");
    long best = -1;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char *end;
        long v = strtol(e->d_name, &end, 10);
        char p[PATH_MAX];
        if (end != e->d_name && !*end && v > best &&
            server_fmt(p, sizeof p, "/usr/lib/postgresql/%ld/bin/postgres", v) == 0 &&
            server_exists(p))
            best = v;
    }
    if (d)
        closedir(d);
    if (best < 0) {
        snprintf(err, errlen,
                 "no PostgreSQL server found in /usr/lib/postgresql/*/bin (apt-get install "
                 "postgresql, or set DBSCALE_PGBIN)");
        return -1;
    }
    return server_fmt(out, n, "/usr/lib/postgresql/%ld/bin", best);
}

/* A PostgreSQL bin directory's programs (dir NULL: pg_bindir's), found
 * by name: initdb and postgres are run, pg_ctl tells a whole bin directory
 * from a stray copy of the server. */
static int pg_programs(const char *dir, struct server_install *in, char *err, size_t errlen)
{
    if (!dir && pg_bindir(in->bindir, sizeof in->bindir, err, errlen) < 0)
        return -1;
    if (dir && server_fmt(in->bindir, sizeof in->bindir, "%s", dir) < 0)
        return snprintf(err, errlen, "path too long: %s", dir), -1;
    static const char *const need[] = {"postgres", "initdb", "pg_ctl", NULL};
    for (int i = 0; need[i]; i++) {
        char p[PATH_MAX];
        struct stat st;
        if (server_fmt(p, sizeof p, "%s/%s", in->bindir, need[i]) < 0 || lstat(p, &st) < 0) {
            snprintf(err, errlen, "%s: no %s there", in->bindir, need[i]);
            return -1;
        }
        if (i < 2)
            snprintf(i ? in->tool : in->daemon, PATH_MAX, "%s", p);
    }
    return 0;
}

int server_pg_has_library(const char *name)
{
    return server_install_has_library(NULL, name);
}

int server_install_has_library(const struct server_install *in, const char *name)
{
    struct server_install def;
    char lib[PATH_MAX + 64], err[256];
    if (!in || !in->bindir[0]) {
        memset(&def, 0, sizeof def);
        if (pg_programs(NULL, &def, err, sizeof err) < 0)
            return 0;
        in = &def;
    }
    /* Debian's layout (bin/../lib), then a source build's (lib/postgresql) */
    return (server_fmt(lib, sizeof lib, "%s/../lib/%s.so", in->bindir, name) == 0 &&
            server_exists(lib)) ||
           (server_fmt(lib, sizeof lib, "%s/../lib/postgresql/%s.so", in->bindir, name) == 0 &&
            server_exists(lib));
}

/* Single-quoted value for a libpq conninfo string. */
static void pq_quote(char *out, size_t n, const char *v)
{
    size_t o = 0;
    if (n < 3)
        return;
    out[o++] = '\'';
    for (; *v && o + 3 < n; v++) {
        if (*v == '\'' || *v == '\\')
            out[o++] = '\\';
        out[o++] = *v;
    }
    out[o++] = '\'';
    out[o] = '\0';
}

static PGconn *pg_admin_connect_db(const struct server *s, const char *user, const char *pw,
                                   const char *db)
{
    char host[PATH_MAX * 2 + 3], ci[PATH_MAX * 2 + 256];
    pq_quote(host, sizeof host, s->socket_dir);
    snprintf(ci, sizeof ci, "host=%s port=%d user=%s password=%s dbname=%s connect_timeout=5", host,
             s->port, user, pw ? pw : "", db);
    return PQconnectdb(ci);
}

static PGconn *pg_admin_connect(const struct server *s, const char *user, const char *pw)
{
    return pg_admin_connect_db(s, user, pw, "postgres");
}

static int pg_ping(const struct server *s, const struct spawn_ident *id)
{
    (void)id;
    char host[PATH_MAX * 2 + 3], ci[PATH_MAX * 2 + 256];
    pq_quote(host, sizeof host, s->socket_dir);
    snprintf(ci, sizeof ci, "host=%s port=%d user=postgres dbname=postgres connect_timeout=2", host,
             s->port);
    return PQping(ci) == PQPING_OK;
}

static int pg_init(struct server *s, const struct spawn_ident *id, const struct server_install *in,
                   int logfd, char *superpw, char *err, size_t errlen)
{
    char data[PATH_MAX], pwfile[PATH_MAX], pwarg[PATH_MAX + 16];
    const char *initdb = in->tool;
    if (server_fmt(data, sizeof data, "%s/data", s->dir) < 0 ||
        server_fmt(pwfile, sizeof pwfile, "%s/initdb.pw", s->dir) < 0 ||
        server_fmt(pwarg, sizeof pwarg, "--pwfile=%s", pwfile) < 0) {
        snprintf(err, errlen, "path too long: %s", s->dir);
        return -1;
    }
    if (server_make_dir(data, 0700, id) < 0) {
        snprintf(err, errlen, "cannot make %s: %s", data, strerror(errno));
        return -1;
    }
    /* DBSCALE_SERVER_CACHE (server_template.c): initdb reads no setting of
     * ours, so one template serves every start of this build */
    const char *const stamps[] = {"/proc/self/exe", initdb, in->daemon, NULL};
    struct server_template tp;
    int took =
        server_template_take(&tp, "pgsql", stamps, NULL, data, superpw, 40, logfd, err, errlen);
    if (took != 0)
        return took < 0 ? -1 : 0;
    char line[80];
    if (server_random_password(superpw, 33) < 0 ||
        server_fmt(line, sizeof line, "%s\n", superpw) < 0 ||
        server_put_file(pwfile, line, O_EXCL, 0600, id) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", pwfile, strerror(errno));
        return -1;
    }
    char *argv[] = {"initdb", "-D",        data,
                    "-U",     "postgres",  "--locale=C",
                    "-E",     "UTF8",      "--auth=scram-sha-256",
                    pwarg,    "--no-sync", "--no-instructions",
                    NULL};
    struct spawn_cmd sp = {initdb, argv, logfd, id, NULL, 0};
    pid_t pid = spawn_start(&sp, s->dir);
    if (pid < 0) {
        snprintf(err, errlen, "cannot start initdb: %s", strerror(errno));
        unlink(pwfile);
        return -1;
    }
    int rc = spawn_wait(pid, "initdb", SERVER_START_TIMEOUT_MS, err, errlen);
    unlink(pwfile);
    if (rc == 0)
        server_template_keep(&tp, data, superpw, logfd);
    return rc;
}

static int pg_configure(struct server *s, const struct spawn_ident *id, const char *extra,
                        char *err, size_t errlen)
{
    char path[PATH_MAX], sock[PATH_MAX * 2 + 3];
    struct sbuf b = {0};
    /* The socket path is a postgresql.conf string: quotes doubled, and
     * backslashes too, as the parser reads \b, \n, \t ... as escapes. */
    size_t o = 0;
    sock[o++] = '\'';
    for (const char *p = s->socket_dir; *p && o + 3 < sizeof sock; p++) {
        if (*p == '\'' || *p == '\\')
            sock[o++] = *p;
        sock[o++] = *p;
    }
    sock[o++] = '\'';
    sock[o] = '\0';
    sbuf_printf(&b,
                "\n# dbscale: a throwaway server, loopback and its own socket only\n"
                "listen_addresses = '127.0.0.1'\n"
                "port = %d\n"
                "unix_socket_directories = %s\n"
                "shared_buffers = 128MB\n"
                "max_connections = 200\n"
                "logging_collector = off\n"
                "log_destination = 'stderr'\n"
                "# extra settings\n%s\n",
                s->port, sock, extra ? extra : "");
    int rc = server_fmt(path, sizeof path, "%s/data/postgresql.conf", s->dir) < 0
                 ? -1
                 : server_put_file(path, b.s, O_APPEND, 0600, id);
    sbuf_free(&b);
    if (rc == 0 && server_fmt(path, sizeof path, "%s/data/pg_hba.conf", s->dir) == 0)
        rc = server_put_file(path,
                             "# dbscale: passwords everywhere, loopback only\n"
                             "local all all scram-sha-256\n"
                             "host  all all 127.0.0.1/32 scram-sha-256\n",
                             O_TRUNC, 0600, id);
    if (rc < 0)
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return rc;
}

static int pg_setup(struct server *s, const struct spawn_ident *id, const char *superpw, char *err,
                    size_t errlen)
{
    (void)id;
    PGconn *c = pg_admin_connect(s, "postgres", superpw);
    if (PQstatus(c) != CONNECTION_OK) {
        snprintf(err, errlen, "cannot connect to the new server: %s", PQerrorMessage(c));
        PQfinish(c);
        return -1;
    }
    const char *v = PQparameterStatus(c, "server_version");
    snprintf(s->version, sizeof s->version, "%s", v ? v : "?");
    s->version[strcspn(s->version, " ")] = '\0';
    /* The role gets a SCRAM verifier computed here, never the password: with
     * log_statement=all or pg_stat_statements the statement text is kept, and
     * the verifier cannot log in. Logging is off for this session besides
     * (we are the superuser, so SET is allowed), failing statements too. */
    char *verifier = PQencryptPasswordConn(c, s->password, s->user, "scram-sha-256");
    if (!verifier) {
        snprintf(err, errlen, "cannot compute the password verifier: %s", PQerrorMessage(c));
        PQfinish(c);
        return -1;
    }
    char sql[5][512];
    snprintf(sql[0], sizeof sql[0], "SET log_min_error_statement = panic");
    snprintf(sql[1], sizeof sql[1], "SET log_statement = 'none'");
    snprintf(sql[2], sizeof sql[2], "SET log_min_duration_statement = -1");
    snprintf(sql[3], sizeof sql[3], "CREATE ROLE %s LOGIN PASSWORD '%s'", s->user, verifier);
    snprintf(sql[4], sizeof sql[4], "CREATE DATABASE %s OWNER %s", s->db, s->user);
    PQfreemem(verifier);
    for (int i = 0; i < 5; i++) {
        PGresult *r = PQexec(c, sql[i]);
        ExecStatusType st = PQresultStatus(r);
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
            /* never echo sql[3]: it holds the verifier */
            snprintf(err, errlen, "setting up user and database: %s", PQresultErrorMessage(r));
            PQclear(r);
            PQfinish(c);
            return -1;
        }
        PQclear(r);
    }
    PQfinish(c);
    /* pg_stat_statements in sbtest, readable by sbtest: with
     * --conf shared_preload_libraries=pg_stat_statements a test can check
     * what the server executed against what dbscale reports. Only the
     * superuser can create it, and only now does anyone know its password. */
    c = pg_admin_connect_db(s, "postgres", superpw, s->db);
    if (PQstatus(c) == CONNECTION_OK) {
        char grant[160];
        snprintf(grant, sizeof grant, "GRANT pg_read_all_stats TO %s", s->user);
        PQclear(PQexec(c, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"));
        /* the why collectors' wait profile (driver/why/), when the server
         * preloads it (a sweep's managed server does); harmless otherwise */
        PQclear(PQexec(c, "CREATE EXTENSION IF NOT EXISTS pg_wait_sampling"));
        PQclear(PQexec(c, grant));
    }
    PQfinish(c);
    return 0;
}

static int pg_prepare(struct server *s, const struct spawn_ident *id,
                      const struct server_install *in, int logfd, const char *extra, char *superpw,
                      char *err, size_t errlen)
{
    if (pg_init(s, id, in, logfd, superpw, err, errlen) < 0)
        return -1;
    return pg_configure(s, id, extra, err, errlen);
}

static int pg_paths(struct server *s)
{
    return server_fmt(s->socket, sizeof s->socket, "%s/.s.PGSQL.%d", s->socket_dir, s->port) < 0 ||
                   server_fmt(s->pidfile, sizeof s->pidfile, "%s/data/postmaster.pid", s->dir) < 0
               ? -1
               : 0;
}

static int pg_command(const struct server *s, const struct server_install *in,
                      struct server_cmd *cmd, char *err, size_t errlen)
{
    if (server_fmt(cmd->path, sizeof cmd->path, "%s", in->daemon) < 0 ||
        server_fmt(cmd->arg, sizeof cmd->arg, "%s/data", s->dir) < 0)
        return snprintf(err, errlen, "path too long"), -1;
    cmd->argv[0] = "postgres";
    cmd->argv[1] = "-D";
    cmd->argv[2] = cmd->arg;
    cmd->argv[3] = NULL;
    return 0;
}

/* Where the server listens and lives is ours, and so is what it reads: an
 * include could hold any of these. key is lower case, '-' as '_'. */
static const char *pg_conf_managed(const char *key)
{
    static const char *const managed[] = {"listen_addresses",
                                          "port",
                                          "unix_socket_directories",
                                          "unix_socket_group",
                                          "unix_socket_permissions",
                                          "data_directory",
                                          "config_file",
                                          "hba_file",
                                          "ident_file",
                                          "external_pid_file",
                                          "include",
                                          "include_if_exists",
                                          "include_dir",
                                          NULL};
    for (int i = 0; managed[i]; i++)
        if (!strcmp(key, managed[i]))
            return managed[i];
    return NULL;
}

/* The password where libpq and psql look (PGPASSFILE=DIR/pgpass): TCP and the socket. */
static int pg_write_credentials(const struct server *s, char *err, size_t errlen)
{
    char esc[PATH_MAX * 2];
    size_t o = 0;
    for (const char *p = s->socket_dir; *p && o + 3 < sizeof esc; p++) {
        if (*p == ':' || *p == '\\')
            esc[o++] = '\\';
        esc[o++] = *p;
    }
    esc[o] = '\0';
    struct sbuf b = {0};
    sbuf_printf(&b, "127.0.0.1:%d:*:%s:%s\nlocalhost:%d:*:%s:%s\n%s:%d:*:%s:%s\n", s->port, s->user,
                s->password, s->port, s->user, s->password, esc, s->port, s->user, s->password);
    int rc = server_put_secret(s, "pgpass", b.s, err, errlen);
    sbuf_free(&b);
    return rc;
}

static int pg_read_password(struct server *s, char *path, size_t pathlen)
{
    char text[4096];
    if (server_fmt(path, pathlen, "%s/pgpass", s->dir) < 0 ||
        server_read_small(path, text, sizeof text) < 0)
        return -1;
    text[strcspn(text, "\n")] = '\0';
    char *colon = strrchr(text, ':');
    if (!colon)
        return -1;
    snprintf(s->password, sizeof s->password, "%s", colon + 1);
    return 0;
}

/* postgres --describe-config: a line per setting, its name first. */
static int pg_list_settings(const char *daemon, struct sbuf *out)
{
    struct server_install def;
    char err[256];
    memset(&def, 0, sizeof def);
    if (!daemon && pg_programs(NULL, &def, err, sizeof err) < 0)
        return -1;
    const char *path = daemon ? daemon : def.daemon;
    char *argv[] = {"postgres", "--describe-config", NULL}; /* runs as root too */
    struct sbuf raw = {0};
    int rc = server_capture(path, argv, &raw);
    for (const char *l = raw.s; rc == 0 && l && *l;) {
        size_t n = strcspn(l, "\t\n");
        sbuf_add(out, l, n);
        sbuf_add(out, "\n", 1);
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    sbuf_free(&raw);
    return rc;
}

const struct server_engine_ops server_pgsql_ops = {
    .engine = SERVER_PGSQL,
    .name = "pgsql",
    .aliases = {"pgsql", "postgresql", "postgres", "pg", NULL},
    .title = "PostgreSQL",
    .children = 1,
    .os_user = "postgres",
    .package = "postgresql",
    .procs = {"postgres", NULL},
    .stop_signal = SIGINT,
    .programs = pg_programs,
    .install_words = "a PostgreSQL bin directory with initdb, pg_ctl and postgres (as "
                     "/usr/lib/postgresql/15/bin)",
    .paths = pg_paths,
    .prepare = pg_prepare,
    .command = pg_command,
    .ping = pg_ping,
    .setup = pg_setup,
    .write_credentials = pg_write_credentials,
    .read_password = pg_read_password,
    .conf_managed = pg_conf_managed,
    .list_settings = pg_list_settings,
    .conf_needs_value = 1,
    .client_opts_fmt = "",
    .client_pw_fmt = "export PGPASSFILE=%s/pgpass   (psql and libpq read it)",
    .dir_refuse = ",\"", /* unix_socket_directories is a list: comma-split, double-quoted */
};
