/*
 * kimage.c - reading a bzImage's boot header.
 *
 * The one idea: the x86 boot protocol puts a pointer to the kernel's
 * version string in the real-mode header (kernel_version at 0x20e, plus
 * 0x200), uncompressed, so release and "SMP" are known before anything
 * boots and without unpacking the kernel. The string is UTS_RELEASE, then
 * "(builder@host) (compiler...)", then UTS_VERSION, which starts with '#'.
 * The same header says how long the image is (setup sectors and syssize),
 * so a truncated copy is refused here, before it boots and fails inside.
 *
 * The release names host paths (/lib/modules/RELEASE, the cache's
 * initramfs, a study's directories when it is the label): one holding
 * anything but A-Za-z0-9._+- , or starting with '.' or '-', is refused,
 * never cleaned into some other name.
 */
#include "vm/kimage.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/kernelinfo.h"

static int fail(char *err, size_t errlen, const char *path, const char *why)
{
    snprintf(err, errlen, "%s: %s", path, why);
    return -1;
}

int kimage_release_ok(const char *r)
{
    size_t n = strlen(r);
    if (n == 0 || n >= sizeof(((struct kimage *)0)->release) || r[0] == '.' || r[0] == '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)r[i]) && !strchr("._+-", r[i]))
            return 0;
    return 1;
}

/* The header's version string into k. 0, or -1 with the reason. */
static int read_version(int fd, struct kimage *k, char *err, size_t errlen)
{
    unsigned char h[0x280];
    if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h)
        return fail(err, errlen, k->path, "too short to be a kernel image");
    if (h[0x1fe] != 0x55 || h[0x1ff] != 0xaa || memcmp(h + 0x202, "HdrS", 4) != 0)
        return fail(err, errlen, k->path,
                    "not an x86 kernel image (no bzImage boot header: give arch/x86/boot/bzImage "
                    "or /boot/vmlinuz-*, not vmlinux)");
    unsigned off = (unsigned)(h[0x20e] | h[0x20f] << 8);
    char v[512];
    ssize_t n = off ? pread(fd, v, sizeof v - 1, (off_t)off + 0x200) : -1;
    if (n <= 0)
        return fail(err, errlen, k->path, "the boot header names no kernel version string");
    v[n] = '\0';
    size_t rl = strcspn(v, " ");
    if (rl == 0 || rl >= sizeof k->release)
        return fail(err, errlen, k->path, "the boot header's version string is not readable");
    snprintf(k->release, sizeof k->release, "%.*s", (int)rl, v);
    if (!kimage_release_ok(k->release)) {
        char why[300];
        snprintf(why, sizeof why,
                 "its release '%.64s' holds a character other than A-Za-z0-9._+- (or starts "
                 "with '.' or '-'): it would name paths on this machine, so it is not booted",
                 k->release);
        return fail(err, errlen, k->path, why);
    }
    /* setup sectors (0: 4) + the boot sector, then syssize 16-byte units:
     * a signed image is longer (its signature follows), never shorter */
    int sects = h[0x1f1] ? h[0x1f1] : 4;
    uint32_t sys = (uint32_t)(h[0x1f4] | h[0x1f5] << 8 | h[0x1f6] << 16 | (uint32_t)h[0x1f7] << 24);
    long long want = (long long)(sects + 1) * 512 + (long long)sys * 16;
    if (k->size < want) {
        char why[200];
        snprintf(
            why, sizeof why,
            "truncated: its boot header says %lld bytes, the file has %lld (a copy cut short?)",
            want, k->size);
        return fail(err, errlen, k->path, why);
    }
    const char *hash = strstr(v, " #");
    snprintf(k->version, sizeof k->version, "%s", hash ? hash + 1 : "");
    return 0;
}

int kimage_inspect(const char *path, struct kimage *k, char *err, size_t errlen)
{
    memset(k, 0, sizeof *k);
    if (snprintf(k->path, sizeof k->path, "%s", path) >= (int)sizeof k->path)
        return fail(err, errlen, path, "path too long");
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return fail(err, errlen, path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fail(err, errlen, path, "not a regular file");
    }
    k->size = (long long)st.st_size;
    int rc = read_version(fd, k, err, errlen);
    close(fd);
    if (rc < 0)
        return -1;
    snprintf(k->config, sizeof k->config, "/boot/config-%s", k->release);
    k->smp = kernelinfo_config_smp(k->config);
    if (k->smp < 0) {
        k->config[0] = '\0';
        k->smp = kernelinfo_version_smp(k->version);
    }
    snprintf(k->modules, sizeof k->modules, "/lib/modules/%s", k->release);
    if (stat(k->modules, &st) < 0 || !S_ISDIR(st.st_mode))
        k->modules[0] = '\0';
    int h = kernelinfo_sha256(path, k->sha256);
    if (h < 0)
        return fail(err, errlen, path, strerror(-h));
    return 0;
}
