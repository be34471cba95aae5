/*
 * why_proc.c - what /proc says about the server over a window: the split of
 * each CPU it was held to (/proc/stat: user, system, irq, softirq, iowait,
 * steal, idle) and its tasks' scheduling (voluntary and involuntary context
 * switches from status, migrations from sched, user and kernel time from
 * stat, run and run-queue wait time from schedstat).
 *
 * The one idea: read everything at the window's two edges and subtract, task
 * by task (a task that appeared inside the window counts whole, one that
 * left is lost: the sweep's connections are opened before its levels, so
 * neither happens to a level's own backends). A file that is missing (a
 * task gone, a kernel without sched_debug) counts as nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cpulist.h"
#include "core/procfs.h"
#include "why/why_internal.h"

int why_stat_parse(struct why_stat *s, const char *text, const char *cpulist)
{
    memset(s, 0, sizeof *s);
    struct cpulist held;
    char err[160];
    if (cpulist_init(&held) < 0)
        return -1;
    int nheld = cpulist_parse(&held, cpulist, 0, err, sizeof err);
    if (nheld <= 0) {
        cpulist_free(&held);
        return -1;
    }
    s->cpu = xcalloc((size_t)nheld, sizeof *s->cpu);
    s->t = xcalloc((size_t)nheld, sizeof *s->t);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        int id;
        unsigned long long v[8] = {0};
        /* cpuN user nice system idle iowait irq softirq steal */
        if (strncmp(l, "cpu", 3) != 0 ||
            sscanf(l, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &id, &v[0], &v[1], &v[2],
                   &v[3], &v[4], &v[5], &v[6], &v[7]) < 8 ||
            !cpulist_has(&held, id) || s->n >= nheld)
            continue;
        unsigned long long *t = s->t[s->n];
        t[WHY_USER] = v[0] + v[1]; /* nice is user time too */
        t[WHY_SYSTEM] = v[2];
        t[WHY_IDLE] = v[3];
        t[WHY_IOWAIT] = v[4];
        t[WHY_IRQ] = v[5];
        t[WHY_SOFTIRQ] = v[6];
        t[WHY_STEAL] = v[7];
        s->cpu[s->n++] = id;
    }
    cpulist_free(&held);
    return 0;
}

int why_stat_read(struct why_stat *s, const char *cpulist)
{
    char *buf = xmalloc(1 << 20);
    ssize_t n = procfs_read("/proc/stat", buf, 1 << 20);
    int rc = n > 0 ? why_stat_parse(s, buf, cpulist) : -1;
    free(buf);
    return rc;
}

void why_stat_rows(const struct why_stat *a, const struct why_stat *b, struct why_result *r)
{
    double hz = (double)sysconf(_SC_CLK_TCK);
    if (hz <= 0)
        hz = 100;
    r->cpu = xcalloc((size_t)(b->n ? b->n : 1), sizeof *r->cpu);
    r->ncpu = 0;
    for (int j = 0; j < b->n; j++)
        for (int i = 0; i < a->n; i++) {
            if (a->cpu[i] != b->cpu[j])
                continue;
            struct why_cpu *c = &r->cpu[r->ncpu++];
            memset(c, 0, sizeof *c);
            c->cpu = b->cpu[j];
            for (int f = 0; f < WHY_NCPUF; f++) /* a counter never runs backwards... */
                c->s[f] = b->t[j][f] >= a->t[i][f] ? (double)(b->t[j][f] - a->t[i][f]) / hz : 0;
            break; /* ...and iowait, which may, is clipped */
        }
}

void why_stat_free(struct why_stat *s)
{
    free(s->cpu);
    free(s->t);
    memset(s, 0, sizeof *s);
}

/* ---- tasks ---- */

static unsigned long long field_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p)
        return 0;
    p += strlen(key);
    while (*p == ' ' || *p == '\t' || *p == ':')
        p++;
    return strtoull(p, NULL, 10);
}

static int read_task(pid_t pid, pid_t tid, void *arg)
{
    struct why_tasks *ts = arg;
    char path[96], buf[8192];
    struct why_task t = {.tid = tid};
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/status", (long)pid, (long)tid);
    if (procfs_read(path, buf, sizeof buf) <= 0)
        return 0; /* gone */
    t.vol = field_after(buf, "\nvoluntary_ctxt_switches");
    t.invol = field_after(buf, "\nnonvoluntary_ctxt_switches");
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/sched", (long)pid, (long)tid);
    if (procfs_read(path, buf, sizeof buf) > 0 && strstr(buf, "\nse.nr_migrations")) {
        t.migr = field_after(buf, "\nse.nr_migrations");
        t.has_sched = 1;
    }
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/stat", (long)pid, (long)tid);
    const char *p = procfs_read(path, buf, sizeof buf) > 0 ? strrchr(buf, ')') : NULL;
    if (p) /* ") S ppid ... utime stime": fields 14 and 15 */
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &t.utime, &t.stime);
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/schedstat", (long)pid, (long)tid);
    if (procfs_read(path, buf, sizeof buf) > 0)
        t.has_schedstat = sscanf(buf, "%llu %llu", &t.run_ns, &t.wait_ns) == 2;
    if (ts->n == ts->cap) {
        ts->cap = ts->cap ? ts->cap * 2 : 64;
        ts->t = xrealloc(ts->t, ts->cap * sizeof *ts->t);
    }
    ts->t[ts->n++] = t;
    return 0;
}

void why_tasks_read(struct why_tasks *ts, const pid_t *pids, int n)
{
    ts->n = 0;
    for (int i = 0; i < n; i++)
        procfs_each_task(pids[i], read_task, ts);
}

static int by_tid(const void *a, const void *b)
{
    pid_t x = ((const struct why_task *)a)->tid, y = ((const struct why_task *)b)->tid;
    return (x > y) - (x < y);
}

void why_tasks_delta(const struct why_tasks *a, const struct why_tasks *b, struct why_sched *out)
{
    struct why_task *sa = xcalloc(a->n + 1, sizeof *sa);
    if (a->n)
        memcpy(sa, a->t, a->n * sizeof *sa);
    qsort(sa, a->n, sizeof *sa, by_tid);
    out->tasks = (int)b->n;
    out->voluntary = out->involuntary = out->migrations = out->run_s = out->runq_s = 0;
    out->user_s = out->system_s = 0;
    double hz = (double)sysconf(_SC_CLK_TCK);
    if (hz <= 0)
        hz = 100;
    int sched = 0, schedstat = 0;
    for (size_t j = 0; j < b->n; j++) {
        sched |= b->t[j].has_sched;
        schedstat |= b->t[j].has_schedstat;
        const struct why_task *t = &b->t[j], *o = bsearch(t, sa, a->n, sizeof *sa, by_tid);
        struct why_task z = {0};
        if (!o)
            o = &z;
#define D(f) (t->f >= o->f ? (double)(t->f - o->f) : 0)
        out->voluntary += D(vol);
        out->involuntary += D(invol);
        out->migrations += D(migr);
        out->run_s += D(run_ns) / 1e9;
        out->runq_s += D(wait_ns) / 1e9;
        out->user_s += D(utime) / hz;
        out->system_s += D(stime) / hz;
#undef D
    }
    if (!sched) /* no SCHED_DEBUG: migrations were not measured */
        out->migrations = NAN;
    if (!schedstat)
        out->run_s = out->runq_s = NAN;
    free(sa);
}

void why_tasks_free(struct why_tasks *ts)
{
    free(ts->t);
    memset(ts, 0, sizeof *ts);
}
