/*
 * server.c - throwaway local PostgreSQL / MariaDB servers, the embedded
 * default behind the demo, the sweep and every integration test.
 *
 * The one idea: a server is a directory. Data, socket, pid file, log, the
 * password files and a small state file all live under it, the server listens
 * on that socket and 127.0.0.1 only, and stopping it means a clean shutdown
 * followed by removing the directory. Nothing is read from or written to the
 * system's own configuration (/etc/mysql, /etc/postgresql, ~/.pgpass).
 *
 * This room is the lifecycle, the same for both engines: directory, port,
 * start with retries and stop; the `server` verb is server_verb.c, the state
 * file server_state.c, the checks of a request before anything is made
 * server_request.c, the loopback checks (extra config lines before start,
 * the real sockets after) server_conf.c, which settings a server knows
 * server_settings.c, the engine table with its one lookup server_engines.c,
 * what a failed start quotes of its log server_log.c, and the opt-in
 * data-directory templates server_template.c. What differs per engine sits
 * behind server_engine.h (server_pgsql.c, server_mysql.c). Below them all,
 * what every file lends the others: the small files and the password files
 * (server_files.c), a program run for what it prints (server_capture.c),
 * and running, waiting for and killing processes (spawn.c). Engines refuse
 * to run as root, so when we are root the engine's processes run as its
 * system user (postgres, mysql); every fd we open is O_CLOEXEC.
 *
 * It must never listen beyond loopback, never print or log the password (it
 * lives only in memory and in the 0600 files), and never remove a directory
 * that does not hold a server's state file.
 */
#include "servers/server.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/cpulist.h"
#include "machine/cpuset.h"
#include "servers/server_engine.h"
#include "core/signals.h"
#include "core/safefile.h"
#include "servers/spawn.h"
#include "core/util.h"

#define STOP_TIMEOUT_MS 30000
#define KILL_TIMEOUT_MS 5000

static const struct server_engine_ops *ops_of(enum server_engine e)
{
    return server_engine_ops_of(e);
}

/* A port free on 127.0.0.1 right now (the kernel's choice). */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    int port = -1;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &al) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

static int get_ident(enum server_engine e, struct spawn_ident *id, char *err, size_t errlen)
{
    struct passwd pw, *res = NULL;
    char buf[4096];
    memset(id, 0, sizeof *id);
    if (getpwuid_r(geteuid(), &pw, buf, sizeof buf, &res) != 0 || !res) {
        snprintf(err, errlen, "cannot find the name of uid %ld", (long)geteuid());
        return -1;
    }
    snprintf(id->admin, sizeof id->admin, "%s", pw.pw_name);
    if (geteuid() == 0) {
        const char *name = ops_of(e)->os_user;
        if (getpwnam_r(name, &pw, buf, sizeof buf, &res) != 0 || !res) {
            snprintf(err, errlen,
                     "running as root, but there is no '%s' user to run the server as "
                     "(install the %s server package)",
                     name, ops_of(e)->package);
            return -1;
        }
        id->drop = 1;
    } else if (getpwuid_r(geteuid(), &pw, buf, sizeof buf, &res) != 0 || !res) {
        snprintf(err, errlen, "cannot find the name of uid %ld", (long)geteuid());
        return -1;
    }
    id->uid = pw.pw_uid;
    id->gid = pw.pw_gid;
    snprintf(id->name, sizeof id->name, "%s", pw.pw_name);
    return 0;
}

/* ---- the server process ---------------------------------------------- */

/* Did our child exit? Reaps it if so. */
static int child_exited(struct server *s)
{
    if (!s->child)
        return 0;
    int st;
    pid_t r = waitpid(s->pid, &st, WNOHANG);
    if (r == s->pid) {
        s->child = 0;
        return 1;
    }
    if (r < 0 && errno == ECHILD) { /* SIGCHLD ignored by our host: the kernel reaps it */
        s->child = 0;
        return !spawn_alive(s->pid);
    }
    return 0;
}

/* Is pid the engine's server process (not a recycled pid)? */
static int is_engine_process(const struct server *s)
{
    char buf[256];
    if (spawn_proc_read(s->pid, "cmdline", buf, sizeof buf) <= 0)
        return 0;
    for (const char *const *p = ops_of(s->engine)->procs; *p; p++)
        if (strstr(buf, *p))
            return 1;
    return 0;
}

