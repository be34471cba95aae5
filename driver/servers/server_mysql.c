/*
 * server_mysql.c - the MariaDB engine of the throwaway servers: my.cnf,
 * mariadb-install-db, the mariadbd daemon, the user and database.
 *
 * The one idea: root inside the new server authenticates by unix_socket only
 * (install-db's --auth-root-authentication-method=socket), so the admin login
 * is whoever we are on the socket, and no admin password ever exists; the
 * sbtest user's password is set once, over that socket.
 *
 * It must never read the system's option files (mariadbd gets
 * --defaults-file first) nor echo a statement that holds a password.
 */
#include <errno.h>
#include <fcntl.h>
#include <mysql.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "servers/server_engine.h"
#include "core/util.h"

static const char *first_existing(const char *const *paths)
{
    for (; *paths; paths++)
        if (access(*paths, X_OK) == 0)
            return *paths;
    return NULL;
}

static pthread_once_t my_once = PTHREAD_ONCE_INIT;
static void my_lib_init(void)
{
    mysql_library_init(0, NULL, NULL);
}

/* Connect over the socket as the OS user (unix_socket authentication). */
static MYSQL *my_admin_connect(const struct server *s, const char *osuser, char *err, size_t errlen)
{
    pthread_once(&my_once, my_lib_init);
    MYSQL *m = mysql_init(NULL);
    if (!m) {
        snprintf(err, errlen, "mysql_init failed");
        return NULL;
    }
    unsigned int to = 5;
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &to);
    if (!mysql_real_connect(m, NULL, osuser, NULL, NULL, 0, s->socket, 0)) {
        snprintf(err, errlen, "cannot connect to %s as %s: %s", s->socket, osuser, mysql_error(m));
        mysql_close(m);
        return NULL;
    }
    return m;
}

static const char *const mariadbd_paths[] = {"/usr/sbin/mariadbd", "/usr/sbin/mysqld",
                                             "/usr/local/sbin/mariadbd", NULL};
static const char *const install_db_paths[] = {"/usr/bin/mariadb-install-db",
                                               "/usr/bin/mysql_install_db",
                                               "/usr/local/bin/mariadb-install-db", NULL};

/* The first of dir/REL for rel in rels that is there (a link counts: the
 * caller judges it) into out (PATH_MAX). 0, or -1. */
static int first_under(const char *dir, const char *const *rels, char *out)
{
    for (; *rels; rels++) {
        struct stat st;
        if (server_fmt(out, PATH_MAX, "%s/%s", dir, *rels) == 0 && lstat(out, &st) == 0)
            return 0;
    }
    out[0] = '\0';
    return -1;
}

/* A basedir's programs as a tarball or `make install` lays them out (dir
 * NULL: the system's own, found as always, with no basedir to pass). */
static int my_programs(const char *dir, struct server_install *in, char *err, size_t errlen)
{
    static const char *const daemons[] = {"sbin/mariadbd",
                                          "bin/mariadbd",
                                          "libexec/mariadbd",
                                          "sbin/mysqld",
                                          "bin/mysqld",
                                          "libexec/mysqld",
                                          NULL};
    static const char *const tools[] = {"bin/mariadb-install-db", "scripts/mariadb-install-db",
                                        "bin/mysql_install_db", "scripts/mysql_install_db", NULL};
    if (!dir) {
        const char *d = first_existing(mariadbd_paths), *t = first_existing(install_db_paths);
        if (!d || !t) {
            snprintf(err, errlen, "%s not found (apt-get install mariadb-server)",
                     d ? "mariadb-install-db" : "mariadbd");
            return -1;
        }
        in->bindir[0] = '\0';
        snprintf(in->daemon, sizeof in->daemon, "%s", d);
        snprintf(in->tool, sizeof in->tool, "%s", t);
        return 0;
    }
    if (server_fmt(in->bindir, sizeof in->bindir, "%s", dir) < 0)
        return snprintf(err, errlen, "path too long: %s", dir), -1;
    if (first_under(dir, daemons, in->daemon) < 0) {
        snprintf(err, errlen, "%s: no sbin/mariadbd or bin/mariadbd there", dir);
        return -1;
    }
    if (first_under(dir, tools, in->tool) < 0) {
        snprintf(err, errlen, "%s: no bin/mariadb-install-db or scripts/mariadb-install-db there",
                 dir);
        return -1;
    }
    return 0;
}

