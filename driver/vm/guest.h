/*
 * guest.h - one boot of one kernel under qemu: the host's root shared in
 * read-only over 9p, a study directory shared writable, the console kept in
 * a file, the vCPUs pinned to host CPUs, and the guest given up when it is
 * silent too long. Like a throwaway server, a guest never outlives dbscale:
 * qemu gets PR_SET_PDEATHSIG, so even SIGKILL of dbscale takes it down.
 */
#ifndef DBSCALE_GUEST_H
#define DBSCALE_GUEST_H

#include <stddef.h>

struct guest_spec {
    const char *qemu;   /* the qemu-system-x86_64 to run */
    const char *name;   /* shown in ps (-name) */
    const char *kernel; /* bzImage */
    const char *initrd; /* NULL: none */
    const char *append; /* kernel command line */
    const char *accel;  /* "kvm" or "tcg" */
    int vcpus, mem_mb;
    const char *study;   /* shared writable as mount tag "study" (and the host's root
                          * read-only as "hostroot"); NULL: nothing shared */
    const char *console; /* the console log, made or truncated */
    int timeout_s;       /* give up after this long without console output */
    const int *pin;      /* host CPU of each vCPU, or NULL: not pinned */
    const char *echo;    /* the guest's own lines go to stderr as "  [ECHO  12.3s] LINE"
                          * (seconds since qemu started); NULL: quiet */
};

struct guest_result {
    int booted;     /* the guest's /init ran */
    int panicked;   /* "Kernel panic" on the console */
    int oom;        /* the guest ran out of memory */
    int timed_out;  /* silent for timeout_s */
    int stopped;    /* a stop signal came: qemu was killed */
    int qemu_exit;  /* qemu's exit status (-1 killed) */
    int pinned;     /* vCPU threads pinned as asked */
    double seconds; /* qemu start to exit */
    double boot_s;  /* qemu start to the guest's /init, -1 when it never ran */
    char why[512];  /* what went wrong, "" when the guest powered off by itself */
};

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