/* The pid in the engine's pid file (first line), or 0. */
static pid_t pidfile_pid(const struct server *s)
{
    char buf[32];
    int fd = open(s->pidfile, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return (pid_t)atol(buf);
}

/* Is s->pid still this server, not a recycled pid? Both engines chdir into
 * their data directory, which names the server exactly. */
static int is_ours(const struct server *s)
{
    if (s->child)
        return 1;
    char link[64], cwd[PATH_MAX], want[PATH_MAX];
    snprintf(link, sizeof link, "/proc/%ld/cwd", (long)s->pid);
    ssize_t n = readlink(link, cwd, sizeof cwd - 1);
    if (n > 0 && server_fmt(want, sizeof want, "%s/data", s->dir) == 0) {
        cwd[n] = '\0';
        return strcmp(cwd, want) == 0;
    }
    return is_engine_process(s) && pidfile_pid(s) == s->pid; /* cwd hidden from us */
}

/* ---- start / stop ----------------------------------------------------- */

static int launch(struct server *s, const struct spawn_ident *id, const struct server_install *in,
                  int logfd, const cpu_set_t *cpus, size_t cpus_size, char *err, size_t errlen)
{
    const struct server_engine_ops *ops = ops_of(s->engine);
    struct server_cmd cmd;
    if (ops->command(s, in, &cmd, err, errlen) < 0)
        return -1;
    struct spawn_cmd sp = {cmd.path, cmd.argv, logfd, id, cpus, cpus_size};
    s->pid = spawn_start(&sp, s->dir);
    if (s->pid < 0) {
        s->pid = 0;
        snprintf(err, errlen, "cannot fork: %s", strerror(errno));
        return -1;
    }
    s->child = 1;
    /* Ready = the pid file is there and a connection is accepted. */
    for (int t = 0;; t += 25) {
        if (child_exited(s)) {
            snprintf(err, errlen, "%s exited during startup", cmd.argv[0]);
            s->pid = 0;
            return -1;
        }
        if (server_exists(s->pidfile) && ops->ping(s, id))
            return 0;
        if (signals_caught()) { /* a stop ends the start at once (halt follows) */
            snprintf(err, errlen, "%s start interrupted by signal %d", cmd.argv[0],
                     signals_caught());
            return -1;
        }
        if (t >= SERVER_START_TIMEOUT_MS) {
            snprintf(err, errlen, "%s did not accept connections within %d s", cmd.argv[0],
                     SERVER_START_TIMEOUT_MS / 1000);
            return -1;
        }
        spawn_sleep_ms(25);
    }
}

/* Shut down: clean first, SIGKILL to the whole session after a timeout. */
static int halt(struct server *s, char *err, size_t errlen)
{
    if (s->pid <= 0)
        return 0;
    /* not our child (server stop of another dbscale's server): its pid may
     * be recycled once it exits, so it is watched and killed through a
     * pidfd taken before it is checked to be the server */
    int pfd = s->child ? -1 : spawn_pidfd(s->pid), rc = 0;
    if (!child_exited(s) && spawn_alive_fd(s->pid, pfd) && is_ours(s)) {
        if (kill(s->pid, ops_of(s->engine)->stop_signal) < 0) {
            snprintf(err, errlen, "cannot signal server pid %ld: %s", (long)s->pid,
                     strerror(errno));
            rc = -1;
        }
        int t = 0;
        for (; rc == 0 && t < STOP_TIMEOUT_MS; t += 20) {
            if (child_exited(s) || !spawn_alive_fd(s->pid, pfd))
                break;
            spawn_sleep_ms(20);
        }
        if (rc == 0 && t >= STOP_TIMEOUT_MS) {
            /* the server leads its session: all its processes */
            spawn_kill_session_fd(s->pid, pfd);
            for (t = 0; t < KILL_TIMEOUT_MS && !child_exited(s) && spawn_alive_fd(s->pid, pfd);
                 t += 20)
                spawn_sleep_ms(20);
            if (spawn_alive_fd(s->pid, pfd)) {
                snprintf(err, errlen, "server pid %ld did not stop", (long)s->pid);
                rc = -1;
            }
        }
    }
    if (pfd >= 0)
        close(pfd);
    if (rc < 0)
        return -1;
    child_exited(s);
    s->pid = 0;
    return 0;
}

/* Everything under s->dir except the port: one attempt. */
static int start_once(struct server *s, const struct spawn_ident *id,
                      const struct server_install *in, const char *extra, const cpu_set_t *cpus,
                      size_t cpus_size, char *err, size_t errlen)
{
    const struct server_engine_ops *ops = ops_of(s->engine);
    char path[PATH_MAX];
    if (server_fmt(path, sizeof path, "%s/log", s->dir) < 0)
        return snprintf(err, errlen, "path too long: %s", s->dir), -1;
    int logfd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (logfd < 0)
        return snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno)), -1;
    char superpw[40] = "";
    int rc = -1;
    if (ops->prepare(s, id, in, logfd, extra, superpw, err, errlen) == 0 &&
        launch(s, id, in, logfd, cpus, cpus_size, err, errlen) == 0 &&
        ops->setup(s, id, superpw, err, errlen) == 0)
        rc = 0;
    memset(superpw, 0, sizeof superpw);
    close(logfd);
    return rc;
}

