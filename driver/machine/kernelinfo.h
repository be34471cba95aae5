/*
 * kernelinfo.h - what kernel ran, and how it reached uniprocessor when it
 * did: the facts that label every results directory of a kernel study, read
 * the same way on bare metal and inside a dbscale guest, so a study recorded
 * across real reboots labels itself as a `dbscale kernels` study does.
 *
 * "UP" is three things on Linux, and a result must say which:
 *   held    an SMP kernel whose server was held to one CPU (affinity,
 *           cpuset, hotplug): still SMP code, x86 keeps its LOCK prefixes;
 *   booted  an SMP kernel booted with one CPU (nosmp, maxcpus=0|1,
 *           nr_cpus=1, or one CPU present): x86 patches its SMP
 *           alternatives into UP forms at boot;
 *   built   a CONFIG_SMP=n kernel.
 *
 * Everything is read below a root (kernelinfo_read_at), so unit tests can
 * describe any machine with a fake tree of proc/, sys/ and boot/.
 */
#ifndef DBSCALE_KERNELINFO_H
#define DBSCALE_KERNELINFO_H

#include <stddef.h>

struct kernel_facts {
    char release[128];  /* proc/sys/kernel/osrelease: "6.1.0-57-amd64" */
    char version[256];  /* proc/sys/kernel/version: "#1 SMP PREEMPT_DYNAMIC ..." */
    char cmdline[1024]; /* proc/cmdline */
    int config_smp;     /* CONFIG_SMP: 1 y, 0 not set, -1 unknown */
    char smp_from[160]; /* where config_smp was read: a config file, or "version string" */
    char possible[64], present[64], online[64]; /* sys/devices/system/cpu lists */
    int npossible, npresent, nonline;
    char boot[8];      /* "smp", "booted" (SMP build, one CPU at boot), "built" (no SMP) */
    char boot_why[96]; /* what made it UP: "nr_cpus=1", "CONFIG_SMP not set" ... */
    char virt[64];     /* "none", "kvm", "tcg" (a dbscale guest), "vm (QEMU)" ... */
    char pinning[128]; /* a dbscale guest's vCPU:hostCPU pairs ("0:0,1:1"), else "" */
    char image[512];   /* the kernel image file, "" when not found */
    char image_sha256[65];
};

/* The running kernel: kernelinfo_read_at("/") plus the image's sha256. */
void kernelinfo_read(struct kernel_facts *f);
/* The same below root ("/" for the machine): root/proc, root/sys,
 * root/boot. The image is looked up but not hashed (hash_image 0), since a
 * fake tree has none. */
void kernelinfo_read_at(const char *root, struct kernel_facts *f, int hash_image);

/* This boot's id, the kernel's random boot_id (a UUID, new at every boot,
 * /proc/sys/kernel/random/boot_id), read once: what every results row
 * carries as its boot, so repeats within a boot and separate boots are told
 * apart. "" when the kernel has none. */
const char *kernelinfo_boot_id(void);

/* How a level held to cpus CPUs reached UP: "built", "booted", "held" (one
 * CPU of an SMP kernel with more), or "smp" (more than one CPU). */
const char *kernelinfo_up_mode(const struct kernel_facts *f, int cpus);

/* The same kernel and boot (release, version, command line, CPUs)? */
int kernelinfo_same(const struct kernel_facts *a, const struct kernel_facts *b);

/* CONFIG_SMP in a kernel config file (gzip'd when it ends in .gz): 1, 0,
 * or -1 when the file cannot be read or does not say. */
int kernelinfo_config_smp(const char *path);
/* CONFIG_SMP from a version string (uname -v), which the kernel build
 * stamps with the word SMP exactly when it is set: 1 or 0. */
int kernelinfo_version_smp(const char *version);

/* Hex sha256 of a file into out (65 bytes). 0, or -errno. */
int kernelinfo_sha256(const char *path, char out[65]);

/* The value of word key=VALUE on a kernel command line into out ("" and -1
 * when absent). Stops at the next blank. */
int kernelinfo_cmdline_value(const char *cmdline, const char *key, char *out, size_t len);

#endif
