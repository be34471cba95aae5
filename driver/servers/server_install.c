/*
 * server_install.c - which installation of an engine a throwaway server
 * runs: the system's own, or another build a study compares it with
 * (--server-bin: a PostgreSQL bin directory, a MariaDB basedir), found,
 * checked and labelled before anything starts.
 *
 * The one idea: a results directory says which server measured it, so the
 * installation must be what its path says. Its programs are regular
 * executable files inside it, not links into another installation (a link
 * farm would label another build's figures with this one's path), and the
 * engine asked for is the one there: a MariaDB basedir given for
 * PostgreSQL is named as MariaDB's. The daemon's sha256 and its --version
 * line are the label.
 *
 * It must never start, create or change anything: it only reads, so a
 * refusal is bad input (exit 2) before any directory or server exists.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/kernelinfo.h"
#include "servers/server_engine.h"
#include "core/util.h"

/* path, one of the installation's programs: a regular executable file. */
static int program_ok(const char *dir, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        char to[PATH_MAX] = "?";
        ssize_t n = readlink(path, to, sizeof to - 1);
        to[n > 0 ? n : 1] = '\0';
        snprintf(err, errlen,
                 "%s: %s is a symbolic link (to %s): a directory of links is not an "
                 "installation (its version and sha256 would be another's): give the directory "
                 "the programs are in",
                 dir, path, to);
        return -1;
    }
    if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0) {
        snprintf(err, errlen, "%s: %s is not an executable file", dir, path);
        return -1;
    }
    return 0;
}

/* The daemon's first line of --version, and its sha256: the label. */
static void label(struct server_install *in)
{
    if (kernelinfo_sha256(in->daemon, in->sha256) < 0)
        in->sha256[0] = '\0';
    char *argv[] = {in->daemon, "--version", NULL};
    struct sbuf out = {0};
    in->version[0] = '\0';
    if (server_capture(in->daemon, argv, &out) == 0 && out.s) {
        const char *v = out.s;
        /* "/usr/sbin/mariadbd  Ver 10.11..." names itself by path: keep the rest */
        if (!strncmp(v, in->daemon, strlen(in->daemon)))
            v += strlen(in->daemon);
        v += strspn(v, " \t");
        snprintf(in->version, sizeof in->version, "%.*s", (int)strcspn(v, "\n"), v);
    }
    sbuf_free(&out);
}

/* dir holds another engine's programs: its title and daemon into err. */
static int other_engine(enum server_engine e, const char *dir, char *err, size_t errlen)
{
    for (int i = 0; server_engines[i]; i++) {
        const struct server_engine_ops *o = server_engines[i];
        struct server_install other;
        char why[256];
        memset(&other, 0, sizeof other);
        if (o->engine == e || o->programs(dir, &other, why, sizeof why) < 0)
            continue;
        snprintf(err, errlen, "%s holds %s's programs (%s), not %s's: give %s", dir, o->title,
                 other.daemon, server_engine_title(e), server_engine_ops_of(e)->install_words);
        return 1;
    }
    return 0;
}

int server_install_find(enum server_engine e, const char *dir, struct server_install *in, char *err,
                        size_t errlen)
{
    const struct server_engine_ops *ops = server_engine_ops_of(e);
    memset(in, 0, sizeof *in);
    if (!dir) {
        if (ops->programs(NULL, in, err, errlen) < 0)
            return -1;
        label(in);
        return 0;
    }
    struct stat st;
    const char *bad = !*dir                  ? "an empty path"
                      : stat(dir, &st) < 0   ? strerror(errno)
                      : !S_ISDIR(st.st_mode) ? "not a directory"
                                             : NULL;
    if (bad) {
        snprintf(err, errlen, "%s: %s: give %s", *dir ? dir : "''", bad, ops->install_words);
        return -1;
    }
    if (!realpath(dir, in->dir)) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    char why[PATH_MAX + 64];
    if (ops->programs(in->dir, in, why, sizeof why) < 0) {
        if (!other_engine(e, in->dir, err, errlen))
            snprintf(err, errlen, "%s is no %s installation (%s): give %s", dir,
                     server_engine_title(e), why, ops->install_words);
        return -1;
    }
    if (program_ok(dir, in->daemon, err, errlen) < 0 || program_ok(dir, in->tool, err, errlen) < 0)
        return -1;
    label(in);
    return 0;
}
