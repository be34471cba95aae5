/*
 * server_request.c - the checks a throwaway server's request must pass
 * before anything is created: the CPU list, the directory (missing or empty,
 * and a path the engine's config files can carry) and the extra config lines.
 *
 * The one idea: bad input is told apart from a failed start. Everything here
 * only reads (sched_getaffinity, stat, readdir), so a verb can run each check
 * alone and name the option at fault, and exit 2 means nothing was made.
 *
 * It must never create, change or remove anything.
 */
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "core/cpulist.h"
#include "servers/server_engine.h"

static int dir_is_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int empty = 1;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            empty = 0;
    closedir(d);
    return empty;
}

/* The first of the n CPUs in ids we may not run on, or -1 if all are ours. */
static int cpu_unavailable(const struct cpulist *want)
{
    struct cpulist own;
    int bad = -1;
    if (cpulist_init(&own) == 0 && sched_getaffinity(0, own.size, own.set) == 0)
        for (int c = cpulist_next(want, 0); c >= 0 && bad < 0; c = cpulist_next(want, c + 1))
            if (!cpulist_has(&own, c))
                bad = c;
    cpulist_free(&own);
    return bad;
}

/* A path char the engine's config files cannot carry: 0 or -1 naming it. */
static int dir_chars_ok(enum server_engine e, const char *dir, char *err, size_t errlen)
{
    const char *refuse = server_engine_ops_of(e)->dir_refuse;
    for (const char *p = dir; *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            snprintf(err, errlen,
                     "%s: a path with a newline or control character cannot be "
                     "written into the server's config: choose another directory",
                     dir);
            return -1;
        }
        if (refuse && strchr(refuse, *p)) {
            snprintf(err, errlen,
                     "%s: %s's config files cannot carry the character '%c' in a "
                     "path: choose another directory",
                     dir, server_engine_title(e), *p);
            return -1;
        }
    }
    return 0;
}

int server_check_request(enum server_engine e, const char *dir, const char *cpus,
                         const char *extra_conf, char *err, size_t errlen)
{
    return server_check_request_from(e, NULL, dir, cpus, extra_conf, err, errlen);
}

int server_check_request_from(enum server_engine e, const struct server_install *in,
                              const char *dir, const char *cpus, const char *extra_conf, char *err,
                              size_t errlen)
{
    if (cpus && *cpus) {
        struct cpulist want;
        char why[160];
        if (cpulist_init(&want) < 0 || cpulist_parse(&want, cpus, 0, why, sizeof why) <= 0) {
            snprintf(err, errlen, "bad CPU list '%s' (expected e.g. 0, 0-1, 0,2)", cpus);
            cpulist_free(&want);
            return -1;
        }
        int bad = cpu_unavailable(&want);
        cpulist_free(&want);
        if (bad >= 0) {
            snprintf(err, errlen,
                     "CPU list '%s': CPU %d is not available to us (see nproc, taskset -p $$)",
                     cpus, bad);
            return -1;
        }
    }
    if (dir && !*dir) {
        snprintf(err, errlen, "an empty path (give a directory)");
        return -1;
    }
    if (dir && dir_chars_ok(e, dir, err, errlen) < 0)
        return -1;
    if (dir && server_exists(dir) && dir_is_empty(dir) != 1) {
        snprintf(err, errlen, "%s: not an empty directory (it would be removed on stop)", dir);
        return -1;
    }
    return server_conf_check_in(e, in && in->daemon[0] ? in->daemon : NULL, extra_conf, err,
                                errlen);
}
