/*
 * cpulist.c - the one CPU-set type and its one parser, sized from the machine.
 *
 * dbscale exists for big machines, so no CPU count is compiled in: a set is
 * CPU_ALLOC'd for the possible CPUs sysfs reports (devices/system/cpu/
 * possible), and every list of CPUs a user, sysfs or /proc writes ("0-3,6")
 * goes through cpulist_parse. The one idea: a list is checked against the
 * machine once, where it enters (option set-up, a sysfs read); past that a
 * set can hold every id it is given.
 *
 * Parsing and formatting use no allocation and no stdio streams, as the
 * sweep's signal path and the hotplug guardian read sysfs through them. This
 * room never prints and knows nothing of placement methods (machine/).
 */
#include "core/cpulist.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/procfs.h"

#define DEFAULT_SYSFS "/sys"
/* Ids beyond this are certainly a typo (Linux's NR_CPUS tops out at 8192). */
#define CPU_ID_SANE (1 << 20)

static char sysfs_root[1024];
static int sysfs_set;
static int possible_cache;

void cpulist_set_sysfs(const char *root)
{
    snprintf(sysfs_root, sizeof sysfs_root, "%s", root ? root : "");
    sysfs_set = root != NULL;
    possible_cache = 0;
}

static const char *root_dir(void)
{
    if (sysfs_set)
        return sysfs_root;
    const char *env = getenv("DBSCALE_SYSFS_ROOT");
    return env && *env ? env : DEFAULT_SYSFS;
}

void cpulist_sysfs_path(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/devices/system/cpu/%s", root_dir(), name);
}

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* One walk over "a-b,c" calling fn(lo, hi) per range; 0, or -1 if
 * malformed (the reason in why). Ids above CPU_ID_SANE are malformed. */
typedef int (*range_fn)(long lo, long hi, void *arg);

static const char *read_id(const char *s, long *v)
{
    if (*s < '0' || *s > '9')
        return NULL;
    for (*v = 0; *s >= '0' && *s <= '9'; s++)
        if ((*v = *v * 10 + (*s - '0')) > CPU_ID_SANE)
            return NULL;
    return s;
}

static int walk(const char *s, int flags, range_fn fn, void *arg)
{
    while (is_space(*s))
        s++;
    if (!*s)
        return flags & CPULIST_EMPTY_OK ? 0 : -1;
    for (;;) {
        long lo, hi;
        if (!(s = read_id(s, &lo)))
            return -1;
        hi = lo;
        if (*s == '-' && !(s = read_id(s + 1, &hi)))
            return -1;
        if (lo > hi)
            return -1;
        int rc = fn(lo, hi, arg);
        if (rc)
            return rc;
        if (*s != ',')
            break;
        s++;
    }
    while (is_space(*s))
        s++;
    return *s ? -1 : 0;
}

static int max_range(long lo, long hi, void *arg)
{
    (void)lo;
    long *max = arg;
    if (hi > *max)
        *max = hi;
    return 0;
}

int cpulist_possible(void)
{
    if (possible_cache > 0)
        return possible_cache;
    char path[1200], buf[4096];
    long max = -1;
    cpulist_sysfs_path(path, sizeof path, "possible");
    if (procfs_read(path, buf, sizeof buf) < 0 || walk(buf, 0, max_range, &max) < 0 || max < 0) {
        long n = sysconf(_SC_NPROCESSORS_CONF);
        max = n > 0 ? n - 1 : CPU_SETSIZE - 1;
    }
    possible_cache = (int)max + 1;
    return possible_cache;
}

int cpulist_init(struct cpulist *l)
{
    int n = cpulist_possible();
    /* Round up so that a machine-sized set is also at least a whole cpu_set_t:
     * glibc calls that take a plain cpu_set_t see no short buffer. */
    if (n < CPU_SETSIZE)
        n = CPU_SETSIZE;
    l->set = CPU_ALLOC(n);
    if (!l->set) {
        l->size = 0;
        l->ncpus = 0;
        return -1;
    }
    l->size = CPU_ALLOC_SIZE(n);
    l->ncpus = (int)(l->size * 8); /* CPU_ALLOC rounds up to whole words */
    CPU_ZERO_S(l->size, l->set);
    return 0;
}

void cpulist_free(struct cpulist *l)
{
    if (l->set)
        CPU_FREE(l->set);
    l->set = NULL;
    l->size = 0;
    l->ncpus = 0;
}

int cpulist_ncpus(const struct cpulist *l)
{
    return l->ncpus;
}

void cpulist_clear(struct cpulist *l)
{
    if (l->set)
        CPU_ZERO_S(l->size, l->set);
}

int cpulist_add(struct cpulist *l, int cpu)
{
    if (cpu < 0 || cpu >= l->ncpus)
        return -1;
    CPU_SET_S((size_t)cpu, l->size, l->set);
    return 0;
}

void cpulist_del(struct cpulist *l, int cpu)
{
    if (cpu >= 0 && cpu < l->ncpus)
        CPU_CLR_S((size_t)cpu, l->size, l->set);
}

int cpulist_has(const struct cpulist *l, int cpu)
{
    return cpu >= 0 && cpu < l->ncpus && CPU_ISSET_S((size_t)cpu, l->size, l->set);
}

int cpulist_count(const struct cpulist *l)
{
    return l->set ? CPU_COUNT_S(l->size, l->set) : 0;
}

