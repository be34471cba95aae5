/*
 * kernelinfo.c - the running kernel's identity and how it reached UP.
 *
 * The one idea: read only what the kernel itself publishes (osrelease,
 * version, cmdline, the CPU lists) and its config where a distribution
 * leaves it, below one root, so bare metal, a guest and a fake test tree go
 * through the same lines. CONFIG_SMP comes from /boot/config-RELEASE or
 * /proc/config.gz; failing both, from the version string, which the kernel
 * build stamps with "SMP" exactly when CONFIG_SMP is set.
 *
 * Never guess: a fact that cannot be read stays empty or -1.
 */
#include "machine/kernelinfo.h"

#include "core/cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/procfs.h"

/* The first line of root/rel, trailing blanks cut; "" when unreadable. */
static void read_line_at(const char *root, const char *rel, char *buf, size_t len)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    if (procfs_read(path, buf, len) < 0)
        buf[0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    size_t l = strlen(buf);
    while (l && isspace((unsigned char)buf[l - 1]))
        buf[--l] = '\0';
}

int kernelinfo_cmdline_value(const char *cmdline, const char *key, char *out, size_t len)
{
    size_t kl = strlen(key);
    out[0] = '\0';
    for (const char *p = cmdline; (p = strstr(p, key)) != NULL; p += kl) {
        if ((p != cmdline && p[-1] != ' ') || p[kl] != '=')
            continue;
        const char *v = p + kl + 1;
        size_t n = strcspn(v, " \t\n");
        snprintf(out, len, "%.*s", (int)n, v);
        return 0;
    }
    return -1;
}

static int has_word(const char *cmdline, const char *w)
{
    size_t l = strlen(w);
    for (const char *p = cmdline; (p = strstr(p, w)) != NULL; p += l)
        if ((p == cmdline || p[-1] == ' ') && (p[l] == ' ' || p[l] == '\0' || p[l] == '\n'))
            return 1;
    return 0;
}

/* CONFIG_SMP from a config text line by line: 1, 0, or -1 when the file
 * does not say. gz: the file is gzip'd (/proc/config.gz). */
static int config_smp_in(const char *path, int gz)
{
    gzFile f = gz ? gzopen(path, "rb") : NULL;
    FILE *p = gz ? NULL : fopen(path, "r");
    if (!f && !p)
        return -1;
    char line[512];
    int smp = -1;
    while (smp < 0 &&
           (gz ? gzgets(f, line, sizeof line) != NULL : fgets(line, sizeof line, p) != NULL)) {
        if (!strncmp(line, "CONFIG_SMP=y", 12))
            smp = 1;
        else if (!strncmp(line, "# CONFIG_SMP is not set", 23))
            smp = 0;
    }
    if (gz)
        gzclose(f);
    else
        fclose(p);
    return smp;
}

int kernelinfo_config_smp(const char *path)
{
    size_t l = strlen(path);
    return config_smp_in(path, l > 3 && !strcmp(path + l - 3, ".gz"));
}

int kernelinfo_version_smp(const char *version)
{
    return has_word(version, "SMP");
}

static void read_config_smp(const char *root, struct kernel_facts *f)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/boot/config-%s", root, f->release);
    f->config_smp = f->release[0] ? kernelinfo_config_smp(path) : -1;
    if (f->config_smp >= 0) {
        snprintf(f->smp_from, sizeof f->smp_from, "/boot/config-%s", f->release);
        return;
    }
    snprintf(path, sizeof path, "%s/proc/config.gz", root);
    f->config_smp = kernelinfo_config_smp(path);
    if (f->config_smp >= 0) {
        snprintf(f->smp_from, sizeof f->smp_from, "/proc/config.gz");
        return;
    }
    if (f->version[0]) {
        f->config_smp = kernelinfo_version_smp(f->version);
        snprintf(f->smp_from, sizeof f->smp_from, "version string");
    }
}

/* How the kernel came up: built without SMP, booted with one CPU, or SMP. */
static void read_boot(struct kernel_facts *f)
{
    char v[32];
    const char *cl = f->cmdline;
    snprintf(f->boot, sizeof f->boot, "smp");
    f->boot_why[0] = '\0';
    if (f->config_smp == 0) {
        snprintf(f->boot, sizeof f->boot, "built");
        snprintf(f->boot_why, sizeof f->boot_why, "CONFIG_SMP not set");
        return;
    }
    if (has_word(cl, "nosmp"))
        snprintf(f->boot_why, sizeof f->boot_why, "nosmp");
    else if (kernelinfo_cmdline_value(cl, "maxcpus", v, sizeof v) == 0 && atoi(v) <= 1)
        snprintf(f->boot_why, sizeof f->boot_why, "maxcpus=%s", v);
    else if (kernelinfo_cmdline_value(cl, "nr_cpus", v, sizeof v) == 0 && atoi(v) == 1)
        snprintf(f->boot_why, sizeof f->boot_why, "nr_cpus=%s", v);
    else if (f->npresent == 1)
        snprintf(f->boot_why, sizeof f->boot_why, "one CPU present");
    else if (f->npossible == 1)
        snprintf(f->boot_why, sizeof f->boot_why, "one CPU possible");
    /* maxcpus=1 then a CPU brought online: the kernel patched itself back to SMP */
    if (f->boot_why[0] && f->nonline <= 1)
        snprintf(f->boot, sizeof f->boot, "booted");
    else if (f->boot_why[0])
        snprintf(f->boot_why + strlen(f->boot_why), sizeof f->boot_why - strlen(f->boot_why),
                 ", but %d CPUs online", f->nonline);
}

