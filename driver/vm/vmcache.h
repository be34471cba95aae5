/*
 * vmcache.h - where a kernels study keeps what it builds from this
 * machine's files once and reuses (initramfs images, unpacked kernels):
 * $XDG_CACHE_HOME/dbscale, else ~/.cache/dbscale (HOME, else the password
 * database's home). Used only when private: this user's, 0700 when made,
 * and no directory on the way writable by anyone else (vmcache.c).
 */
#ifndef DBSCALE_VMCACHE_H
#define DBSCALE_VMCACHE_H

#include <stddef.h>

/* The cache directory into dir, made (0700) if missing. 0; -1 with why
 * when it cannot be made or is not private (vmcache_private). */
int vmcache_dir(char *dir, size_t len, char *why, size_t whylen);

/* Is the existing directory dir private: owned by this user and writable
 * by no one else, every directory on the way (as given and as resolved)
 * root's or this user's and writable by no one else unless sticky, every
 * link on the way root's or this user's? 0, or -1 with why naming the
 * first that is not. */
int vmcache_private(const char *dir, char *why, size_t whylen);

#endif
