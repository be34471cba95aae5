/*
 * kvariants.c - a page's directories as kernel variants (see kvariants.h).
 *
 * The one idea: who knows a fact says it. The guest knows its own kernel
 * (kernel.json); the host knows how it ran the guest (kernels.json), and a
 * directory that is a study's variant is found by its parent holding a
 * kernels.json that names it, so `report OUT`, `report OUT/a OUT/b` and the
 * study's own page all read the host's record. A guest's kernel.json keeps
 * pinning lists of 127 bytes at most, so an empty one there means "not
 * recorded", never "not pinned".
 *
 * Never build a path from a name read in a file: studyjson_read checks every
 * variant name, and only names it accepted are looked up.
 */
#include "analysis/kvariants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int kvariants_is_up(const struct kvariant *v)
{
    return v->has && (!strcmp(v->f.boot, "booted") || !strcmp(v->f.boot, "built"));
}

int kvariants_is_smp(const struct kvariant *v)
{
    return v->has && !strcmp(v->f.boot, "smp");
}

/* The kernel command line as the user set it: our own words left out. */
static void user_params(const char *cmdline, char *out, size_t len)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", cmdline);
    size_t o = 0;
    out[0] = '\0';
    for (char *save = NULL, *w = strtok_r(copy, " \n", &save); w;
         w = strtok_r(NULL, " \n", &save)) {
        if (!strncmp(w, "dbscale.", 8) || !strcmp(w, "console=ttyS0") || !strcmp(w, "panic=-1") ||
            !strcmp(w, "quiet"))
            continue;
        int k = snprintf(out + o, len - o, "%s%s", o ? " " : "", w);
        if (k < 0 || (size_t)k >= len - o)
            break;
        o += (size_t)k;
    }
}

size_t kvariants_boot(struct kvariant *v, const char *id)
{
    for (size_t i = 0; i < v->nboots; i++)
        if (!strcmp(v->boots[i].id, id))
            return i;
    if (v->nboots == v->capboots) {
        v->capboots = v->capboots ? 2 * v->capboots : 8;
        v->boots = xrealloc(v->boots, v->capboots * sizeof *v->boots);
    }
    struct kvariants_boot *b = &v->boots[v->nboots];
    memset(b, 0, sizeof *b);
    snprintf(b->id, sizeof b->id, "%s", id);
    const struct studyjson_run *r = v->host ? studyjson_run_of_boot(v->host, id) : NULL;
    if (r && !strcmp(r->variant, v->hv->name) && r->repeat > 0) {
        b->repeat = r->repeat;
        snprintf(b->name, sizeof b->name, "r%d", r->repeat);
        snprintf(b->status, sizeof b->status, "%s", r->status);
    } else
        snprintf(b->name, sizeof b->name, "%.8s", id[0] ? id : "-");
    return v->nboots++;
}

size_t kvariants_pairs(const struct kvariant *s, const struct kvariant *u, size_t (*pairs)[2],
                       size_t max)
{
    size_t n = 0;
    if (s->host && u->host) {
        for (size_t i = 0; i < s->nboots; i++)
            for (size_t j = 0; j < u->nboots && n < max; j++)
                if (s->boots[i].repeat > 0 && s->boots[i].repeat == u->boots[j].repeat)
                    pairs[n][0] = i, pairs[n][1] = j, n++;
        return n;
    }
    for (; n < s->nboots && n < u->nboots && n < max; n++)
        pairs[n][0] = pairs[n][1] = n;
    return n;
}

/* Split a directory path into its parent and its last name. */
static void split(const char *path, char *parent, size_t plen, char *base, size_t blen)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", path);
    size_t l = strlen(tmp);
    while (l > 1 && tmp[l - 1] == '/')
        tmp[--l] = '\0';
    char *slash = strrchr(tmp, '/');
    if (!slash) {
        snprintf(parent, plen, ".");
        snprintf(base, blen, "%s", tmp);
        return;
    }
    snprintf(base, blen, "%s", slash + 1);
    if (slash == tmp)
        slash[1] = '\0';
    else
        *slash = '\0';
    snprintf(parent, plen, "%s", tmp);
}

/* The study record of the directory parent: read once per page; NULL when
 * it has none or it cannot be read (then kv->note says so). */
static struct studyjson *host_of(struct kvariants *kv, const char *parent)
{
    for (size_t h = 0; h < kv->nhosts; h++)
        if (!strcmp(kv->host_dirs[h], parent))
            return &kv->hosts[h];
    char err[600];
    struct studyjson *s = &kv->hosts[kv->nhosts];
    int rc = studyjson_read(parent, s, err, sizeof err);
    if (rc < 0 && !kv->note[0])
        snprintf(kv->note, sizeof kv->note, "%s (facts taken from each kernel.json instead)", err);
    if (rc <= 0)
        return NULL;
    snprintf(kv->host_dirs[kv->nhosts], sizeof kv->host_dirs[0], "%s", parent);
    kv->nhosts++;
    return s;
}

