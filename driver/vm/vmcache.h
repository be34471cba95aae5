/*
 * vmcache.h - where a kernels study keeps what it builds from this
 * machine's files once and reuses (initramfs images, unpacked kernels):
 * $XDG_CACHE_HOME/dbscale, else ~/.cache/dbscale, else /tmp/dbscale-cache-UID.
 */
#ifndef DBSCALE_VMCACHE_H
#define DBSCALE_VMCACHE_H

#include <stddef.h>

/* The cache directory into dir, made if missing (0700). 0, or -errno. */
int vmcache_dir(char *dir, size_t len);

#endif
