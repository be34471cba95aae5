/*
 * study.h - a study's guest backend: every run one qemu boot of its
 * kernel with its boot variant's parameters (kernels x boot variants,
 * times any host axis such as server settings), the run's dbscale command
 * run inside into its variant's results directory, and OUT/kernels.json
 * telling what ran, how, and how it ended. The engine (study/engine.h)
 * decides which run goes when.
 *
 * The layout of OUT (the host's; a guest sees only its two shares):
 *   kernels.json      the study as the host saw it: kernels (path, sha256,
 *                     release, SMP), boots, the guest (accelerator, vCPUs,
 *                     pinning, housekeeping CPUs, topology, share model), the
 *                     command, and every boot's outcome and boot id
 *                     (rewritten after each boot)
 *   VARIANT/          one results directory per kernel x boot (KLABEL.BLABEL,
 *                     or KLABEL when there is one unnamed boot), filled by
 *                     the guest's own dbscale: the only place a guest writes
 *                     (shared mapped, cleaned after each boot: studyfd.h)
 *   study.json        the engine's record (study/record.h): axes, every
 *                     run's start time, the target's outcome
 *   console/RUN.log   each boot's whole console (never shared)
 *   .vm/RUN/run.sh    the script each boot ran (shared read-only)
 *   report.html       the page over every variant
 */
#ifndef DBSCALE_STUDY_H
#define DBSCALE_STUDY_H

#include <stddef.h>

#include "study/engine.h"
#include "vm/kimage.h"

#define STUDY_MAXPIN 1024
/* the x86 kernel's COMMAND_LINE_SIZE, with its NUL */
#define STUDY_CMDLINE 2048

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

/* A guest study's state: its kernels, boot variants and guest; its runs
 * (study/plan.h's) are the engine's when the engine runs it. */
struct study {
    struct study_kernel *k;
    int nk;
    struct study_boot *b;
    int nb;
    int repeats, vcpus, mem_mb, timeout_s;
    char accel[8];
    int pin[STUDY_MAXPIN];              /* host CPU of each vCPU when pinned */
    int pinned;                         /* 0: vCPUs float (more vCPUs than host CPUs) */
    int house[STUDY_MAXPIN];            /* host CPUs for qemu's own threads */
    int nhouse;                         /* 0: none left, they share the vCPUs' CPUs */
    int sockets, cores, threads, nodes; /* the guest's topology, as the pinned host CPUs' */
    int host_cpus;                      /* CPUs dbscale may use on the host */
    char out[1024];                     /* the study directory, absolute */
    int outfd;                          /* OUT, opened once (studyfd.h); -1 before */
    char share_model[16];               /* the variants' shares' 9p security model */
    char exe[1024];                     /* this dbscale, run inside every guest */
    char cwd[1024];                     /* the command's working directory, in the guest too */
    char qemu[1024];
    char *const *cmd; /* VERB ARGS... run in each guest */
    int ncmd;
    struct study_run *runs;
    int nruns;
    char started[32], ended[32];
};

/* The runs of a kernels x boots study, interleaved by repeat, with their
 * variant names (study/plan.c's order and names). */
void study_plan(struct study *s);
/* The kernel command line of run i into buf (STUDY_CMDLINE): ours, then
 * the boot variant's parameters, whole. The host's facts the guest may
 * echo into its kernel.json (the image's path, the pinning) go on whole
 * when they fit and are left off when not, never cut: kernels.json holds
 * them all. 0, or -1 with err when ours and the variant's do not fit. */
int study_cmdline(const struct study *s, int i, char *buf, size_t len, char *err, size_t errlen);
/* Boot run i and wait for it, running s->cmd; fills its status, why and
 * figures. echo: print the guest's own lines on stderr. 0, or -1 when the
 * run failed or was stopped (signals.h tells which). */
int study_run(struct study *s, int i, int echo);
/* OUT/kernels.json, atomically. 0, or -1 with err. */
int study_write(const struct study *s, char *err, size_t errlen);
/* The engine's guest backend over s: a run boots its kernel with its boot
 * variant's parameters and runs the run's words inside; the record is
 * kernels.json. */
struct study_backend study_guest_backend(struct study *s);

#endif
