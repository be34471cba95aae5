/*
 * resdir.c - making the results directory a sweep writes into.
 *
 * The one idea: a directory is claimed by mkdir, which is atomic, never by
 * checking whether it exists and then using it. A sweep that finds its name
 * taken takes the next one; a sweep told to use a directory that already
 * holds something refuses unless --append said to add a run beside it. So
 * results are never overwritten and two runs never mix by accident. This
 * file prints nothing; the verb reports.
 */
#include "results/resdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/safefile.h"
#include "core/util.h"

/* 1 empty, 0 not, -errno */
static int dir_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -errno;
    int empty = 1;
    struct dirent *e;
    while (empty && (e = readdir(d)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    return empty;
}

static int make_parents(const char *path, char *err, size_t errlen)
{
    char parent[1024];
    snprintf(parent, sizeof parent, "%s", path);
    char *slash = strrchr(parent, '/');
    while (slash && slash > parent && slash[1] == '\0') { /* "dir/" */
        *slash = '\0';
        slash = strrchr(parent, '/');
    }
    if (!slash || slash == parent)
        return 0;
    *slash = '\0';
    int rc = mkdir_p(parent, 0755);
    if (rc < 0) {
        snprintf(err, errlen, "cannot create results directory %s: %s", parent, strerror(-rc));
        return -1;
    }
    return 0;
}

int results_dir_create(const char *path, const char *default_base, int append, char *out,
                       size_t outlen, char *err, size_t errlen)
{
    if (path) {
        snprintf(out, outlen, "%s", path);
        if (make_parents(path, err, errlen) < 0)
            return -1;
        if (mkdir(path, 0755) == 0)
            return 0;
        if (errno != EEXIST) {
            snprintf(err, errlen, "cannot create results directory %s: %s", path, strerror(errno));
            return -1;
        }
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) { /* results never go through one */
            snprintf(err, errlen, "--out %s is a symbolic link (not followed): name the directory",
                     path);
            return -2;
        }
        if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "--out %s exists and is not a directory", path);
            return -2;
        }
        int e = dir_empty(path);
        if (e < 0) {
            snprintf(err, errlen, "cannot read results directory %s: %s", path, strerror(-e));
            return -1;
        }
        if (e == 0 && !append) {
            snprintf(err, errlen,
                     "--out %s already holds results; give a new directory, or --append to add "
                     "this run beside them",
                     path);
            return -2;
        }
        return 0;
    }
    if (make_parents(default_base, err, errlen) < 0)
        return -1;
    for (int n = 1; n < 1000; n++) {
        if (n == 1)
            snprintf(out, outlen, "%s", default_base);
        else
            snprintf(out, outlen, "%s-%d", default_base, n);
        if (mkdir(out, 0755) == 0)
            return 0;
        if (errno != EEXIST) {
            snprintf(err, errlen, "cannot create results directory %s: %s", out, strerror(errno));
            return -1;
        }
    }
    snprintf(err, errlen, "cannot create results directory %s: 999 of that name exist",
             default_base);
    return -1;
}

/* The lock's descriptor: held until the process ends, which releases it. */
static int lock_fd = -1;

int results_dir_lock(const char *dir, int wait, char *err, size_t errlen)
{
    if (lock_fd < 0) {
        lock_fd = dir_open_nofollow(dir);
        if (lock_fd < 0) {
            snprintf(err, errlen, "cannot open results directory %s: %s", dir,
                     file_strerror(lock_fd));
            lock_fd = -1;
            return -1;
        }
    }
    /* polled, not a blocking flock: a stop signal ends the wait */
    while (flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            snprintf(err, errlen, "cannot lock results directory %s: %s", dir, strerror(errno));
            return -1;
        }
        if (!wait)
            return 1;
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

int results_dir_keep_meta(const char *dir, char *err, size_t errlen)
{
    char cur[1100], old[1100];
    snprintf(cur, sizeof cur, "%s/meta.json", dir);
    if (access(cur, F_OK) != 0)
        return 0;
    for (int n = 1; n < 1000; n++) {
        snprintf(old, sizeof old, "%s/meta.%d.json", dir, n);
        /* link, not rename: rename would replace an existing meta.N.json */
        if (link(cur, old) == 0) {
            unlink(cur);
            return 0;
        }
        if (errno != EEXIST) {
            snprintf(err, errlen, "cannot keep %s as %s: %s", cur, old, strerror(errno));
            return -1;
        }
    }
    snprintf(err, errlen, "cannot keep %s: 999 earlier runs", cur);
    return -1;
}
