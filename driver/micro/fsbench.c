/*
 * micro/fsbench.c - how fast a directory takes new files and gives them
 * back (files, pass, create time, remove time), measured to the millisecond;
 * `dbscale fs` (verbs/fs_verb.c) prints it, the sweep's baseline calls it.
 *
 * The idea: the workers are forked and parked on a pipe before the clock
 * starts, so a phase's time is only the creating (or removing) itself; each
 * worker reports the end of a phase with one byte on another pipe, and the
 * parent's blocking read of the last byte stops the clock.
 *
 * It must never leave a worker or a file behind: on an error or a signal the
 * workers are killed and reaped and the scratch directory removed. It never
 * prints: errors come back in the result.
 */
#include "micro/fsbench.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/benchcsv.h"
#include "micro/micro.h"
#include "core/signals.h"

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

double fs_rate(int files, double s)
{
    return s > 0 ? files / s : 0;
}

/* fs.csv's one owner is results/benchcsv.c; this only fills its row. */
void fs_csv_row(struct sbuf *b, const struct fs_config *c, const struct fs_result *r,
                const char *fs_type)
{
    struct fscsv_row row = {.files = r->files,
                            .pass = r->pass,
                            .tasks = c->tasks,
                            .cpus = 0,
                            .create_s = r->create_s,
                            .create_per_s = fs_rate(r->files, r->create_s),
                            .remove_s = r->remove_s,
                            .remove_per_s = fs_rate(r->files, r->remove_s),
                            .shared_dir = c->shared_dir,
                            .size = (long long)c->size,
                            .fsync = c->fsync};
    snprintf(row.error, sizeof row.error, "%s", r->error);
    snprintf(row.fs_type, sizeof row.fs_type, "%s", fs_type);
    fscsv_format(b, &row);
}
