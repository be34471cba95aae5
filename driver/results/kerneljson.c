/*
 * kerneljson.c - kernel.json, written and read in one place.
 *
 * The one idea: a table of (key, offset) for the strings and one for the
 * numbers drive both directions through jansson, as meta.c does, so a
 * command line with quotes comes back as it went in; unknown keys are
 * ignored, so newer writers' files still load.
 */
#include "results/kerneljson.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/safefile.h"
#include "results/input.h"
#include "core/util.h"

#define FSTR(k, f)                                                                                 \
    {                                                                                              \
        k, offsetof(struct kernel_facts, f), sizeof(((struct kernel_facts *)0)->f)                 \
    }
#define FINT(k, f)                                                                                 \
    {                                                                                              \
        k, offsetof(struct kernel_facts, f), 0                                                     \
    }

struct kfield {
    const char *key;
    size_t off, size; /* size 0: an int */
};

/* clang-format off */
static const struct kfield kfields[] = {
    FSTR("release", release),
    FSTR("version", version),
    FSTR("cmdline", cmdline),
    FINT("config_smp", config_smp),
    FSTR("config_smp_from", smp_from),
    FSTR("cpus_possible", possible),
    FSTR("cpus_present", present),
    FSTR("cpus_online", online),
    FINT("ncpus_possible", npossible),
    FINT("ncpus_present", npresent),
    FINT("ncpus_online", nonline),
    FSTR("boot", boot),
    FSTR("boot_why", boot_why),
    FSTR("virt", virt),
    FSTR("pinning", pinning),
    FSTR("image", image),
    FSTR("image_sha256", image_sha256),
};
/* clang-format on */
#define NKFIELDS (sizeof kfields / sizeof kfields[0])

int kernel_json_write(const char *dir, const struct kernel_facts *f, char *err, size_t errlen)
{
    json_t *o = json_object();
    for (size_t i = 0; i < NKFIELDS; i++) {
        const char *p = (const char *)f + kfields[i].off;
        json_t *v;
        if (kfields[i].size)
            v = json_string(p);
        else if (!strcmp(kfields[i].key, "config_smp") && *(const int *)p < 0)
            v = json_null(); /* unknown */
        else
            v = json_integer(*(const int *)p);
        json_object_set_new(o, kfields[i].key, v ? v : json_string(""));
    }
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    char path[1100];
    int rc = -ENOMEM;
    if (text) {
        struct sbuf b = {0};
        sbuf_printf(&b, "%s\n", text);
        free(text);
        rc = snprintf(path, sizeof path, "%s/kernel.json", dir) >= (int)sizeof path
                 ? -ENAMETOOLONG
                 : write_file_atomic(path, b.s, b.len);
        sbuf_free(&b);
    }
    if (rc < 0)
        snprintf(err, errlen, "%s/kernel.json: %s", dir, strerror(-rc));
    return rc < 0 ? -1 : 0;
}

int kernel_json_load(const char *dir, struct kernel_facts *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->config_smp = -1;
    char path[1100];
    snprintf(path, sizeof path, "%s/kernel.json", dir);
    if (access(path, F_OK) < 0 && errno == ENOENT)
        return 0;
    json_t *o = results_input_json(path, err, errlen);
    if (!o)
        return -1;
    for (size_t i = 0; i < NKFIELDS; i++) {
        json_t *v = json_object_get(o, kfields[i].key);
        char *p = (char *)f + kfields[i].off;
        if (kfields[i].size && json_is_string(v))
            snprintf(p, kfields[i].size, "%s", json_string_value(v));
        else if (!kfields[i].size && json_is_integer(v))
            *(int *)p = (int)json_integer_value(v);
    }
    json_decref(o);
    return 1;
}

int kernel_json_check(const char *dir, const struct kernel_facts *f, char *err, size_t errlen)
{
    struct kernel_facts old;
    char why[512];
    if (kernel_json_load(dir, &old, why, sizeof why) == 1 && !kernelinfo_same(&old, f)) {
        snprintf(err, errlen,
                 "%s holds results of another kernel or boot (kernel.json: %s, command line "
                 "'%.200s'; now: %s, '%.200s'): give each kernel its own results directory and "
                 "compare them with `dbscale report A B`",
                 dir, old.release, old.cmdline, f->release, f->cmdline);
        return -2;
    }
    return 0;
}

int kernel_json_record(const char *dir, const struct kernel_facts *f, char *err, size_t errlen)
{
    int rc = kernel_json_check(dir, f, err, errlen);
    return rc < 0 ? rc : kernel_json_write(dir, f, err, errlen);
}

int kernel_json_record_running(const char *dir, char *err, size_t errlen)
{
    /* never through a link: kernel.json would land in the directory it
     * names before micro.csv's own check refused it */
    int rc = dir_make_nofollow(dir, 0755);
    if (rc < 0) {
        snprintf(err, errlen, "cannot use %s: %s", dir, file_strerror(rc));
        return rc == -ELOOP || rc == -ENOTDIR ? -2 : -1;
    }
    struct kernel_facts f;
    kernelinfo_read(&f);
    return kernel_json_record(dir, &f, err, errlen);
}
