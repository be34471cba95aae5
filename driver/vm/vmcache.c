/*
 * vmcache.c - the kernels study's cache directory, chosen as XDG says and
 * trusted only when it is private.
 *
 * The one idea: what is in the cache boots with the host's root shared in
 * and writes the study, so the cache is trusted exactly when nobody but
 * this user (and root) could have put anything there: every directory on
 * the way is owned by root or this user and writable by no one else unless
 * sticky (as /tmp), every link on the way is root's or this user's, and the
 * cache itself is this user's and writable by no one else. Anything else is
 * refused with the reason, never used and never "fixed": a cache another
 * user could write is not ours to chmod. The fallback is the home directory
 * from the password database, never a guessable name in /tmp.
 */
#include "vm/vmcache.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

/* One directory or link on the way to the cache (not the cache itself). */
static int check_step(const char *p, char *why, size_t whylen)
{
    struct stat st;
    if (lstat(p, &st) < 0) {
        snprintf(why, whylen, "%s: %s", p, strerror(errno));
        return -1;
    }
    uid_t me = geteuid();
    if (st.st_uid != 0 && st.st_uid != me) {
        snprintf(why, whylen, "%s is owned by uid %d, neither root nor you", p, (int)st.st_uid);
        return -1;
    }
    if (S_ISLNK(st.st_mode))
        return 0; /* its target is walked on the resolved path */
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, whylen, "%s is not a directory", p);
        return -1;
    }
    if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)) {
        snprintf(why, whylen,
                 "%s is writable by others (mode %04o, not sticky): they could replace what "
                 "is under it",
                 p, (unsigned)(st.st_mode & 07777));
        return -1;
    }
    return 0;
}

/* Every prefix of path ("/a", "/a/b", ...) through check_step. */
static int check_way(const char *path, char *why, size_t whylen)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) {
        snprintf(why, whylen, "%s: path too long", path);
        return -1;
    }
    if (check_step("/", why, whylen) < 0)
        return -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        int rc = check_step(p, why, whylen);
        *s = '/';
        if (rc < 0)
            return -1;
    }
    return check_step(p, why, whylen);
}

int vmcache_private(const char *dir, char *why, size_t whylen)
{
    char parent[PATH_MAX], real[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent || dir[0] != '/') {
        snprintf(why, whylen, "%s: not an absolute path below /", dir);
        return -1;
    }
    *slash = '\0';
    /* the way as given (its links) and as resolved (the directories they name) */
    if (check_way(parent, why, whylen) < 0)
        return -1;
    if (!realpath(parent, real)) {
        snprintf(why, whylen, "%s: %s", parent, strerror(errno));
        return -1;
    }
    if (check_way(real, why, whylen) < 0)
        return -1;
    struct stat st;
    if (lstat(dir, &st) < 0) {
        snprintf(why, whylen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, whylen, "%s is not a directory%s", dir,
                 S_ISLNK(st.st_mode) ? " (a symbolic link)" : "");
        return -1;
    }
    if (st.st_uid != geteuid()) {
        snprintf(why, whylen, "%s is owned by uid %d, not you", dir, (int)st.st_uid);
        return -1;
    }
    if (st.st_mode & 022) {
        snprintf(why, whylen, "%s is writable by others (mode %04o)", dir,
                 (unsigned)(st.st_mode & 07777));
        return -1;
    }
    return 0;
}

int vmcache_dir(char *dir, size_t len, char *why, size_t whylen)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    struct passwd *pw = NULL;
    if (x && x[0] == '/') /* XDG: a relative value is ignored */
        snprintf(dir, len, "%s/dbscale", x);
    else if ((home && home[0] == '/') || ((pw = getpwuid(geteuid())) && pw->pw_dir[0] == '/'))
        snprintf(dir, len, "%s/.cache/dbscale", home && home[0] == '/' ? home : pw->pw_dir);
    else {
        snprintf(dir, len, "(none)");
        snprintf(why, whylen, "no cache directory: set XDG_CACHE_HOME or HOME");
        return -1;
    }
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", dir);
    *strrchr(parent, '/') = '\0';
    int rc = mkdir_p(parent, 0700); /* XDG: made 0700 when missing */
    if (rc == 0 && mkdir(dir, 0700) < 0 && errno != EEXIST)
        rc = -errno;
    if (rc < 0) {
        snprintf(why, whylen, "cannot create %s: %s", dir, strerror(-rc));
        return -1;
    }
    if (vmcache_private(dir, why, whylen) < 0) {
        char w[PATH_MAX + 200];
        snprintf(w, sizeof w, "%s", why);
        snprintf(why, whylen,
                 "the cache %s is not private (%s): what is cached there boots with this "
                 "machine's root shared in; set XDG_CACHE_HOME to a directory only you can write",
                 dir, w);
        return -1;
    }
    return 0;
}