static int my_configure(struct server *s, const struct spawn_ident *id,
                        const struct server_install *in, const char *extra, char *err,
                        size_t errlen)
{
    char path[PATH_MAX];
    struct sbuf b = {0};
    sbuf_printf(&b, "# dbscale: a throwaway server, loopback and its own socket only\n"
                    "[mysqld]\n");
    if (in->bindir[0]) /* another installation: its share/ (errmsg.sys, the system tables) */
        sbuf_printf(&b, "basedir=%s\n", in->bindir);
    sbuf_printf(&b,
                "user=%s\n"
                "datadir=%s/data\n"
                "tmpdir=%s/tmp\n"
                "socket=%s\n"
                "pid-file=%s\n"
                "port=%d\n"
                "bind-address=127.0.0.1\n"
                "skip-name-resolve\n"
                "skip-log-bin\n"
                "innodb_buffer_pool_size=256M\n"
                "innodb_log_file_size=64M\n"
                "max_connections=200\n"
                "# extra settings\n%s\n",
                id->name, s->dir, s->dir, s->socket, s->pidfile, s->port, extra ? extra : "");
    int rc = server_fmt(path, sizeof path, "%s/my.cnf", s->dir) < 0
                 ? -1
                 : server_put_file(path, b.s, O_TRUNC, 0600, id);
    sbuf_free(&b);
    if (rc < 0)
        snprintf(err, errlen, "cannot write %s/my.cnf: %s", s->dir, strerror(errno));
    return rc;
}

static int my_init(struct server *s, const struct spawn_ident *id, const struct server_install *in,
                   const char *extra, int logfd, char *err, size_t errlen)
{
    const char *tool = in->tool;
    char data[PATH_MAX], defs[PATH_MAX + 32], darg[PATH_MAX + 16], uarg[96],
        barg[PATH_MAX + 16] = "";
    if (server_fmt(data, sizeof data, "%s/data", s->dir) < 0 ||
        server_fmt(defs, sizeof defs, "--defaults-file=%s/my.cnf", s->dir) < 0 ||
        server_fmt(darg, sizeof darg, "--datadir=%s", data) < 0 ||
        (in->bindir[0] && server_fmt(barg, sizeof barg, "--basedir=%s", in->bindir) < 0) ||
        server_fmt(uarg, sizeof uarg, "--user=%s", id->name) < 0) {
        snprintf(err, errlen, "path too long: %s", s->dir);
        return -1;
    }
    if (server_make_dir(data, 0700, id) < 0) {
        snprintf(err, errlen, "cannot make %s: %s", data, strerror(errno));
        return -1;
    }
    /* A tmpdir of its own: mariadbd removes every #sql file in its tmpdir as
     * it starts, so servers sharing /tmp delete each other's temporary tables
     * (with six starting at once, a quarter of the bootstraps failed). */
    char tmp[PATH_MAX];
    if (server_fmt(tmp, sizeof tmp, "%s/tmp", s->dir) < 0 || server_make_dir(tmp, 0700, id) < 0) {
        snprintf(err, errlen, "cannot make %s/tmp: %s", s->dir, strerror(errno));
        return -1;
    }
    /* DBSCALE_SERVER_CACHE (server_template.c): install-db reads my.cnf, so
     * the extra settings are part of the template's name */
    const char *const stamps[] = {"/proc/self/exe", tool, in->daemon, NULL};
    struct server_template tp;
    int took = server_template_take(&tp, "mysql", stamps, extra, data, NULL, 0, logfd, err, errlen);
    if (took != 0)
        return took < 0 ? -1 : 0;
    char *argv[] = {"mariadb-install-db",
                    defs,
                    uarg,
                    darg,
                    "--skip-test-db",
                    "--skip-name-resolve",
                    "--auth-root-authentication-method=socket",
                    barg[0] ? barg : NULL,
                    NULL};
    /* install-db drops to --user itself and needs root for that; as ourselves it is us. */
    struct spawn_ident self = *id;
    self.drop = 0;
    struct spawn_cmd sp = {tool, argv, logfd, &self, NULL, 0};
    pid_t pid = spawn_start(&sp, s->dir);
    if (pid < 0) {
        snprintf(err, errlen, "cannot start mariadb-install-db: %s", strerror(errno));
        return -1;
    }
    if (spawn_wait(pid, "mariadb-install-db", SERVER_START_TIMEOUT_MS, err, errlen) < 0)
        return -1;
    server_template_keep(&tp, data, NULL, logfd);
    return 0;
}

