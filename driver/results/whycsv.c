/*
 * whycsv.c - cpusplit.csv, sched.csv, waits.csv and profile.csv, written and
 * read in one place.
 *
 * The one idea: as results.c does for results.csv, one table of columns
 * (name, type, offset, what it means) per file drives the writer, the reader
 * and meta.json's description, so the three cannot disagree. The reader maps
 * columns by header name: a newer writer's extra columns are ignored. Files
 * are rewritten whole through write_file_atomic; a file that does not parse
 * is an error naming file and line, never a crash.
 */
#include "results/whycsv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/csv.h"
#include "results/input.h"
#include "core/util.h"

const char *const why_cpu_field[WHY_NCPUF] = {"user",   "system", "irq", "softirq",
                                              "iowait", "steal",  "idle"};

enum wtype { W_STR, W_INT, W_NUM };

struct wcol {
    const char *name;
    enum wtype type;
    size_t off, size;
    const char *doc;
};

struct wkind {
    const char *file;
    const struct wcol *cols;
    size_t ncols, rowsize;
};

#define KEY(T)                                                                                     \
    {"variant", W_STR, offsetof(T, k.variant), sizeof(((T *)0)->k.variant),                        \
     "the level's variant, as in results.csv"},                                                    \
        {"cpus", W_INT, offsetof(T, k.cpus), 0, "CPUs the server was held to"},                    \
        {"threads", W_INT, offsetof(T, k.threads), 0, "client connections"},                       \
    {                                                                                              \
        "repeat", W_INT, offsetof(T, k.repeat), 0,                                                 \
            "the repeat, as in results.csv; 0: an extra profiled run (--profile=knee)"             \
    }
#define WS(T, f, d)                                                                                \
    {                                                                                              \
#f, W_STR, offsetof(T, f), sizeof(((T *)0)->f), d                                          \
    }
#define WI(T, f, d)                                                                                \
    {                                                                                              \
#f, W_INT, offsetof(T, f), 0, d                                                            \
    }
#define WN(T, f, d)                                                                                \
    {                                                                                              \
#f, W_NUM, offsetof(T, f), 0, d                                                            \
    }
#define CPUF(i, nm, d)                                                                             \
    {nm "_s", W_NUM, offsetof(struct why_cpu, s) + (i) * sizeof(double), 0,                        \
     "seconds of " d " on this CPU over the window"},                                              \
    {                                                                                              \
        nm "_us_txn", W_NUM, offsetof(struct why_cpu, us_txn) + (i) * sizeof(double), 0,           \
            "microseconds of " d " on this CPU per transaction"                                    \
    }

/* clang-format off */
static const struct wcol cpu_cols[] = {
    KEY(struct why_cpu),
    WI(struct why_cpu, cpu, "the CPU's id (one of the CPUs the server was held to)"),
    CPUF(WHY_USER, "user", "user time (with nice)"),
    CPUF(WHY_SYSTEM, "system", "system (kernel) time"),
    CPUF(WHY_IRQ, "irq", "hardware interrupts"),
    CPUF(WHY_SOFTIRQ, "softirq", "softirqs"),
    CPUF(WHY_IOWAIT, "iowait", "idle time with I/O outstanding"),
    CPUF(WHY_STEAL, "steal", "time the hypervisor gave to others"),
    CPUF(WHY_IDLE, "idle", "idle time"),
};
static const struct wcol sched_cols[] = {
    KEY(struct why_sched),
    WI(struct why_sched, tasks, "the server's tasks (processes and threads) at the window's end"),
    WN(struct why_sched, voluntary, "voluntary context switches (the task slept: a lock, I/O, a read) over the window"),
    WN(struct why_sched, involuntary, "involuntary context switches (preempted)"),
    WN(struct why_sched, migrations, "moves of a task from one CPU to another (/proc/PID/task/TID/sched)"),
    WN(struct why_sched, user_s, "the tasks' user CPU seconds (utime)"),
    WN(struct why_sched, system_s, "the tasks' kernel CPU seconds (stime)"),
    WN(struct why_sched, run_s, "seconds on a CPU (schedstat)"),
    WN(struct why_sched, runq_s, "seconds runnable but waiting for a CPU (schedstat)"),
    WN(struct why_sched, voluntary_txn, "voluntary switches per transaction"),
    WN(struct why_sched, involuntary_txn, "involuntary switches per transaction"),
    WN(struct why_sched, migrations_txn, "migrations per transaction"),
    WN(struct why_sched, user_us_txn, "the server's user CPU microseconds per transaction"),
    WN(struct why_sched, system_us_txn, "the server's kernel CPU microseconds per transaction"),
    WN(struct why_sched, run_us_txn, "microseconds on a CPU per transaction"),
    WN(struct why_sched, runq_us_txn, "microseconds waiting for a CPU per transaction"),
};
static const struct wcol wait_cols[] = {
    KEY(struct why_wait),
    WS(struct why_wait, source, "pg_wait_sampling, pg_stat_activity (sampled), performance_schema or innodb"),
    WS(struct why_wait, event, "wait_event_type:wait_event (PostgreSQL; CPU when none), the EVENT_NAME (performance_schema), or innodb's counter"),
    WS(struct why_wait, cls, "cpu, lock, io, client (waiting for the client's next statement), table (MariaDB: time inside the storage engine's row calls, CPU included) or other"),
    WN(struct why_wait, count, "samples in it (sampled sources) or events counted"),
    WN(struct why_wait, wait_s, "connection-seconds spent in it over the window"),
    WN(struct why_wait, share, "share of all the connections' time over the window (0..1)"),
    WN(struct why_wait, us_txn, "microseconds in it per transaction (summed over connections)"),
    WN(struct why_wait, sampler_hz, "the level's sampling rate reached (Hz; 0: not sampled here)"),
    WN(struct why_wait, sampler_cpu_s, "the pg_stat_activity sampler's own CPU seconds in dbscale (taken off client_cpu_s)"),
};
static const struct wcol prof_cols[] = {
    KEY(struct why_prof),
    WS(struct why_prof, role, "level (--profile: every level), before-knee, knee or peak (--profile=knee)"),
    WN(struct why_prof, samples, "perf record samples (cpu-clock) of the server's processes over the window"),
    WN(struct why_prof, kernel_samples, "of those, the ones whose leaf frame is in the kernel"),
    WN(struct why_prof, txns, "transactions of the profiled run"),
    WN(struct why_prof, time_s, "its window, seconds"),
    WN(struct why_prof, server_cpu_s, "the server's CPU seconds over its window"),
    WN(struct why_prof, perf_cpu_s, "perf record's own CPU seconds"),
    WS(struct why_prof, folded, "its folded stacks (one 'frame;frame;... count' line each, kernel frames end in _[k]), relative to the directory"),
};
/* clang-format on */

