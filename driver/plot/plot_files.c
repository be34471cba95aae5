/*
 * plot_files.c - keeping a plot's out directory true to the last plot.
 * Plotting into a directory used before would otherwise leave the previous
 * plot's cpus.png, baseline.png and data files beside the new ones, and a
 * reader would take them for this run's.
 *
 * The one idea: every file plot writes is recorded as it is written; at the
 * end, files that carry one of plot's own names (curveNN.dat, cpus.png,
 * graphs/baseline.gp, summary.md, ...) but were not written this time are
 * removed.
 *
 * Never remove a file whose name plot does not use (a user's notes, another
 * tool's output), never recurse, never follow a symlink to delete its target.
 */
#include "plot/plot_files.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safefile.h"
#include "core/util.h"

void plot_files_add(struct plot_files *w, const char *name)
{
    w->name = xrealloc(w->name, (w->n + 1) * sizeof *w->name);
    w->name[w->n++] = xstrdup(name);
}

void plot_files_free(struct plot_files *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->name[i]);
    free(w->name);
    w->name = NULL;
    w->n = 0;
}

/* PREFIX, two or more digits, SUFFIX. */
static int numbered(const char *s, const char *prefix, const char *suffix)
{
    size_t lp = strlen(prefix);
    if (strncmp(s, prefix, lp))
        return 0;
    s += lp;
    size_t d = 0;
    while (isdigit((unsigned char)s[d]))
        d++;
    return d >= 2 && !strcmp(s + d, suffix);
}

static const char *const graphs[] = {"throughput", "speedup",      "efficiency", "cpus",
                                     "latency",    "tput-latency", "baseline",   "kernel",
                                     "timeseries", "latency-cdf",  NULL};

int plot_files_owned(const char *name)
{
    if (!strncmp(name, "graphs/", 7)) {
        const char *g = name + 7;
        if (!strcmp(g, "common.gp"))
            return 1;
        for (int i = 0; graphs[i]; i++)
            if (!strncmp(g, graphs[i], strlen(graphs[i])) && !strcmp(g + strlen(graphs[i]), ".gp"))
                return 1;
        return 0;
    }
    if (!strcmp(name, "summary.md") || !strcmp(name, "summary.csv"))
        return 1;
    if (numbered(name, "curve", ".dat") || numbered(name, "curve", "-usl.dat") ||
        numbered(name, "cpus", ".dat") || numbered(name, "micro", ".dat") ||
        numbered(name, "ts", ".dat") || numbered(name, "cdf", ".dat"))
        return 1;
    for (int i = 0; graphs[i]; i++) {
        size_t l = strlen(graphs[i]);
        if (!strncmp(name, graphs[i], l) &&
            (!strcmp(name + l, ".gp") || !strcmp(name + l, ".png") || !strcmp(name + l, ".svg")))
            return 1;
    }
    return 0;
}

static int written(const struct plot_files *w, const char *name)
{
    for (size_t i = 0; i < w->n; i++)
        if (!strcmp(w->name[i], name))
            return 1;
    return 0;
}

static int prune_one(const char *dir, const char *sub, const struct plot_files *w, char *err,
                     size_t errlen)
{
    char path[1200];
    snprintf(path, sizeof path, "%s%s%s", dir, sub[0] ? "/" : "", sub);
    /* the directory itself is opened without following a link (a planted
     * DIR/plots link would point the removal anywhere), its files removed
     * through that descriptor */
    int dfd = dir_open_nofollow(path);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        int e = dfd >= 0 ? errno : -dfd;
        if (dfd >= 0)
            close(dfd);
        return e == ENOENT ? 0 : (snprintf(err, errlen, "%s: %s", path, file_strerror(e)), -1);
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char rel[600], full[2000];
        snprintf(rel, sizeof rel, "%s%s%s", sub, sub[0] ? "/" : "", e->d_name);
        if (!plot_files_owned(rel) || written(w, rel))
            continue;
        snprintf(full, sizeof full, "%s/%s", dir, rel);
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) < 0 && errno != ENOENT && rc == 0) {
            snprintf(err, errlen, "cannot remove the stale %s: %s", full, strerror(errno));
            rc = -1;
        }
    }
    closedir(d);
    return rc;
}

int plot_files_prune(const char *dir, const struct plot_files *w, char *err, size_t errlen)
{
    int rc = prune_one(dir, "", w, err, errlen);
    if (prune_one(dir, "graphs", w, err, errlen) < 0)
        rc = -1;
    return rc;
}
