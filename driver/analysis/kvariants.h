/*
 * kvariants.h - the results directories of a page as kernel variants: what
 * each ran on and which boots measured it. The guest's own facts (release,
 * CONFIG_SMP, its CPUs, how it came up) come from its kernel.json; the
 * host's facts (accelerator, pinning, housekeeping CPUs, topology, the image
 * and its sha256, the boot parameters) from the study's kernels.json when
 * the directory is a variant of a study (its parent holds a kernels.json
 * naming it), and only for a loose directory from kernel.json, where a guest
 * merely repeats what it was told. Boots are the unit of a kernels study: a
 * variant's boots are named r1, r2 ... from the study's runs, else by the
 * first characters of their boot_id.
 */
#ifndef DBSCALE_KVARIANTS_H
#define DBSCALE_KVARIANTS_H

#include <stddef.h>

#include "analysis/curves.h"
#include "results/kerneljson.h"
#include "results/studydir.h"
#include "results/studyjson.h"

/* The most variants compared (lettered A..Z), as a study's page reads. */
#define KVARIANTS_MAX STUDYDIR_MAX

struct kvariants_boot {
    char id[40];     /* the kernel's boot_id; "" for rows from before the column */
    char name[16];   /* "r2" (the study's run), else the id's first 8 characters, or "-" */
    int repeat;      /* the study's repeat number (1, 2 ...), 0 when the study has no such run */
    char status[16]; /* the study's word for the run ("ok", "failed" ...), "" without one */
};

struct kvariant {
    const char *name; /* the directory's name as the page shows it */
    const char *path;
    int has;               /* kernel.json read: f holds the guest's facts */
    struct kernel_facts f; /* zeroed when !has */
    /* The host's record when the directory is a study's variant, else NULL. */
    const struct studyjson *host;
    const struct studyjson_variant *hv;
    const char *host_dir; /* the study directory, "" when loose */
    /* The facts the page shows, from host when set, else from f: */
    char accel[64];        /* "tcg", "kvm", "none", "vm (QEMU)"; "" unknown */
    const char *pinning;   /* vCPU:hostCPU pairs, "" none recorded */
    int pinned;            /* 1 pinned, 0 not pinned (the host's word), -1 not recorded */
    size_t boots_unpinned; /* the study's boots of it whose pinning failed */
    const char *image, *sha256;
    char params[512]; /* the boot parameters the user set */
    struct kvariants_boot *boots;
    size_t nboots, capboots;
};

struct kvariants {
    struct kvariant v[KVARIANTS_MAX];
    size_t n;    /* compared (the first KVARIANTS_MAX directories) */
    size_t with; /* of them with a kernel.json */
    struct studyjson *hosts;
    char (*host_dirs)[512];
    size_t nhosts;
    /* Variants not compared: how many, and why in words ("" none). */
    size_t left_out;
    char left_why[512];
    /* A study record that could not be read, said on the page ("" none). */
    char note[640];
};

/* The first KVARIANTS_MAX of cv's directories as variants, their facts,
 * their study records and the boots those name; nothing is printed. */
void kvariants_load(const struct curves *cv, struct kvariants *kv);
void kvariants_free(struct kvariants *kv);
/* The index of the boot with boot_id id among v's boots, added (named)
 * when new: rows of one variant met in any file share one list. */
size_t kvariants_boot(struct kvariant *v, const char *id);
/* Which boots of s and u to set side by side: within a study the same
 * repeat (r1 with r1, run back to back), else in the order met. Up to max
 * pairs of (index in s, index in u) into pairs; how many. */
size_t kvariants_pairs(const struct kvariant *s, const struct kvariant *u, size_t (*pairs)[2],
                       size_t max);
/* An UP kernel (booted with one CPU, or built without SMP), an SMP one. */
int kvariants_is_up(const struct kvariant *v);
int kvariants_is_smp(const struct kvariant *v);

#endif