#define KIND(f, c, T)                                                                              \
    {                                                                                              \
        f, c, sizeof c / sizeof c[0], sizeof(T)                                                    \
    }
static const struct wkind kinds[4] = {
    KIND("cpusplit.csv", cpu_cols, struct why_cpu),
    KIND("sched.csv", sched_cols, struct why_sched),
    KIND("waits.csv", wait_cols, struct why_wait),
    KIND("profile.csv", prof_cols, struct why_prof),
};

/* The table of kind i inside w, as bytes. */
static void table_of(const struct whycsv *w, int i, char ***rows, size_t **n, size_t **cap)
{
    struct whycsv *m = (struct whycsv *)w;
    switch (i) {
    case 0:
        *rows = (char **)&m->cpu, *n = &m->ncpu, *cap = &m->capcpu;
        break;
    case 1:
        *rows = (char **)&m->sched, *n = &m->nsched, *cap = &m->capsched;
        break;
    case 2:
        *rows = (char **)&m->wait, *n = &m->nwait, *cap = &m->capwait;
        break;
    default:
        *rows = (char **)&m->prof, *n = &m->nprof, *cap = &m->capprof;
        break;
    }
}

static void add_row(struct whycsv *w, int i, const void *r)
{
    char **rows;
    size_t *n, *cap;
    table_of(w, i, &rows, &n, &cap);
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 32;
        *rows = xrealloc(*rows, *cap * kinds[i].rowsize);
    }
    memcpy(*rows + *n * kinds[i].rowsize, r, kinds[i].rowsize);
    (*n)++;
}

void whycsv_add_cpu(struct whycsv *w, const struct why_cpu *r)
{
    add_row(w, 0, r);
}
void whycsv_add_sched(struct whycsv *w, const struct why_sched *r)
{
    add_row(w, 1, r);
}
void whycsv_add_wait(struct whycsv *w, const struct why_wait *r)
{
    add_row(w, 2, r);
}
void whycsv_add_prof(struct whycsv *w, const struct why_prof *r)
{
    add_row(w, 3, r);
}

static int write_kind(const char *dir, const struct wkind *k, const char *rows, size_t n)
{
    struct sbuf b = {0};
    for (size_t c = 0; c < k->ncols; c++)
        sbuf_printf(&b, "%s%s", c ? "," : "", k->cols[c].name);
    sbuf_add(&b, "\n", 1);
    for (size_t i = 0; i < n; i++) {
        const char *r = rows + i * k->rowsize;
        for (size_t c = 0; c < k->ncols; c++) {
            const void *p = r + k->cols[c].off;
            if (c)
                sbuf_add(&b, ",", 1);
            if (k->cols[c].type == W_STR)
                csv_put(&b, p);
            else if (k->cols[c].type == W_INT)
                sbuf_printf(&b, "%d", *(const int *)p);
            else if (!isnan(*(const double *)p)) /* not measured: an empty cell */
                sbuf_printf(&b, "%.9g", *(const double *)p);
        }
        sbuf_add(&b, "\n", 1);
    }
    char path[1200];
    int rc = snprintf(path, sizeof path, "%s/%s", dir, k->file) >= (int)sizeof path
                 ? -ENAMETOOLONG
                 : write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    return rc;
}

