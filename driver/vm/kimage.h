/*
 * kimage.h - a kernel image file as a kernels study needs to know it before
 * it boots anything: that it is an x86 bzImage, its release and version
 * string (from the boot header, no decompression), whether it was built with
 * SMP, its sha256, and where its modules and config are on this machine.
 */
#ifndef DBSCALE_KIMAGE_H
#define DBSCALE_KIMAGE_H

#include <stddef.h>

struct kimage {
    char path[512];
    char release[128]; /* "6.1.0-57-amd64" */
    char version[256]; /* uname -v: "#1 SMP PREEMPT_DYNAMIC Debian ..." */
    int smp;           /* CONFIG_SMP: from /boot/config-RELEASE, else the version string */
    char config[600];  /* the config file read, "" when none */
    char modules[600]; /* /lib/modules/RELEASE when it is there, else "" */
    char sha256[65];
    long long size;
};

/* Inspect path. 0, or -1 with "PATH: reason" in err (missing, unreadable,
 * not a regular file, not a bzImage, shorter than its header says, no
 * version string, a release that is no safe name: see kimage_release_ok). */
int kimage_inspect(const char *path, struct kimage *k, char *err, size_t errlen);

/* Is r a release dbscale uses in paths: 1-127 of A-Za-z0-9._+-, not
 * starting with '.' or '-'? */
int kimage_release_ok(const char *r);

#endif