static void read_virt(const char *root, struct kernel_facts *f)
{
    if (kernelinfo_cmdline_value(f->cmdline, "dbscale.accel", f->virt, sizeof f->virt) == 0 &&
        f->virt[0])
        return;
    snprintf(f->virt, sizeof f->virt, "none");
    char path[1200], line[4096];
    snprintf(path, sizeof path, "%s/proc/cpuinfo", root);
    FILE *c = fopen(path, "r");
    if (!c)
        return;
    int hv = 0;
    while (!hv && fgets(line, sizeof line, c))
        if (!strncmp(line, "flags", 5))
            hv = strstr(line, " hypervisor") != NULL;
    fclose(c);
    if (!hv)
        return;
    char vendor[48];
    read_line_at(root, "sys/class/dmi/id/sys_vendor", vendor, sizeof vendor);
    if (vendor[0])
        snprintf(f->virt, sizeof f->virt, "vm (%s)", vendor);
    else
        snprintf(f->virt, sizeof f->virt, "vm");
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A guest says which image booted it (dbscale.image, dbscale.sha256);
 * bare metal: the boot loader's BOOT_IMAGE, else /boot/vmlinuz-RELEASE. */
static void read_image(const char *root, struct kernel_facts *f, int hash)
{
    char v[512], path[1200];
    if (kernelinfo_cmdline_value(f->cmdline, "dbscale.sha256", f->image_sha256,
                                 sizeof f->image_sha256) == 0) {
        kernelinfo_cmdline_value(f->cmdline, "dbscale.image", f->image, sizeof f->image);
        return;
    }
    f->image[0] = '\0';
    if (kernelinfo_cmdline_value(f->cmdline, "BOOT_IMAGE", v, sizeof v) == 0 && v[0] == '/') {
        snprintf(path, sizeof path, "%s%s", root, v);
        if (is_file(path))
            snprintf(f->image, sizeof f->image, "%s", v);
        else {
            snprintf(path, sizeof path, "%s/boot%s", root, v); /* /boot its own partition */
            if (is_file(path))
                snprintf(f->image, sizeof f->image, "/boot%s", v);
        }
    }
    if (!f->image[0] && f->release[0]) {
        snprintf(path, sizeof path, "%s/boot/vmlinuz-%s", root, f->release);
        if (is_file(path))
            snprintf(f->image, sizeof f->image, "/boot/vmlinuz-%s", f->release);
    }
    if (hash && f->image[0]) {
        snprintf(path, sizeof path, "%s%s", root, f->image);
        if (kernelinfo_sha256(path, f->image_sha256) < 0)
            f->image_sha256[0] = '\0';
    }
}

void kernelinfo_read_at(const char *root, struct kernel_facts *f, int hash_image)
{
    memset(f, 0, sizeof *f);
    if (!strcmp(root, "/"))
        root = "";
    read_line_at(root, "proc/sys/kernel/osrelease", f->release, sizeof f->release);
    read_line_at(root, "proc/sys/kernel/version", f->version, sizeof f->version);
    read_line_at(root, "proc/cmdline", f->cmdline, sizeof f->cmdline);
    read_line_at(root, "sys/devices/system/cpu/possible", f->possible, sizeof f->possible);
    read_line_at(root, "sys/devices/system/cpu/present", f->present, sizeof f->present);
    read_line_at(root, "sys/devices/system/cpu/online", f->online, sizeof f->online);
    f->npossible = cpulist_text_count(f->possible);
    f->npresent = cpulist_text_count(f->present);
    f->nonline = cpulist_text_count(f->online);
    read_config_smp(root, f);
    read_boot(f);
    read_virt(root, f);
    kernelinfo_cmdline_value(f->cmdline, "dbscale.pin", f->pinning, sizeof f->pinning);
    read_image(root, f, hash_image);
}

const char *kernelinfo_boot_id(void)
{
    static char id[40];
    static int read;
    if (!read) {
        read_line_at("", "proc/sys/kernel/random/boot_id", id, sizeof id);
        read = 1;
    }
    return id;
}

void kernelinfo_read(struct kernel_facts *f)
{
    kernelinfo_read_at("/", f, 1);
}

const char *kernelinfo_up_mode(const struct kernel_facts *f, int cpus)
{
    if (!strcmp(f->boot, "built") || !strcmp(f->boot, "booted"))
        return f->boot;
    return cpus == 1 ? "held" : "smp";
}

int kernelinfo_same(const struct kernel_facts *a, const struct kernel_facts *b)
{
    return !strcmp(a->release, b->release) && !strcmp(a->version, b->version) &&
           !strcmp(a->cmdline, b->cmdline) && !strcmp(a->online, b->online);
}

int kernelinfo_sha256(const char *path, char out[65])
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -errno;
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -EINVAL; /* never read a FIFO or a device forever */
    }
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int rc = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) ? 0 : -ENOMEM;
    unsigned char buf[16384];
    ssize_t n;
    while (rc == 0 && (n = read(fd, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            rc = -errno;
        else if (!EVP_DigestUpdate(ctx, buf, (size_t)n))
            rc = -EIO;
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    if (rc == 0 && !EVP_DigestFinal_ex(ctx, md, &mdlen))
        rc = -EIO;
    EVP_MD_CTX_free(ctx);
    close(fd);
    for (unsigned i = 0; rc == 0 && i < mdlen && i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    return rc;
}
