/*
 * studyjson.h - OUT/kernels.json read back: a kernels study as the host
 * recorded it (vm/study.c writes it). What the host knows for itself (the
 * accelerator, whether and where the vCPUs were pinned, the housekeeping
 * CPUs, the topology, the share model, each image's path and sha256, each
 * boot's outcome and the guest kernel's boot_id) comes from here, not from
 * a variant's kernel.json, where a guest only says what it was told. The
 * page reads its variants, facts and boots through this.
 *
 * Keys read (unknown ones ignored, so newer writers' files still load):
 *   guest: accel, emulated, vcpus, host_cpus, mem_mb, pinned, pinning,
 *          housekeeping, topology {sockets, cores, threads, nodes}, share
 *   kernels[]: label, image, sha256, release, config_smp
 *   boots[]: label, params
 *   variants[]: the variants' directory names, in study order
 *   runs[]: id, variant, kernel, boot, repeat, status, why, exit_code,
 *           boot_id, seconds, pinned
 */
#ifndef DBSCALE_STUDYJSON_H
#define DBSCALE_STUDYJSON_H

#include <stddef.h>

struct studyjson_variant {
    char name[72];    /* its directory under OUT: KLABEL.BLABEL or KLABEL */
    char kernel[32];  /* the kernel's label */
    char boot[32];    /* the boot variant's label ("" when one unnamed) */
    char params[512]; /* the boot variant's kernel parameters */
    char release[128], image[512], sha256[65];
    int config_smp; /* -1 unknown */
};

struct studyjson_run {
    char id[96]; /* VARIANT.rN */
    char variant[72];
    int repeat;      /* 1, 2, ...: the boot's number within its variant */
    char status[16]; /* "ok", "failed", "stopped", "not run" */
    char why[640];
    int exit_code;    /* the command's in the guest, -1 when it did not finish */
    char boot_id[40]; /* the guest kernel's boot_id: what its rows' boot column holds */
    double seconds;
    int pinned; /* the vCPU threads were pinned as planned */
};

struct studyjson {
    char accel[8]; /* "kvm" or "tcg" */
    int emulated, vcpus, host_cpus, mem_mb, pinned;
    char *pinning;      /* "vCPU:hostCPU,..." whole, however many vCPUs ("" unpinned) */
    char *housekeeping; /* host CPUs kept for qemu's own threads, "" none */
    int sockets, cores, threads, nodes;
    char share[16]; /* the writable shares' 9p security model */
    struct studyjson_variant *variants;
    size_t nvariants;
    struct studyjson_run *runs;
    size_t nruns;
};

/* Is name a variant directory a study may have made: 1-71 of
 * A-Za-z0-9._+-, not starting with '.' or '-' (never outside OUT)? */
int studyjson_name_ok(const char *name);

/* Read DIR/kernels.json. 1 read, 0 there is none, -1 unreadable or
 * malformed (err names the file). A variant whose name is not
 * studyjson_name_ok is an error, not skipped. Free with studyjson_free. */
int studyjson_read(const char *dir, struct studyjson *s, char *err, size_t errlen);
void studyjson_free(struct studyjson *s);

/* The run whose guest had boot_id id (a results row's boot), or NULL. */
const struct studyjson_run *studyjson_run_of_boot(const struct studyjson *s, const char *id);
/* The variant named name, or NULL. */
const struct studyjson_variant *studyjson_variant(const struct studyjson *s, const char *name);

#endif
