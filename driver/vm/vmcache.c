/*
 * vmcache.c - the kernels study's cache directory, chosen as XDG says.
 */
#include "vm/vmcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"

int vmcache_dir(char *dir, size_t len)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (x && *x)
        snprintf(dir, len, "%s/dbscale", x);
    else if (home && *home)
        snprintf(dir, len, "%s/.cache/dbscale", home);
    else
        snprintf(dir, len, "/tmp/dbscale-cache-%d", (int)getuid());
    return mkdir_p(dir, 0700);
}
