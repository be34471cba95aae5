/*
 * micro/fsbench.c - `dbscale fs`: how fast a directory takes new files and
 * gives them back, the fsbench table (files, pass, create time, files/s,
 * remove time, files/s) measured to the millisecond.
 *
 * The idea: the workers are forked and parked on a pipe before the clock
 * starts, so a phase's time is only the creating (or removing) itself; each
 * worker reports the end of a phase with one byte on another pipe, and the
 * parent's blocking read of the last byte stops the clock.
 *
 * It must never leave a worker or a file behind: on an error or a signal the
 * workers are killed and reaped and the scratch directory removed.
 */
#include "fsbench.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "micro.h"
#include "options.h"
#include "signals.h"
#include "verbs.h"

#define MAX_COUNTS 64

void fs_hms(double s, char *buf, size_t len)
{
    long ms = (long)(s * 1000 + 0.5);
    snprintf(buf, len, "%02ld:%02ld:%02ld.%03ld", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60,
             ms % 1000);
}

/* Worker i's directory and its share [lo, hi) of the files. */
static void share(const struct fs_config *c, const char *root, int i, int files, char *dir,
                  size_t len, int *lo, int *hi)
{
    if (c->shared_dir)
        snprintf(dir, len, "%s", root);
    else
        snprintf(dir, len, "%s/t%d", root, i);
    *lo = (int)((long long)files * i / c->tasks);
    *hi = (int)((long long)files * (i + 1) / c->tasks);
}

static int create_files(const struct fs_config *c, const char *dir, int lo, int hi, char *err,
                        size_t errlen)
{
    char path[4300];
    char *buf = c->size ? xcalloc(1, c->size < 65536 ? c->size : 65536) : NULL;
    for (int n = lo; n < hi; n++) {
        snprintf(path, sizeof path, "%s/f%07d", dir, n);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0)
            return snprintf(err, errlen, "open: %s", strerror(errno)), -1;
        for (size_t left = c->size; left > 0;) {
            ssize_t w = write(fd, buf, left < 65536 ? left : 65536);
            if (w < 0)
                return snprintf(err, errlen, "write: %s", strerror(errno)), -1;
            left -= (size_t)w;
        }
        if (c->fsync && fsync(fd) < 0)
            return snprintf(err, errlen, "fsync: %s", strerror(errno)), -1;
        if (close(fd) < 0)
            return snprintf(err, errlen, "close: %s", strerror(errno)), -1;
    }
    free(buf);
    return 0;
}

static int remove_files(const char *dir, int lo, int hi, char *err, size_t errlen)
{
    char path[4300];
    for (int n = lo; n < hi; n++) {
        snprintf(path, sizeof path, "%s/f%07d", dir, n);
        if (unlink(path) < 0)
            return snprintf(err, errlen, "unlink: %s", strerror(errno)), -1;
    }
    return 0;
}

/* A worker: wait for "go", create, report; wait for "go", remove, report. */
static void worker(const struct fs_config *c, const char *root, int i, int files, int go, int done,
                   char *err, size_t errlen)
{
    char dir[4200], b;
    int lo, hi;
    share(c, root, i, files, dir, sizeof dir, &lo, &hi);
    if (read(go, &b, 1) != 1)
        _exit(1);
    b = create_files(c, dir, lo, hi, err, errlen) < 0 ? 'E' : 'D';
    if (write(done, &b, 1) != 1 || b == 'E' || read(go, &b, 1) != 1)
        _exit(1);
    b = remove_files(dir, lo, hi, err, errlen) < 0 ? 'E' : 'D';
    if (write(done, &b, 1) != 1)
        _exit(1);
    _exit(0);
}

/* Release the workers and time until each reported; 0, or -1 with r->error. */
static int phase(int tasks, int go, int done, double *secs, char *shm, struct fs_result *r)
{
    char b[1024];
    memset(b, 'G', sizeof b);
    uint64_t t0 = now_ns();
    for (int left = tasks; left > 0;) {
        ssize_t w = write(go, b, (size_t)(left < 1024 ? left : 1024));
        if (w < 0)
            return snprintf(r->error, sizeof r->error, "write: %s", strerror(errno)), -1;
        left -= (int)w;
    }
    int failed = -1;
    for (int got = 0; got < tasks;) {
        ssize_t n = read(done, b, 1);
        if (n <= 0) {
            snprintf(r->error, sizeof r->error, "%s",
                     signals_caught() ? "interrupted" : "a worker died");
            return -1;
        }
        if (b[0] == 'E')
            failed = 1;
        got++;
    }
    *secs = (double)(now_ns() - t0) / 1e9;
    if (failed > 0) {
        for (int i = 0; i < tasks && !r->error[0]; i++)
            snprintf(r->error, sizeof r->error, "%s", shm + 160 * i);
        return -1;
    }
    return 0;
}

