/*
 * config_path.h - where a --config file named on the command line is.
 */
#ifndef DBSCALE_CONFIG_PATH_H
#define DBSCALE_CONFIG_PATH_H

#include <stddef.h>

/* The compiled-in place of the installed configs, $(PREFIX)/share/dbscale/configs. */
#ifndef DBSCALE_CONFIGDIR
#define DBSCALE_CONFIGDIR "/usr/local/share/dbscale/configs"
#endif

/*
 * name as given when it is absolute or exists from the working directory;
 * else DIR/name for each of dirs (NULL-terminated), and for "configs/X"
 * DIR/X too, so `--config configs/X.ini` (as the README writes it) works
 * from anywhere. 0 with the path in out; -1 with err naming every place
 * looked, in order.
 */
int config_path_find(const char *name, const char *const *dirs, char *out, size_t outlen, char *err,
                     size_t errlen);

/* dirs for config_path_find: DATADIR/configs (beside the binary, so a copy
 * installed under DESTDIR or another prefix finds its own), then
 * DBSCALE_CONFIGDIR. Static storage. */
const char *const *config_path_dirs(void);

#endif
