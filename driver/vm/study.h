/*
 * study.h - a kernels study: kernels x boot variants x repeats, one guest
 * boot each, interleaved by repeat (A B C, A B C ...) as sweeps interleave,
 * every boot running the same dbscale command into its variant's results
 * directory, and OUT/kernels.json telling what ran, how, and how it ended.
 *
 * The layout of OUT:
 *   kernels.json      the study: kernels (path, sha256, release, SMP),
 *                     boots, the guest (accelerator, vCPUs, pinning), the
 *                     command, and every boot's outcome (rewritten after each)
 *   VARIANT/          one results directory per kernel x boot (KLABEL.BLABEL,
 *                     or KLABEL when there is one unnamed boot), filled by
 *                     the guest's own dbscale; its kernel.json, written in the
 *                     guest, labels it
 *   console/RUN.log   each boot's whole console
 *   .vm/RUN.sh        the script each boot ran (RUN.exit: its exit code)
 *   report.html       the page over every variant
 */
#ifndef DBSCALE_STUDY_H
#define DBSCALE_STUDY_H

#include <stddef.h>

#include "vm/kimage.h"

#define STUDY_LABEL  32
#define STUDY_MAXPIN 1024

struct study_kernel {
    char label[STUDY_LABEL];
    struct kimage img;
    char initrd[1024];
    char boot_image[1024]; /* what qemu boots: the unpacked PVH kernel, or img.path */
};

struct study_boot {
    char label[STUDY_LABEL];
    char params[512];
};

enum study_status { RUN_PENDING, RUN_OK, RUN_FAILED, RUN_STOPPED };

struct study_run {
    int kernel, boot, repeat;
    char variant[2 * STUDY_LABEL + 2];
    char id[96]; /* VARIANT.rN: names the script, the exit file and the console log */
    enum study_status status;
    char why[640];
    int exit_code; /* the command's inside the guest, -1 when it did not finish */
    double seconds, boot_s;
    int pinned;
};

struct study {
    struct study_kernel *k;
    int nk;
    struct study_boot *b;
    int nb;
    int repeats, vcpus, mem_mb, timeout_s;
    char accel[8];
    int pin[STUDY_MAXPIN]; /* host CPU of each vCPU when pinned */
    int pinned;            /* 0: vCPUs float (more vCPUs than host CPUs) */
    int host_cpus;         /* CPUs dbscale may use on the host */
    char out[1024];        /* the study directory, absolute */
    char exe[1024];        /* this dbscale, run inside every guest */
    char cwd[1024];        /* the command's working directory, in the guest too */
    char qemu[1024];
    char *const *cmd; /* VERB ARGS... run in each guest */
    int ncmd;
    struct study_run *runs;
    int nruns;
    char started[32], ended[32];
};

/* The runs, interleaved by repeat, with their variant names. */
void study_plan(struct study *s);
/* Boot run i and wait for it; fills its status, why and figures. echo:
 * print the guest's own lines on stderr. 0, or -1 when the run failed or
 * was stopped (signals.h tells which). */
int study_run(struct study *s, int i, int echo);
/* OUT/kernels.json, atomically. 0, or -1 with err. */
int study_write(const struct study *s, char *err, size_t errlen);

#endif