static void host_facts(struct kvariant *v)
{
    const struct studyjson *h = v->host;
    snprintf(v->accel, sizeof v->accel, "%s", h->accel);
    v->pinning = h->pinning;
    v->pinned = h->accel[0] ? h->pinned : -1; /* no guest record: nothing known */
    v->image = v->hv->image;
    v->sha256 = v->hv->sha256;
    snprintf(v->params, sizeof v->params, "%s", v->hv->params);
    for (size_t i = 0; i < h->nruns; i++) {
        const struct studyjson_run *r = &h->runs[i];
        if (strcmp(r->variant, v->hv->name) != 0)
            continue;
        if (h->pinned && !r->pinned && !strcmp(r->status, "ok"))
            v->boots_unpinned++;
    }
    /* the study's boots first, in repeat order, so r1 is boot 0 */
    for (int rep = 1; rep <= (int)h->nruns; rep++)
        for (size_t i = 0; i < h->nruns; i++)
            if (h->runs[i].repeat == rep && h->runs[i].boot_id[0] &&
                !strcmp(h->runs[i].variant, v->hv->name))
                kvariants_boot(v, h->runs[i].boot_id);
}

static void guest_facts(struct kvariant *v)
{
    v->pinned = -1;
    v->pinning = v->image = v->sha256 = "";
    if (!v->has)
        return;
    snprintf(v->accel, sizeof v->accel, "%s", v->f.virt);
    v->pinning = v->f.pinning;
    v->pinned = v->f.pinning[0] ? 1 : -1; /* empty: not recorded, never "not pinned" */
    v->image = v->f.image;
    v->sha256 = v->f.image_sha256;
    user_params(v->f.cmdline, v->params, sizeof v->params);
}

/* A study whose first KVARIANTS_MAX variants are all the page compares of
 * it, and which had more: say how many were left out and why. */
static void study_left_out(struct kvariants *kv, size_t h)
{
    char **dirs, err[600];
    size_t nd, beyond;
    if (studydir_variants(kv->host_dirs[h], &dirs, &nd, &beyond, err, sizeof err) < 0)
        return;
    size_t k = 0;
    int same = 1;
    for (size_t i = 0; i < kv->n; i++) {
        if (kv->v[i].host != &kv->hosts[h])
            continue;
        char parent[512], base[128], want[512], wb[128];
        split(kv->v[i].path, parent, sizeof parent, base, sizeof base);
        if (k < nd)
            split(dirs[k], want, sizeof want, wb, sizeof wb);
        same &= k < nd && !strcmp(base, wb);
        k++;
    }
    if (beyond && same && k == nd) {
        kv->left_out += beyond;
        char parent[512], last[128];
        split(dirs[nd - 1], parent, sizeof parent, last, sizeof last);
        snprintf(kv->left_why, sizeof kv->left_why,
                 "the study %s has %zu variants with results and a page letters at most %d "
                 "(A..Z): the %zu after %s in its kernels.json were not read; compare them with "
                 "dbscale report DIR...",
                 kv->host_dirs[h], nd + beyond, KVARIANTS_MAX, beyond, last);
    }
    studydir_free(dirs, nd);
}

void kvariants_load(const struct curves *cv, struct kvariants *kv)
{
    memset(kv, 0, sizeof *kv);
    kv->hosts = xcalloc(KVARIANTS_MAX, sizeof *kv->hosts);
    kv->host_dirs = xcalloc(KVARIANTS_MAX, sizeof *kv->host_dirs);
    kv->n = cv->ndirs < KVARIANTS_MAX ? cv->ndirs : KVARIANTS_MAX;
    for (size_t d = 0; d < kv->n; d++) {
        struct kvariant *v = &kv->v[d];
        char err[600], parent[512], base[128];
        v->name = cv->dirs[d].name;
        v->path = cv->dirs[d].path;
        v->has = kernel_json_load(v->path, &v->f, err, sizeof err) == 1;
        if (!v->has)
            memset(&v->f, 0, sizeof v->f);
        kv->with += (size_t)v->has;
        v->host_dir = "";
        split(v->path, parent, sizeof parent, base, sizeof base);
        struct studyjson *h = studyjson_name_ok(base) ? host_of(kv, parent) : NULL;
        v->hv = h ? studyjson_variant(h, base) : NULL;
        v->host = v->hv ? h : NULL;
        if (v->host) {
            v->host_dir = kv->host_dirs[h - kv->hosts];
            host_facts(v);
        } else
            guest_facts(v);
        const struct result_set *rs = &cv->dirs[d].rs;
        for (size_t i = 0; i < rs->n; i++)
            kvariants_boot(v, rs->rows[i].boot);
    }
    if (cv->ndirs > KVARIANTS_MAX) {
        kv->left_out = cv->ndirs - KVARIANTS_MAX;
        int o = snprintf(kv->left_why, sizeof kv->left_why,
                         "%zu directories were given and a page letters at most %d (A..Z): "
                         "not compared:",
                         cv->ndirs, KVARIANTS_MAX);
        for (size_t d = KVARIANTS_MAX; d < cv->ndirs && o > 0 && (size_t)o < sizeof kv->left_why;
             d++)
            o += snprintf(kv->left_why + o, sizeof kv->left_why - (size_t)o, " %s",
                          cv->dirs[d].name);
    }
    for (size_t h = 0; h < kv->nhosts; h++)
        study_left_out(kv, h);
}

void kvariants_free(struct kvariants *kv)
{
    for (size_t d = 0; d < kv->n; d++)
        free(kv->v[d].boots);
    for (size_t h = 0; h < kv->nhosts; h++)
        studyjson_free(&kv->hosts[h]);
    free(kv->hosts);
    free(kv->host_dirs);
    memset(kv, 0, sizeof *kv);
}
