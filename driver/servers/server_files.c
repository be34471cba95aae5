/*
 * server_files.c - the small files a throwaway server's directory is made
 * of, as every file of this room writes and reads them: a whole small file
 * written with its mode and owner (server_put_file), a 0600 one holding the
 * password (server_put_secret) and the random password itself, a directory
 * made without following a link planted under its name (server_make_dir),
 * a small file read back (server_read_small) and a key=value line found in
 * it (server_kv); and the two checks every such path needs (server_fmt,
 * server_exists).
 *
 * The one idea: these are leaves. The lifecycle (server.c), the state file
 * (server_state.c), the templates and both engines (server_pgsql.c,
 * server_mysql.c) call down into this file, and it calls none of them, so
 * no engine has to reach back up into the room to write a file.
 *
 * It must never write the password anywhere but a 0600 file, and never
 * hand a planted link's target to the engine's user.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/procfs.h"
#include "core/safefile.h"
#include "servers/server_engine.h"

int server_fmt(char *dst, size_t n, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int r = vsnprintf(dst, n, f, ap);
    va_end(ap);
    return r < 0 || (size_t)r >= n ? -1 : 0;
}

int server_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int server_put_file(const char *path, const char *text, int flags, mode_t mode,
                    const struct spawn_ident *id)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, mode);
    if (fd < 0)
        return -1;
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t w = write(fd, text, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            close(fd);
            return -1;
        }
        text += w;
        left -= (size_t)w;
    }
    if (id && id->drop && fchown(fd, id->uid, id->gid) < 0) {
        close(fd);
        return -1;
    }
    return close(fd);
}

int server_make_dir(const char *path, mode_t mode, const struct spawn_ident *id)
{
    if (mkdir(path, mode) < 0 && errno != EEXIST)
        return -1;
    /* through a descriptor opened without following a link: one planted
     * under the name must not hand its target to the engine's user */
    int fd = dir_open_nofollow(path);
    if (fd < 0) {
        errno = -fd;
        return -1;
    }
    int rc = fchmod(fd, mode) < 0 || (id && id->drop && fchown(fd, id->uid, id->gid) < 0) ? -1 : 0;
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

/* An unguessable password of letters and digits: no quoting needed anywhere. */
int server_random_password(char *out, size_t len)
{
    static const char abc[] = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    unsigned char r[64];
    if (len > sizeof r + 1)
        len = sizeof r + 1;
    size_t got = 0;
    while (got < len - 1) {
        ssize_t n = getrandom(r + got, len - 1 - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        got += (size_t)n;
    }
    for (size_t i = 0; i < len - 1; i++)
        out[i] = abc[r[i] % (sizeof abc - 1)];
    out[len - 1] = '\0';
    return 0;
}

int server_read_small(const char *path, char *buf, size_t n)
{
    return procfs_read(path, buf, n) < 0 ? -1 : 0; /* the one small-file reader */
}

int server_kv(const char *text, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
            const char *v = p + kl + 1;
            size_t l = strcspn(v, "\n");
            if (l >= n)
                return -1;
            memcpy(out, v, l);
            out[l] = '\0';
            return 0;
        }
    }
    return -1;
}

int server_put_secret(const struct server *s, const char *name, const char *text, char *err,
                      size_t errlen)
{
    char path[PATH_MAX];
    int rc = server_fmt(path, sizeof path, "%s/%s", s->dir, name);
    if (rc == 0) {
        unlink(path);
        rc = server_put_file(path, text, O_EXCL, 0600, NULL);
    }
    if (rc < 0)
        snprintf(err, errlen, "cannot write %s/%s: %s", s->dir, name, strerror(errno));
    return rc;
}