int whycsv_write(const char *dir, const struct whycsv *w)
{
    for (int i = 0; i < 4; i++) {
        char **rows;
        size_t *n, *cap;
        table_of(w, i, &rows, &n, &cap);
        if (!*n)
            continue;
        int rc = write_kind(dir, &kinds[i], *rows, *n);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int set_field(const struct wcol *c, char *row, const char *v)
{
    void *p = row + c->off;
    char *end;
    errno = 0;
    if (c->type == W_STR) {
        if (strlen(v) >= c->size)
            return -1;
        strcpy(p, v);
        return 0;
    }
    if (c->type == W_INT) {
        long x = strtol(v, &end, 10);
        if (!*v || errno || *end || x < 0 || x > (1L << 24))
            return -1;
        *(int *)p = (int)x;
        return 0;
    }
    if (!*v) { /* not measured */
        *(double *)p = NAN;
        return 0;
    }
    double x = strtod(v, &end); /* counts, times, shares: finite, >= 0 */
    if (*end || !isfinite(x) || x < 0 || x >= 1e15)
        return -1;
    *(double *)p = x;
    return 0;
}

#define MAXF 64

static int read_kind(const char *dir, struct whycsv *w, int ki, char *err, size_t errlen)
{
    const struct wkind *k = &kinds[ki];
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, k->file);
    if (access(path, F_OK) != 0)
        return 0;
    FILE *f = results_input_open(path, err, errlen);
    if (!f)
        return -1;
    int map[MAXF], nh = 0, lineno = 0, rc = -1;
    char *line = NULL, *fld[MAXF + 1];
    size_t cap = 0;
    char *row = xcalloc(1, k->rowsize);
    while (csv_getline(f, &line, &cap, &lineno) >= 0) {
        int nf = csv_split(line, ',', fld, MAXF);
        if (nf < 0 || nf > MAXF) {
            snprintf(err, errlen, "%s:%d: not a CSV line of at most %d fields", path, lineno, MAXF);
            goto out;
        }
        if (!nh) {
            nh = nf;
            for (int i = 0; i < nf; i++) {
                map[i] = -1;
                for (size_t c = 0; c < k->ncols; c++)
                    if (!strcmp(fld[i], k->cols[c].name))
                        map[i] = (int)c;
            }
            for (int c = 0; c < 4; c++) { /* the key is required */
                int have = 0;
                for (int i = 0; i < nf; i++)
                    have |= map[i] == c;
                if (!have) {
                    snprintf(err, errlen, "%s:%d: no %s column", path, lineno, k->cols[c].name);
                    goto out;
                }
            }
            continue;
        }
        if (nf != nh) {
            snprintf(err, errlen, "%s:%d: %d fields, the header has %d", path, lineno, nf, nh);
            goto out;
        }
        memset(row, 0, k->rowsize);
        for (int i = 0; i < nf; i++)
            if (map[i] >= 0 && set_field(&k->cols[map[i]], row, fld[i]) < 0) {
                snprintf(err, errlen, "%s:%d: bad %s '%.40s'", path, lineno, k->cols[map[i]].name,
                         fld[i]);
                goto out;
            }
        add_row(w, ki, row);
    }
    rc = 0;
out:
    free(row);
    free(line);
    fclose(f);
    return rc;
}

int whycsv_read(const char *dir, struct whycsv *w, char *err, size_t errlen)
{
    for (int i = 0; i < 4; i++)
        if (read_kind(dir, w, i, err, errlen) < 0)
            return -1;
    return 0;
}

void whycsv_free(struct whycsv *w)
{
    free(w->cpu);
    free(w->sched);
    free(w->wait);
    free(w->prof);
    memset(w, 0, sizeof *w);
}

json_t *whycsv_meta(void)
{
    json_t *o = json_object();
    for (int i = 0; i < 4; i++) {
        json_t *cols = json_object();
        for (size_t c = 0; c < kinds[i].ncols; c++)
            json_object_set_new(cols, kinds[i].cols[c].name, json_string(kinds[i].cols[c].doc));
        json_object_set_new(o, kinds[i].file, cols);
    }
    return o;
}

void whycsv_level_name(char *buf, size_t len, const struct why_key *k)
{
    char v[sizeof k->variant];
    size_t i = 0;
    for (; k->variant[i] && i + 1 < sizeof v; i++) {
        char ch = k->variant[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '.' || ch == '_' || ch == '+' || ch == '-';
        v[i] = ok ? ch : '_';
    }
    v[i] = '\0';
    snprintf(buf, len, "%s-c%d-t%d-r%d", v[0] ? v : "_", k->cpus, k->threads, k->repeat);
}