static int my_setup(struct server *s, const struct spawn_ident *id, const char *superpw, char *err,
                    size_t errlen)
{
    (void)superpw;
    MYSQL *m = my_admin_connect(s, id->admin, err, errlen);
    if (!m)
        return -1;
    snprintf(s->version, sizeof s->version, "%s", mysql_get_server_info(m));
    /* This session is not logged anywhere: CREATE USER holds the password in
     * clear, and the general and slow logs keep statement text as sent (we
     * are root on the socket, so these session settings are ours to make). */
    static const char *const quiet[] = {"SET SESSION sql_log_off = 1",
                                        "SET SESSION slow_query_log = 0",
                                        "SET SESSION sql_log_bin = 0", NULL};
    for (int i = 0; quiet[i]; i++)
        if (mysql_query(m, quiet[i])) {
            snprintf(err, errlen, "turning logging off for setup: %s", mysql_error(m));
            mysql_close(m);
            return -1;
        }
    char sql[9][256];
    snprintf(sql[0], sizeof sql[0], "CREATE DATABASE %s", s->db);
    snprintf(sql[1], sizeof sql[1], "CREATE USER '%s'@'localhost' IDENTIFIED BY '%s'", s->user,
             s->password);
    snprintf(sql[2], sizeof sql[2], "CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s'", s->user,
             s->password);
    snprintf(sql[3], sizeof sql[3], "GRANT ALL ON %s.* TO '%s'@'localhost'", s->db, s->user);
    snprintf(sql[4], sizeof sql[4], "GRANT ALL ON %s.* TO '%s'@'127.0.0.1'", s->db, s->user);
    /* what the why collectors read (driver/why/why_my.c): the wait
     * summaries and InnoDB's status and counters */
    for (int h = 0; h < 2; h++) {
        const char *host = h ? "127.0.0.1" : "localhost";
        snprintf(sql[5 + h], sizeof sql[5], "GRANT SELECT ON performance_schema.* TO '%s'@'%s'",
                 s->user, host);
        snprintf(sql[7 + h], sizeof sql[7], "GRANT PROCESS ON *.* TO '%s'@'%s'", s->user, host);
    }
    for (int i = 0; i < 9; i++)
        if (mysql_query(m, sql[i])) {
            snprintf(err, errlen, "setting up user and database: %s", mysql_error(m));
            mysql_close(m);
            return -1;
        }
    mysql_close(m);
    return 0;
}

static int my_prepare(struct server *s, const struct spawn_ident *id,
                      const struct server_install *in, int logfd, const char *extra, char *superpw,
                      char *err, size_t errlen)
{
    (void)superpw; /* root logs in by unix_socket: there is no admin password */
    if (my_configure(s, id, in, extra, err, errlen) < 0)
        return -1;
    return my_init(s, id, in, extra, logfd, err, errlen);
}

static int my_paths(struct server *s)
{
    return server_fmt(s->socket, sizeof s->socket, "%s/mysql.sock", s->socket_dir) < 0 ||
                   server_fmt(s->pidfile, sizeof s->pidfile, "%s/mariadbd.pid", s->socket_dir) < 0
               ? -1
               : 0;
}

static int my_command(const struct server *s, const struct server_install *in,
                      struct server_cmd *cmd, char *err, size_t errlen)
{
    snprintf(cmd->path, sizeof cmd->path, "%s", in->daemon);
    if (server_fmt(cmd->arg, sizeof cmd->arg, "--defaults-file=%s/my.cnf", s->dir) < 0)
        return snprintf(err, errlen, "path too long"), -1;
    cmd->argv[0] = "mariadbd";
    cmd->argv[1] = cmd->arg;
    cmd->argv[2] = NULL;
    return 0;
}

/* Any answer, even "access denied", means it is up. */
static int my_ping(const struct server *s, const struct spawn_ident *id)
{
    char scratch[256];
    MYSQL *m = my_admin_connect(s, id->admin, scratch, sizeof scratch);
    if (m) {
        mysql_close(m);
        return 1;
    }
    return strstr(scratch, "denied") != NULL;
}