/* Can the engine's user walk down to dir? (root can; postgres may not reach /root/x.) */
static int reachable(const char *dir, const struct spawn_ident *id, char *err, size_t errlen)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", dir);
    for (char *slash = strrchr(p, '/'); slash; slash = strrchr(p, '/')) {
        *slash = '\0';
        struct stat st;
        const char *a = p[0] ? p : "/";
        if (stat(a, &st) < 0)
            continue;
        int ok = (st.st_uid == id->uid && (st.st_mode & S_IXUSR)) ||
                 (st.st_gid == id->gid && (st.st_mode & S_IXGRP)) || (st.st_mode & S_IXOTH);
        if (!ok) {
            snprintf(err, errlen,
                     "the '%s' user the server runs as cannot reach %s (%s is mode %04o): "
                     "use a directory under /tmp",
                     id->name, dir, a, (unsigned)(st.st_mode & 07777));
            return -1;
        }
    }
    return 0;
}

static void tell_guard(pid_t pid, void *arg)
{
    server_guard_pid(arg, pid);
}

/* The CPU mask of a list already checked, sized from the machine
 * (core/cpulist.h); NULL for none. CPU_FREE it. */
static cpu_set_t *cpus_mask(const char *cpus, size_t *size)
{
    struct cpulist ml;
    char why[160];
    if (!cpus || !*cpus)
        return NULL;
    if (cpulist_init(&ml) == 0 && cpulist_parse(&ml, cpus, 0, why, sizeof why) > 0) {
        *size = ml.size;
        return ml.set;
    }
    cpulist_free(&ml);
    return NULL;
}

/* s->dir: dir (made, 0700, if it is not there) or a new temporary one.
 * 1 made here, 0 it was there, -1 with err. */
static int make_dir(struct server *s, const char *dir, char *err, size_t errlen)
{
    if (!dir) {
        const char *tmp = getenv("TMPDIR");
        if (server_fmt(s->dir, sizeof s->dir, "%s/dbscale-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
                       server_engine_name(s->engine)) < 0 ||
            !mkdtemp(s->dir)) {
            snprintf(err, errlen, "cannot make a temporary directory: %s", strerror(errno));
            return -1;
        }
        return 1;
    }
    if (server_fmt(s->dir, sizeof s->dir, "%s", dir) < 0) {
        snprintf(err, errlen, "path too long: %s", dir);
        return -1;
    }
    if (server_exists(s->dir))
        return 0;
    int r = mkdir_p(s->dir, 0755); /* parents the engine's user can walk */
    if (r == 0 && chmod(s->dir, 0700) < 0)
        r = -errno;
    if (r < 0) {
        snprintf(err, errlen, "cannot make %s: %s", s->dir, strerror(-r));
        return -1;
    }
    return 1;
}

int server_start(struct server *s, enum server_engine e, const char *dir, int port,
                 const char *cpus, const char *extra_conf, char *err, size_t errlen)
{
    return server_start_from(s, e, NULL, dir, port, cpus, extra_conf, err, errlen);
}

