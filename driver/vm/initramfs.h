/*
 * initramfs.h - the small initramfs a dbscale guest boots from: busybox
 * (static), /init (guest_init.sh) and the kernel's own 9p and virtio modules
 * taken from /lib/modules/RELEASE, built at run time and cached per release
 * (under $XDG_CACHE_HOME/dbscale or ~/.cache/dbscale), so nothing is
 * downloaded and a second study boots at once.
 */
#ifndef DBSCALE_INITRAMFS_H
#define DBSCALE_INITRAMFS_H

#include <stddef.h>

/* The modules a guest loads, in load order (dependencies first), as paths
 * under modules_dir, from its modules.dep; the ones modules.builtin lists
 * are left out. modules_dir "" (no modules installed): none, the kernel is
 * taken to have them built in. Count (into *paths, free with
 * initramfs_free_list), or -1 with err. */
int initramfs_modules(const char *modules_dir, char ***paths, char *err, size_t errlen);
void initramfs_free_list(char **paths, int n);

/* The initramfs for a kernel of this release whose modules are in
 * modules_dir (see above): built if not cached, its path into path.
 * 0, or -1 with err (no static busybox, a module missing or compressed,
 * the cache not writable or not private: vmcache.h). */
int initramfs_get(const char *release, const char *modules_dir, char *path, size_t pathlen,
                  char *err, size_t errlen);

/* The busybox a guest runs: a statically linked one on PATH (Debian's
 * busybox-static), into path. 0, or -1 with err naming the package. */
int initramfs_busybox(char *path, size_t pathlen, char *err, size_t errlen);

#endif