/* mysqld reads more than the key as written: a loose_ prefix (any number),
 * the skip_/disable_/enable_/maximum_ modifiers, and any unambiguous
 * abbreviation (bind_addr is bind_address). So: strip those, and refuse a key
 * that is a prefix of a managed one. key is lower case, '-' as '_'. */
static const char *my_conf_managed(const char *key)
{
    static const char *const managed[] = {"bind_address",
                                          "port",
                                          "extra_port",
                                          "socket",
                                          "datadir",
                                          "pid_file",
                                          "user",
                                          "skip_networking",
                                          "networking",
                                          "named_pipe",
                                          "log_error",
                                          "basedir",
                                          "defaults_file",
                                          "defaults_extra_file",
                                          "defaults_group_suffix",
                                          "skip_grant_tables",
                                          "grant_tables",
                                          NULL};
    static const char *const mods[] = {"skip_", "disable_", "enable_", "maximum_", NULL};
    while (!strncmp(key, "loose_", 6))
        key += 6;
    const char *forms[2] = {key, key};
    for (int m = 0; mods[m]; m++)
        if (!strncmp(key, mods[m], strlen(mods[m])))
            forms[1] = key + strlen(mods[m]);
    for (int f = 0; f < 2; f++) {
        size_t l = strlen(forms[f]);
        for (int i = 0; l && managed[i]; i++)
            if (!strncmp(forms[f], managed[i], l))
                return managed[i];
    }
    return NULL;
}

/* The password in a [client] option file (mariadb --defaults-file=DIR/client.cnf). */
static int my_write_credentials(const struct server *s, char *err, size_t errlen)
{
    struct sbuf b = {0};
    sbuf_printf(&b, "[client]\nuser=%s\npassword=%s\nport=%d\nsocket=%s\n", s->user, s->password,
                s->port, s->socket);
    int rc = server_put_secret(s, "client.cnf", b.s, err, errlen);
    sbuf_free(&b);
    return rc;
}

static int my_read_password(struct server *s, char *path, size_t pathlen)
{
    char text[4096];
    if (server_fmt(path, pathlen, "%s/client.cnf", s->dir) < 0 ||
        server_read_small(path, text, sizeof text) < 0)
        return -1;
    char *p = strstr(text, "\npassword=");
    return p ? server_kv(p + 1, "password", s->password, sizeof s->password) : -1;
}

/* mariadbd --verbose --help: a line "  --name[=...]  help" per option. */
static int my_list_settings(const char *daemon, struct sbuf *out)
{
    const char *bin = daemon ? daemon : first_existing(mariadbd_paths);
    char *argv[] = {"mariadbd", "--no-defaults", "--verbose", "--help", NULL};
    struct sbuf raw = {0};
    int rc = bin ? server_capture(bin, argv, &raw) : -1;
    for (const char *l = raw.s; rc == 0 && l && *l;) {
        if (!strncmp(l, "  --", 4)) {
            for (const char *c = l + 4; *c && !strchr("=[ \t\n", *c); c++)
                sbuf_add(out, *c == '-' ? "_" : c, 1);
            sbuf_add(out, "\n", 1);
        }
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    sbuf_free(&raw);
    return rc;
}

const struct server_engine_ops server_mysql_ops = {
    .engine = SERVER_MYSQL,
    .name = "mysql",
    .aliases = {"mysql", "mariadb", NULL},
    .title = "MariaDB",
    .client_socket = 1,
    .os_user = "mysql",
    .package = "mariadb-server",
    .procs = {"mariadbd", "mysqld", NULL},
    .stop_signal = SIGTERM,
    .programs = my_programs,
    .install_words = "a MariaDB basedir with sbin/ or bin/mariadbd and bin/ or "
                     "scripts/mariadb-install-db (as /usr)",
    .paths = my_paths,
    .prepare = my_prepare,
    .command = my_command,
    .ping = my_ping,
    .setup = my_setup,
    .write_credentials = my_write_credentials,
    .read_password = my_read_password,
    .conf_managed = my_conf_managed,
    .list_settings = my_list_settings,
    .client_opts_fmt = " --mysql-defaults-file=%s/client.cnf",
    .client_pw_fmt = "in %s/client.cnf   (mariadb --defaults-extra-file=DIR/client.cnf)",
    .dir_refuse = "\\'\"#;", /* option files read escapes, quotes and comments in values */
};