int server_start_from(struct server *s, enum server_engine e, const struct server_install *from,
                      const char *dir, int port, const char *cpus, const char *extra_conf,
                      char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->engine = e;
    err[0] = '\0';
    struct spawn_ident id;
    if (get_ident(e, &id, err, errlen) < 0)
        return -1;
    const struct server_engine_ops *ops = ops_of(e);
    /* the programs: the caller's installation, else the default one */
    struct server_install def;
    const struct server_install *in = from;
    if (!in) {
        memset(&def, 0, sizeof def);
        if (ops->programs(NULL, &def, err, errlen) < 0)
            return -1;
        in = &def;
    }
    if (server_check_request_from(e, in, dir, cpus, extra_conf, err, errlen) < 0)
        return -1;
    size_t mask_size = 0;
    cpu_set_t *mask = cpus_mask(cpus, &mask_size);
    int made = make_dir(s, dir, err, errlen);
    if (made < 0)
        goto fail_early;
    /* Absolute, so the engine (chdir'd to /) and the state file agree. */
    char real[PATH_MAX];
    if (!realpath(s->dir, real)) {
        snprintf(err, errlen, "%s: %s", s->dir, strerror(errno));
        goto fail_dir;
    }
    snprintf(s->dir, sizeof s->dir, "%s", real);
    /* From here a guardian removes what is made if we die, and kills what
     * is started for the server (spawn_on_start), before it is up too. */
    if (server_guard(s, err, errlen) < 0)
        goto fail_dir;
    spawn_on_start(tell_guard, s);
    /* The engine's user must reach data/ and sock/ through dir. */
    if (id.drop && reachable(s->dir, &id, err, errlen) < 0)
        goto fail_dir;
    /* 0700: the log and the config are nobody else's; when we are root the
     * directory is the engine user's, so it still reaches data/ and sock/. */
    if ((id.drop && chown(s->dir, id.uid, id.gid) < 0) || chmod(s->dir, 0700) < 0) {
        snprintf(err, errlen, "chmod %s: %s", s->dir, strerror(errno));
        goto fail_dir;
    }
    snprintf(s->user, sizeof s->user, "sbtest");
    snprintf(s->db, sizeof s->db, "sbtest");
    if (server_random_password(s->password, 25) < 0) {
        snprintf(err, errlen, "getrandom: %s", strerror(errno));
        goto fail_dir;
    }
    if (server_fmt(s->socket_dir, sizeof s->socket_dir, "%s/sock", s->dir) < 0 ||
        server_make_dir(s->socket_dir, 0755, &id) < 0) {
        snprintf(err, errlen, "cannot make %s/sock: %s", s->dir, strerror(errno));
        goto fail_dir;
    }
    for (int attempt = 0;; attempt++) {
        s->port = port ? port : free_port();
        if (s->port <= 0) {
            snprintf(err, errlen, "cannot find a free port on 127.0.0.1");
            goto fail_dir;
        }
        if (ops->paths(s) < 0 || strlen(s->socket) >= sizeof((struct sockaddr_un *)0)->sun_path) {
            snprintf(err, errlen, "directory path too long for a unix socket: %s", s->dir);
            goto fail_dir;
        }
        if (start_once(s, &id, in, extra_conf, mask, mask_size, err, errlen) == 0) {
            if (server_check_listen(s, err, errlen) == 0)
                break;
            char e2[64];
            halt(s, e2, sizeof e2); /* never left running beyond loopback */
            goto fail_dir;
        }
        server_log_tail(s, err, errlen);
        char e2[64];
        halt(s, e2, sizeof e2);
        /* A port picked by us may have been taken meanwhile: try another, from scratch. */
        if (port || attempt >= 2 || !strstr(err, "in use"))
            goto fail_dir;
        char sock[PATH_MAX];
        snprintf(sock, sizeof sock, "%s", s->socket_dir);
        spawn_rm_rf(s->dir, 1);
        server_make_dir(sock, 0755, &id);
    }
    if (server_state_write(s, &id, err, errlen) < 0) {
        char e2[64];
        halt(s, e2, sizeof e2);
        goto fail_dir;
    }
    spawn_on_start(NULL, NULL);
    CPU_FREE(mask);
    return 0;
fail_dir:
    spawn_on_start(NULL, NULL);
    spawn_rm_rf(s->dir, !made);
    server_unguard(s); /* what it guarded is gone */
fail_early:
    if (mask)
        CPU_FREE(mask);
    memset(s->password, 0, sizeof s->password);
    return -1;
}

int server_stop(struct server *s, char *err, size_t errlen)
{
    err[0] = '\0';
    server_unguard(s); /* we stop it: the guardian has nothing left to do */
    if (!s->dir[0])
        return 0;
    if (halt(s, err, errlen) < 0)
        return -1;
    /* The server may have been restarted under another pid since the state
     * file was written: the engine's own pid file names the live one. Stop
     * that too, and never remove the directory under a running server. */
    for (int round = 0; round < 2; round++) {
        pid_t live = pidfile_pid(s);
        if (live <= 0 || !spawn_alive(live))
            break;
        s->pid = live;
        s->child = 0;
        if (!is_ours(s))
            break; /* a stale pid file, its pid reused by another process */
        if (round == 1) {
            snprintf(err, errlen, "server pid %ld (from %s) still runs: %s not removed", (long)live,
                     s->pidfile, s->dir);
            return -1;
        }
        if (halt(s, err, errlen) < 0)
            return -1;
    }
    if (spawn_rm_rf(s->dir, 0) < 0) {
        snprintf(err, errlen, "cannot remove %s: %s", s->dir, strerror(errno));
        return -1;
    }
    memset(s->password, 0, sizeof s->password);
    s->dir[0] = '\0';
    return 0;
}
