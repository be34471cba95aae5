/*
 * guest.h - one boot of one kernel under qemu: the host's root shared in
 * read-only over 9p, the boot's own directories shared by descriptor, the
 * console kept in a file, the vCPUs pinned to host CPUs and qemu's own
 * threads kept off them, and the guest given up when it is silent too
 * long. Like a throwaway server, a guest never outlives dbscale: qemu gets
 * PR_SET_PDEATHSIG, so even SIGKILL of dbscale takes it down.
 */
#ifndef DBSCALE_GUEST_H
#define DBSCALE_GUEST_H

#include <stddef.h>

/* A host directory shared into the guest over 9p. The host names it by an
 * open descriptor, never by a path: qemu opens /proc/self/fd/N, so no
 * rename or link between the host's check and qemu's start can swap it. */
struct guest_share {
    const char *tag; /* the guest mounts it by this mount_tag */
    int fd;          /* an O_DIRECTORY descriptor of the host's directory */
    int writable;    /* 0: readonly=on. 1: writable, mapped (share_model) */
};

#define GUEST_MAX_SHARES 4

struct guest_spec {
    const char *qemu;   /* the qemu-system-x86_64 to run */
    const char *name;   /* shown in ps (-name) */
    const char *kernel; /* bzImage */
    const char *initrd; /* NULL: none */
    const char *append; /* kernel command line */
    const char *accel;  /* "kvm" or "tcg" */
    int vcpus, mem_mb;
    int sockets, cores, threads; /* -smp topology (0: vcpus in one socket, one thread each) */
    int nodes;                   /* guest NUMA nodes: vCPUs and memory split evenly (0, 1: none) */
    int share_root;              /* share the host's root read-only as "hostroot" */
    struct guest_share shares[GUEST_MAX_SHARES];
    int nshares;
    /* a writable share's security model: "mapped-xattr" (the guest's owners
     * and modes kept in user.virtfs.* xattrs) or "mapped-file" (where the
     * host has no user xattrs). Either way the host's files are qemu's user's,
     * 0644 and 0755, and the guest's symlinks, devices and setuid bits are
     * plain files and xattrs on the host: never passthrough or none, with
     * which a guest's root is the host's qemu user (root, here). */
    const char *share_model;
    const char *console; /* the console log, made or truncated */
    int console_fd;      /* or, when >= 0, this open descriptor (guest_run closes it) */
    int timeout_s;       /* give up after this long without console output */
    const int *pin;      /* host CPU of each vCPU, or NULL: not pinned */
    const int *house;    /* host CPUs for qemu's own threads (main loop, 9p I/O) */
    int nhouse;          /* 0: they share the vCPUs' CPUs */
    const char *echo;    /* the guest's own lines go to stderr as "  [ECHO  12.3s] LINE"
                          * (seconds since qemu started); NULL: quiet */
};

struct guest_result {
    int booted;       /* the guest's /init ran */
    int panicked;     /* the kernel said "Kernel panic" */
    int oom;          /* the kernel said it ran out of memory */
    int timed_out;    /* silent for timeout_s */
    int stopped;      /* a stop signal came: qemu was killed */
    int qemu_exit;    /* qemu's exit status (-1 killed) */
    int pinned;       /* vCPU threads pinned as asked */
    int exit_code;    /* the command's, as the guest's /init said it ("exit N"), or -1 */
    char boot_id[40]; /* the guest kernel's random boot_id, as /init said it, or "" */
    double seconds;   /* qemu start to exit */
    double boot_s;    /* qemu start to the guest's /init, -1 when it never ran */
    char why[512];    /* what went wrong, "" when the guest powered off by itself */
};

/* What a console line is. The guest's /init prefixes its own lines
 * "dbscale-guest: " and the command's "| " (guest_init.sh, the boot's
 * script), so only the kernel's own lines (after an optional printk time)
 * can say a panic or an out-of-memory kill: a server log passed through
 * that mentions "Kernel panic" decides nothing. */
enum guest_line { GL_OTHER, GL_INIT, GL_COMMAND, GL_PANIC, GL_OOM };
enum guest_line guest_line_kind(const char *line);

/* Boot the guest and wait until it powers off, panics, goes silent or a
 * stop signal comes (signals.h). 0 when it powered off by itself, else -1
 * with r->why. A qemu that cannot be started is -1 with why, too. */
int guest_run(const struct guest_spec *g, struct guest_result *r);

/* Does qemu boot a kernel under KVM here? /dev/kvm can open and still fail
 * qemu (a nested hypervisor without the MSRs qemu sets, say): boot kernel
 * with no init and wait, at most 20 s, for the panic that says it ran. 1
 * yes; 0 no, with why. console: where the probe's console goes. */
int guest_kvm_works(const char *qemu, const char *kernel, const char *console, char *why,
                    size_t whylen);

#endif