int cpulist_equal(const struct cpulist *a, const struct cpulist *b)
{
    for (int c = 0; c < a->ncpus || c < b->ncpus; c++)
        if (cpulist_has(a, c) != cpulist_has(b, c))
            return 0;
    return 1;
}

void cpulist_and(struct cpulist *dst, const struct cpulist *a, const struct cpulist *b)
{
    for (int c = 0; c < dst->ncpus; c++)
        if (cpulist_has(a, c) && cpulist_has(b, c))
            CPU_SET_S((size_t)c, dst->size, dst->set);
        else
            CPU_CLR_S((size_t)c, dst->size, dst->set);
}

void cpulist_copy(struct cpulist *dst, const struct cpulist *src)
{
    for (int c = 0; c < dst->ncpus; c++)
        if (cpulist_has(src, c))
            CPU_SET_S((size_t)c, dst->size, dst->set);
        else
            CPU_CLR_S((size_t)c, dst->size, dst->set);
}

int cpulist_next(const struct cpulist *l, int from)
{
    for (int c = from < 0 ? 0 : from; c < l->ncpus; c++)
        if (CPU_ISSET_S((size_t)c, l->size, l->set))
            return c;
    return -1;
}

int cpulist_ids(const struct cpulist *l, int **ids)
{
    int n = cpulist_count(l), i = 0;
    *ids = malloc(sizeof **ids * (size_t)(n > 0 ? n : 1));
    if (!*ids)
        return -1;
    for (int c = cpulist_next(l, 0); c >= 0; c = cpulist_next(l, c + 1))
        (*ids)[i++] = c;
    return n;
}

struct fill {
    struct cpulist *l;
    long possible; /* ids at or past this the machine cannot have */
    long bad;      /* the first such id met, or -1 */
};

static int fill_range(long lo, long hi, void *arg)
{
    struct fill *f = arg;
    for (long c = lo; c <= hi; c++)
        if (c >= f->possible || cpulist_add(f->l, (int)c) < 0) {
            f->bad = c;
            return 1;
        }
    return 0;
}

int cpulist_parse(struct cpulist *l, const char *text, int flags, char *err, size_t errlen)
{
    struct fill f = {l, cpulist_possible(), -1};
    cpulist_clear(l);
    int rc = text ? walk(text, flags, fill_range, &f) : -1;
    if (rc == 0)
        return cpulist_count(l);
    cpulist_clear(l);
    if (f.bad >= 0)
        snprintf(err, errlen, "CPU %ld does not exist here (possible CPUs: 0-%d)", f.bad,
                 cpulist_possible() - 1);
    else
        snprintf(err, errlen, "'%.64s' is not a CPU list like 0-3,6", text ? text : "(null)");
    return -1;
}

void cpulist_format(const struct cpulist *l, char *buf, size_t len)
{
    size_t at = 0;
    if (!len)
        return;
    buf[0] = 0;
    for (int i = cpulist_next(l, 0); i >= 0; i = cpulist_next(l, i + 1)) {
        int j = i;
        while (cpulist_has(l, j + 1))
            j++;
        int n = j > i ? snprintf(buf + at, len - at, "%s%d-%d", at ? "," : "", i, j)
                      : snprintf(buf + at, len - at, "%s%d", at ? "," : "", i);
        if (n < 0 || (size_t)n >= len - at)
            return; /* truncated, still terminated */
        at += (size_t)n;
        i = j;
    }
}

int cpulist_read(struct cpulist *l, const char *path, int flags, char *err, size_t errlen)
{
    char buf[8192], why[160];
    ssize_t r = procfs_read(path, buf, sizeof buf);
    if (r < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror((int)-r));
        return -1;
    }
    int n = cpulist_parse(l, buf, flags, why, sizeof why);
    if (n < 0)
        snprintf(err, errlen, "%s: %s", path, why);
    return n;
}

int cpulist_online(struct cpulist *l, char *err, size_t errlen)
{
    char path[1200];
    cpulist_sysfs_path(path, sizeof path, "online");
    return cpulist_read(l, path, 0, err, errlen);
}

int cpulist_check_online(const char *text, char *err, size_t errlen)
{
    struct cpulist want, on;
    int n = -1;
    if (cpulist_init(&want) < 0 || cpulist_init(&on) < 0) {
        cpulist_free(&want);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (cpulist_parse(&want, text, 0, err, errlen) > 0 && cpulist_online(&on, err, errlen) > 0) {
        n = cpulist_count(&want);
        for (int c = cpulist_next(&want, 0); c >= 0 && n > 0; c = cpulist_next(&want, c + 1))
            if (!cpulist_has(&on, c)) {
                char o[256];
                cpulist_format(&on, o, sizeof o);
                snprintf(err, errlen, "CPU %d is not online (online: %s)", c, o);
                n = -1;
            }
    }
    cpulist_free(&want);
    cpulist_free(&on);
    return n;
}

int cpulist_text_count(const char *s)
{
    int n = 0;
    while (*s) {
        char *e;
        long a = strtol(s, &e, 10), b = a;
        if (e == s || a < 0)
            return 0;
        if (*e == '-') {
            s = e + 1;
            b = strtol(s, &e, 10);
            if (e == s || b < a)
                return 0;
        }
        n += (int)(b - a + 1);
        if (*e == ',')
            e++;
        else if (*e)
            return 0;
        s = e;
    }
    return n;
}
