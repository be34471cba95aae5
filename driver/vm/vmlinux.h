/*
 * vmlinux.h - the uncompressed kernel inside a bzImage, for qemu's direct
 * PVH boot. Under TCG a bzImage spends about half of its boot (7 of 14 s
 * to the first panic here) decompressing itself in emulated code; the same
 * kernel unpacked once on the host and booted through its PVH entry skips
 * that, and the firmware's real-mode setup. Unpacked once per image
 * (sha256) into the cache beside the initramfs.
 */
#ifndef DBSCALE_VMLINUX_H
#define DBSCALE_VMLINUX_H

#include <stddef.h>

/* The image's payload (gzip, xz or zstd) unpacked into the cache, into
 * path, when it is an ELF kernel with a PVH entry note. 0 with path; 1 when
 * it cannot be used (no payload dbscale unpacks, no PVH note: boot the
 * bzImage itself, why says why); -1 with why when the cache fails. */
int vmlinux_get(const char *image, const char *sha256, char *path, size_t pathlen, char *why,
                size_t whylen);

/* Does the ELF image in buf carry a PVH entry (Xen ELF note 18)? */
int vmlinux_has_pvh(const unsigned char *buf, size_t len);

#endif
