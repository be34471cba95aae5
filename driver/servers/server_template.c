/*
 * server_template.c - DBSCALE_SERVER_CACHE: a freshly initialised data
 * directory kept per engine build and extra settings, and copied in place of
 * initdb or mariadb-install-db the next time (a MariaDB bootstrap takes 2 s
 * here and PostgreSQL's initdb 1 s; the copy a tenth of that).
 *
 * The one idea: a template is what the engine's own tool made, taken before
 * the server ever ran, under a name that changes with anything that could
 * make it differ (the tool's and the daemon's files' size and mtime, the
 * extra settings, who we are). It is kept by copying into a private name
 * and renaming, so two starts at once never see half of one: NAME/data,
 * and for PostgreSQL NAME/superpw (0600, the superuser's password initdb
 * set; never inside data/, which is copied into a server's directory).
 *
 * It is opt-in (the integration tests set it for their run). The directory
 * must be ours, a real directory and writable by no one else, or the start
 * is refused: a template is a server's whole data, and one planted there
 * would be run as it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "servers/server_engine.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* t from the variable: off (t->on 0), or the template's name; -1 when the
 * variable names a directory that is not ours alone. */
static int template_open(struct server_template *t, const char *engine, const char *const stamps[],
                         const char *extra, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    const char *dir = getenv("DBSCALE_SERVER_CACHE");
    if (!dir || !*dir)
        return 0;
    if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
        snprintf(err, errlen, "DBSCALE_SERVER_CACHE=%s: cannot make it: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 022)) {
        snprintf(err, errlen,
                 "DBSCALE_SERVER_CACHE=%s: not a directory of yours that only you can write "
                 "(a template there is run as a server's data); fix it or unset the variable",
                 dir);
        return -1;
    }
    uint64_t h = 14695981039346656037ull;
    h = fnv(h, "dbscale-template-2", 18);
    h = fnv(h, engine, strlen(engine) + 1);
    uid_t me = geteuid();
    h = fnv(h, &me, sizeof me);
    for (int i = 0; stamps[i]; i++) {
        struct stat b;
        if (stat(stamps[i], &b) < 0)
            return 0; /* the start itself will say what is missing */
        /* size and mtime to the nanosecond, not device and inode: a kernels
         * study's guest sees these same files over 9p under other numbers,
         * and takes the host's templates (driver/vm/study.c) */
        uint64_t f[3] = {(uint64_t)b.st_size, (uint64_t)b.st_mtim.tv_sec,
                         (uint64_t)b.st_mtim.tv_nsec};
        h = fnv(h, stamps[i], strlen(stamps[i]) + 1);
        h = fnv(h, f, sizeof f);
    }
    h = fnv(h, extra ? extra : "", extra ? strlen(extra) : 0);
    if (server_fmt(t->path, sizeof t->path, "%s/%s-%016llx", dir, engine, (unsigned long long)h) <
            0 ||
        server_fmt(t->dir, sizeof t->dir, "%s", dir) < 0)
        return 0; /* too long a name: no template, the tool runs */
    t->on = 1;
    return 0;
}

/* cp -a from/. to (to exists), as ourselves: owners and modes kept. */
static int copy_tree(const char *from, const char *to, int logfd, char *err, size_t errlen)
{
    char src[PATH_MAX + 8];
    if (server_fmt(src, sizeof src, "%s/.", from) < 0) {
        snprintf(err, errlen, "path too long: %s", from);
        return -1;
    }
    char *argv[] = {"cp", "-a", "--", src, (char *)to, NULL};
    struct spawn_ident self = {0}; /* as ourselves: no drop */
    struct spawn_cmd sp = {"/bin/cp", argv, logfd, &self, NULL, 0};
    pid_t pid = spawn_start(&sp, "/");
    if (pid < 0) {
        snprintf(err, errlen, "cannot start cp: %s", strerror(errno));
        return -1;
    }
    return spawn_wait(pid, "cp", SERVER_START_TIMEOUT_MS, err, errlen);
}

int server_template_take(struct server_template *t, const char *engine, const char *const stamps[],
                         const char *extra, const char *data, char *superpw, size_t pwlen,
                         int logfd, char *err, size_t errlen)
{
    if (template_open(t, engine, stamps, extra, err, errlen) < 0)
        return -1;
    if (!t->on)
        return 0;
    char from[PATH_MAX + 8];
    struct stat st;
    if (lstat(t->path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
        server_fmt(from, sizeof from, "%s/data", t->path) < 0)
        return 0;
    if (superpw) {
        char pwpath[PATH_MAX + 16], buf[128];
        if (server_fmt(pwpath, sizeof pwpath, "%s/superpw", t->path) < 0 ||
            server_read_small(pwpath, buf, sizeof buf) < 0)
            return 0;
        buf[strcspn(buf, "\n")] = '\0';
        snprintf(superpw, pwlen, "%s", buf);
        memset(buf, 0, sizeof buf);
    }
    if (copy_tree(from, data, logfd, err, errlen) < 0)
        return -1;
    dprintf(logfd, "dbscale: the data directory is a copy of the template %s\n", t->path);
    return 1;
}

void server_template_keep(const struct server_template *t, const char *data, const char *superpw,
                          int logfd)
{
    if (!t->on || server_exists(t->path))
        return;
    char tmp[PATH_MAX], to[PATH_MAX + 8], err[512];
    if (server_fmt(tmp, sizeof tmp, "%s/.new-XXXXXX", t->dir) < 0 || !mkdtemp(tmp))
        return;
    /* data/ and, beside it (never inside: it is copied into a server's
     * directory), the superuser's password initdb set */
    int ok = server_fmt(to, sizeof to, "%s/data", tmp) == 0 &&
             copy_tree(data, to, logfd, err, sizeof err) == 0;
    if (ok && superpw) {
        char line[128];
        ok = server_fmt(to, sizeof to, "%s/superpw", tmp) == 0 &&
             server_fmt(line, sizeof line, "%s\n", superpw) == 0 &&
             server_put_file(to, line, O_EXCL, 0600, NULL) == 0;
        memset(line, 0, sizeof line);
    }
    /* whole or not at all: a template another start kept first stays */
    if (!ok || rename(tmp, t->path) < 0)
        spawn_rm_rf(tmp, 0);
}