int fs_run_pass(const struct fs_config *c, int files, int pass, struct fs_result *r)
{
    memset(r, 0, sizeof *r);
    r->files = files;
    r->pass = pass;
    signals_install(); /* idempotent; a signal ends the pass and is kept for the verb */
    char root[4096];
    snprintf(root, sizeof root, "%s/dbscale-fs.XXXXXX", micro_scratch_base(c->dir));
    if (!mkdtemp(root)) {
        snprintf(r->error, sizeof r->error, "mkdtemp: %s", strerror(errno));
        goto restore;
    }
    for (int i = 0; !c->shared_dir && i < c->tasks; i++) {
        char d[4200];
        snprintf(d, sizeof d, "%s/t%d", root, i);
        if (mkdir(d, 0755) < 0) {
            snprintf(r->error, sizeof r->error, "mkdir: %s", strerror(errno));
            micro_rmtree(root);
            goto restore;
        }
    }
    size_t shmlen = 160 * (size_t)c->tasks;
    char *shm = mmap(NULL, shmlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int go[2] = {-1, -1}, done[2] = {-1, -1};
    pid_t *pids = xcalloc((size_t)c->tasks, sizeof *pids);
    int n = 0;
    if (shm == MAP_FAILED || pipe(go) < 0 || pipe(done) < 0) {
        snprintf(r->error, sizeof r->error, "pipe/mmap: %s", strerror(errno));
        goto out;
    }
    pid_t parent = getpid();
    fflush(NULL);
    for (; n < c->tasks; n++) {
        pids[n] = fork();
        if (pids[n] < 0) {
            snprintf(r->error, sizeof r->error, "fork: %s", strerror(errno));
            goto out;
        }
        if (pids[n] == 0) {
            if (micro_child_init(parent) < 0)
                _exit(1);
            close(go[1]);
            close(done[0]);
            worker(c, root, n, files, go[0], done[1], shm + 160 * n, 160);
        }
    }
    close(go[0]);
    close(done[1]);
    go[0] = done[1] = -1;
    if (phase(c->tasks, go[1], done[0], &r->create_s, shm, r) < 0)
        goto out;
    if (c->after_create)
        c->after_create(root, files, c->hook_arg);
    phase(c->tasks, go[1], done[0], &r->remove_s, shm, r);
out:
    for (int i = 0; i < n; i++)
        kill(pids[i], SIGKILL);
    for (int i = 0; i < n; i++)
        while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
            ;
    for (int i = 0; i < 2; i++) {
        if (go[i] >= 0)
            close(go[i]);
        if (done[i] >= 0)
            close(done[i]);
    }
    if (shm != MAP_FAILED)
        munmap(shm, shmlen);
    free(pids);
    micro_rmtree(root);
restore:
    return signals_caught() ? -1 : 0;
}

static const struct optdef fs_opts[] = {
    {"config", OPT_STR, NULL, "read options from this INI file first"},
    {"files", OPT_STR, "100,1000,10000,50000", "file counts, a list/ranges as in the sweep"},
    {"passes", OPT_INT, "3", "passes per file count", NULL, 1, 1000},
    {"dir", OPT_STR, NULL, "where the scratch dir goes (default: $TMPDIR or /tmp)"},
    {"size", OPT_INT, "0", "bytes written to each file", NULL, 0, 1 << 30},
    {"fsync", OPT_BOOL, "off", "fsync each file before closing it"},
    {"tasks", OPT_INT, "1", "processes splitting the files", NULL, 1, 1024},
    {"shared-dir", OPT_BOOL, "on", "all tasks in one directory (off: one directory each)"},
    {"output", OPT_CHOICE, "table", "stdout format", "table|csv"},
    {"out", OPT_STR, NULL, "also write DIR/fs.csv (atomically)"},
};

#define FS_CSV_HEADER                                                                              \
    "files,pass,create_s,create_files_per_s,remove_s,remove_files_per_s,tasks,shared_dir,size,"    \
    "fsync,fs_type,error"

static double rate(int files, double s)
{
    return s > 0 ? files / s : 0;
}

static void table_header(const struct fs_config *c, const char *fs_type)
{
    struct utsname u;
    char host[256] = "";
    uname(&u);
    gethostname(host, sizeof host - 1);
    printf("Statistics for %s\n  %s %s %s, %s on %s, %zu bytes/file%s, %d task(s)%s\n\n", host,
           u.sysname, u.release, u.machine, micro_scratch_base(c->dir), fs_type, c->size,
           c->fsync ? ", fsync" : "", c->tasks,
           c->tasks > 1 ? (c->shared_dir ? " in one dir" : " in own dirs") : "");
    printf("No. of  Pass    Create         Files/      Remove         Files/\n"
           "Files   Number  Time           Second      Time           Second\n"
           "----------------------------------------------------------------\n");
}

static void table_row(const struct fs_result *r)
{
    char ct[32], rt[32];
    if (r->error[0]) {
        printf("%6d  %4d    N/A  %s\n", r->files, r->pass, r->error);
        return;
    }
    fs_hms(r->create_s, ct, sizeof ct);
    fs_hms(r->remove_s, rt, sizeof rt);
    printf("%6d  %4d    %s %11.2f   %s %11.2f\n", r->files, r->pass, ct,
           rate(r->files, r->create_s), rt, rate(r->files, r->remove_s));
}

static void csv_row(struct sbuf *b, const struct fs_config *c, const struct fs_result *r,
                    const char *fs_type)
{
    if (r->error[0])
        sbuf_printf(b, "%d,%d,,,,,", r->files, r->pass);
    else
        sbuf_printf(b, "%d,%d,%.6f,%.2f,%.6f,%.2f,", r->files, r->pass, r->create_s,
                    rate(r->files, r->create_s), r->remove_s, rate(r->files, r->remove_s));
    sbuf_printf(b, "%d,%d,%zu,%d,%s,", c->tasks, c->shared_dir, c->size, c->fsync, fs_type);
    for (const char *s = r->error; *s; s++)
        sbuf_add(b, strchr(",\"\n", *s) ? " " : s, 1);
    sbuf_add(b, "\n", 1);
}

int fs_main(int argc, char **argv)
{
    struct opts o;
    char err[1024], *pos[1];
    int npos;
    opts_init(&o, fs_opts, sizeof fs_opts / sizeof *fs_opts);
    int r = opts_parse_argv(&o, argc, argv, 1, pos, 0, &npos, err, sizeof err);
    if (r == 1) {
        printf("usage: dbscale fs [options]\n\n");
        opts_help(&o, stdout);
        opts_free(&o);
        return 0;
    }
    if (r < 0) {
        opts_free(&o);
        die(EXIT_USAGE, "fs: %s", err);
    }
    long long counts[MAX_COUNTS];
    int ncounts = parse_int_list(opts_str(&o, "files"), counts, MAX_COUNTS);
    for (int i = 0; i < ncounts; i++)
        if (counts[i] < 1 || counts[i] > 100000000)
            ncounts = -1;
    if (ncounts <= 0)
        die(EXIT_USAGE, "fs: --files: '%s' is not a list of file counts like 100,1000",
            opts_str(&o, "files"));
    struct fs_config c = {
        .dir = opts_str(&o, "dir"),
        .size = (size_t)opts_int(&o, "size"),
        .fsync = opts_bool(&o, "fsync"),
        .tasks = (int)opts_int(&o, "tasks"),
        .shared_dir = opts_bool(&o, "shared-dir"),
    };
    struct stat st;
    if (c.dir && (stat(c.dir, &st) < 0 || !S_ISDIR(st.st_mode)))
        die(EXIT_USAGE, "fs: --dir: '%s' is not a directory", c.dir);
    const char *fs_type = micro_fs_type(micro_scratch_base(c.dir));
    int table = strcmp(opts_str(&o, "output"), "table") == 0, passes = (int)opts_int(&o, "passes");
    struct sbuf csv = {0};
    sbuf_printf(&csv, "%s\n", FS_CSV_HEADER);
    if (table)
        table_header(&c, fs_type);
    else
        fputs(csv.s, stdout);
    int rc = 0;
    for (int i = 0; i < ncounts && rc == 0; i++)
        for (int p = 1; p <= passes && rc == 0; p++) {
            struct fs_result res;
            if (fs_run_pass(&c, (int)counts[i], p, &res) < 0) {
                warnx_("fs: interrupted by signal %d; workers killed, scratch removed",
                       signals_caught());
                rc = signals_exit_code();
                break;
            }
            size_t at = csv.len;
            csv_row(&csv, &c, &res, fs_type);
            if (table)
                table_row(&res);
            else
                fputs(csv.s + at, stdout);
            fflush(stdout);
            if (res.error[0])
                rc = EXIT_RUNTIME;
        }
    const char *out = opts_str(&o, "out");
    if (out && rc < 128) {
        char path[4096];
        int e = mkdir_p(out, 0755);
        snprintf(path, sizeof path, "%s/fs.csv", out);
        if (e == 0)
            e = write_file_atomic(path, csv.s, csv.len);
        if (e < 0) {
            warnx_("fs: cannot write %s: %s", path, strerror(-e));
            rc = EXIT_RUNTIME;
        }
    }
    sbuf_free(&csv);
    opts_free(&o);
    return rc;
}
