/*
 * meta.h - meta.json, the facts beside a results directory's numbers: which
 * dbscale, which host and kernel, which server at which address, which
 * workload and timing, which variants, how far the sweep got. One owner:
 * meta_write writes it (atomically), meta_load reads it back; both through
 * jansson, so any JSON string survives the round trip.
 */
#ifndef DBSCALE_META_H
#define DBSCALE_META_H

#include <jansson.h>
#include <stddef.h>

#define META_MAX_VARIANTS 64

struct meta {
    char dbscale_version[32], git_commit[48];
    char engine[16], workload[64];
    char server[16]; /* "managed" or "external" */
    char server_version[128];
    char db_host[256]; /* where the server was reached (the managed one's own) */
    int db_port;       /* 0 for a Unix socket */
    char cpu_method[16];
    char host[256], kernel[256], machine[64], cmdline[1024], cpu_model[256];
    char cpus_online[256], cpus_possible[256];
    int uniprocessor;
    long long mem_kb;
    char started[32], ended[32]; /* ISO 8601 UTC; ended "" while running */
    double time_s, warmup_s;     /* measured window and warmup per level */
    int repeats;
    int levels_planned, levels_done;
    char variants[META_MAX_VARIANTS][32]; /* the labels the plan uses, in order */
    int nvariants;
    json_t *server_settings; /* object of strings, or NULL; owned */
    json_t *options;         /* object of strings, or NULL; owned */
    /* dbscale-mpi's keys (ranks, hosts, start_skew_s...), written at the
     * top level beside the others; NULL for one process. Owned. */
    json_t *extra;
    json_t *raw; /* meta_load: the whole object as read, for readers that
                  * show every key (the page); owned, ignored by meta_write */
};

/* Write m to DIR/meta.json atomically. 0, or -errno. */
int meta_write(const char *dir, const struct meta *m);

/* Read DIR/meta.json (or a path ending in .json) into m. Missing keys stay
 * empty/0; a file that is not JSON or not an object is an error naming the
 * file (and line). 0, or -1 with the message in err. Free with meta_free. */
int meta_load(const char *path, struct meta *m, char *err, size_t errlen);

/* Add label to m->variants unless it is there already. */
void meta_add_variant(struct meta *m, const char *label);

void meta_free(struct meta *m);

#endif
