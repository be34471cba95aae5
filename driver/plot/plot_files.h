/*
 * plot_files.h - which files in a plot's out directory are plot's own, and
 * removing those an earlier plot left that this one did not write.
 */
#ifndef DBSCALE_PLOT_FILES_H
#define DBSCALE_PLOT_FILES_H

#include <stddef.h>

/* The names (relative to the out directory) one plot run wrote. */
struct plot_files {
    char **name;
    size_t n;
};

void plot_files_add(struct plot_files *w, const char *name);
void plot_files_free(struct plot_files *w);
/* 1 when name (relative, "graphs/cpus.gp" or "curve03.dat") is one plot writes. */
int plot_files_owned(const char *name);
/* Remove from dir and dir/graphs every regular file or symlink that is plot's
 * own by name and not in w; nothing else is touched. 0, or -1 with the first
 * failure in err. */
int plot_files_prune(const char *dir, const struct plot_files *w, char *err, size_t errlen);

#endif
