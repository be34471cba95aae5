/*
 * micro/harness.c - runs one microbenchmark point: N tasks of one test, as
 * processes or as threads, and samples how much work they do.
 *
 * The idea: every point lives in child processes the harness owns. In process
 * mode each task is a child; in thread mode one child hosts N threads. Each
 * task counts into its own cache-line slot of a MAP_SHARED page, waits for one
 * start flag, and loops until killed. The parent only reads counters and the
 * monotonic clock, so sampling never assumes how long a sleep lasted, and
 * ending a point is always the same: SIGKILL to the point's process group,
 * reap it, remove the scratch dir.
 *
 * It must never leave a task running or a file behind, even on SIGINT or
 * SIGTERM, and must never touch the counters from the parent.
 */
#include "micro/micro.h"

#include "core/cpulist.h"
#include "core/procfs.h"
#include "core/signals.h"
#include "stats/stats.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SETUP_TIMEOUT_NS (60ull * 1000000000ull)

struct slot {
    alignas(64) volatile uint64_t count; /* the only thing a task writes while running */
    alignas(64) _Atomic int failed;
    char err[MICRO_ERRLEN];
};

struct shared {
    alignas(64) _Atomic int start;
    _Atomic int ready;
    struct slot slot[];
};

/* One task's context, handed to the thread or child that runs it. */
struct task_arg {
    const struct micro_test *test;
    struct shared *sh;
    struct micro_task t;
};

void micro_config_default(struct micro_config *c)
{
    memset(c, 0, sizeof *c);
    c->warmup = 0.2;
    c->interval = 0.2;
    c->samples = 5;
    c->repeats = 1;
}

int micro_cpus(const char *list, int **ids, char *err, size_t errlen)
{
    struct cpulist want, online;
    char why[256];
    int n = -1;
    *ids = NULL;
    if (cpulist_init(&want) < 0 || cpulist_init(&online) < 0) {
        cpulist_free(&want);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (!list || !*list) {
        if (sched_getaffinity(0, want.size, want.set) < 0)
            snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
        else
            n = cpulist_ids(&want, ids);
        goto out;
    }
    if (cpulist_parse(&want, list, 0, why, sizeof why) <= 0) {
        snprintf(err, errlen, "--cpus: %s", why);
        goto out;
    }
    if (cpulist_online(&online, why, sizeof why) > 0)
        for (int c = cpulist_next(&want, 0); c >= 0; c = cpulist_next(&want, c + 1))
            if (!cpulist_has(&online, c)) {
                char on[256];
                cpulist_format(&online, on, sizeof on);
                snprintf(err, errlen, "--cpus: CPU %d is not online (online: %s)", c, on);
                goto out;
            }
    n = cpulist_ids(&want, ids);
out:
    cpulist_free(&want);
    cpulist_free(&online);
    return n;
}

int micro_task_cpu(const int *ids, int n, int i)
{
    return n > 0 && i >= 0 ? ids[i % n] : -1;
}

int micro_fail(struct micro_task *t, const char *call)
{
    snprintf(t->err, sizeof t->err, "%s: %s", call, strerror(errno));
    return -1;
}

int micro_na(struct micro_task *t, const char *why)
{
    snprintf(t->err, sizeof t->err, "N/A: %s", why);
    return -1;
}

/* A child of a point: dies with its parent, and takes the default action
 * for the signals the parent catches (a crash kills the task, which the
 * parent reports, whatever handler the embedding program had). */
int micro_child_init(pid_t parent)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        signal(sigs[i], SIG_DFL);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
        return -1;
    return 0;
}

struct helper_arg {
    void (*fn)(void *);
    void *arg;
};

static void *helper_thread(void *p)
{
    struct helper_arg h = *(struct helper_arg *)p;
    free(p);
    h.fn(h.arg);
    return NULL;
}

int micro_helper(struct micro_task *t, void (*fn)(void *), void *arg)
{
    if (t->threaded) {
        struct helper_arg *h = xmalloc(sizeof *h);
        h->fn = fn;
        h->arg = arg;
        pthread_t th;
        int e = pthread_create(&th, NULL, helper_thread, h);
        if (e) {
            free(h);
            errno = e;
            return micro_fail(t, "pthread_create");
        }
        pthread_detach(th);
        return 0;
    }
    /* A sibling of the task, not its child (CLONE_PARENT): the parent
     * reaps it with the point's process group, and nothing is orphaned.
     * A raw clone leaves glibc's thread state stale, so fn may only make
     * plain system calls. */
    pid_t ctl = getppid();
    long pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, NULL, NULL, NULL, NULL);
    if (pid < 0)
        return micro_fail(t, "clone");
    if (pid == 0) {
        if (micro_child_init(ctl) == 0)
            fn(arg);
        _exit(0);
    }
    return 0;
}

static void *task_main(void *p)
{
    struct task_arg *a = p;
    struct slot *s = &a->sh->slot[a->t.id];
    int rc;
    /* A mask just big enough for this CPU, on the stack: no ceiling (ids past
     * CPU_SETSIZE are real on big hosts) and no malloc in a forked child. */
    size_t words = (size_t)a->t.cpu / (8 * sizeof(unsigned long)) + 1;
    unsigned long mask[words];
    memset(mask, 0, sizeof mask);
    CPU_SET_S((size_t)a->t.cpu, sizeof mask, (cpu_set_t *)mask);
    if (sched_setaffinity(0, sizeof mask, (cpu_set_t *)mask) < 0)
        rc = micro_fail(&a->t, "sched_setaffinity");
    else
        rc = a->test->setup ? a->test->setup(&a->t) : 0;
    if (rc == 0) {
        atomic_fetch_add(&a->sh->ready, 1);
        while (!atomic_load_explicit(&a->sh->start, memory_order_acquire))
            sched_yield();
        a->test->loop(&a->t, &s->count);
    }
    if (!a->t.err[0])
        snprintf(a->t.err, sizeof a->t.err, "%s: loop returned without an error", a->test->name);
    memcpy(s->err, a->t.err, sizeof s->err);
    atomic_store(&s->failed, 1);
    return NULL;
}

/* Thread mode: this child hosts all tasks as threads, then waits to be killed. */
static void thread_host(struct task_arg *args, int n)
{
    for (int i = 0; i < n; i++) {
        pthread_t th;
        int e = pthread_create(&th, NULL, task_main, &args[i]);
        if (e) {
            errno = e;
            micro_fail(&args[i].t, "pthread_create");
            memcpy(args[i].sh->slot[i].err, args[i].t.err, MICRO_ERRLEN);
            atomic_store(&args[i].sh->slot[i].failed, 1);
        }
    }
    for (;;)
        pause();
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)flag;
    (void)f;
    remove(path);
    return 0;
}

void micro_rmtree(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *micro_fs_type(const char *dir)
{
    struct statfs s;
    if (statfs(dir, &s) < 0)
        return "unknown";
    switch ((unsigned long)s.f_type) {
    case 0xEF53:
        return "ext4";
    case 0x01021994:
        return "tmpfs";
    case 0x58465342:
        return "xfs";
    case 0x9123683E:
        return "btrfs";
    case 0x794c7630:
        return "overlay";
    case 0x2fc12fc1:
        return "zfs";
    case 0x6969:
        return "nfs";
    case 0xF2F52010:
        return "f2fs";
    default:
        return "other";
    }
}

const char *micro_scratch_base(const char *dir)
{
    if (dir && *dir)
        return dir;
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

/* Sleep until deadline (monotonic ns), or until a stop signal arrives. */
static void sleep_until(uint64_t deadline)
{
    struct timespec ts = {(time_t)(deadline / 1000000000ull), (long)(deadline % 1000000000ull)};
    while (!signals_caught() && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

static uint64_t total(const struct shared *sh, int n)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += sh->slot[i].count;
    return sum;
}

/* The first failure among the tasks, or a task that died, into err. */
static int check_tasks(struct shared *sh, int n, pid_t *pids, int npids, char *err)
{
    for (int i = 0; i < n; i++)
        if (atomic_load(&sh->slot[i].failed)) {
            memcpy(err, sh->slot[i].err, MICRO_ERRLEN);
            err[MICRO_ERRLEN - 1] = '\0';
            return -1;
        }
    for (int i = 0; i < npids; i++) {
        int st;
        if (pids[i] > 0 && waitpid(pids[i], &st, WNOHANG) == pids[i]) {
            pids[i] = -1;
            snprintf(err, MICRO_ERRLEN, "task died: %s",
                     WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "exited");
            return -1;
        }
    }
    return 0;
}

/* One repeat: fork, release, warm up, sample into p->samples. */
static int run_once(const struct micro_test *test, char mode, int tasks, const int *cpus, int ncpus,
                    const struct micro_config *c, const char *dir, struct micro_point *p)
{
    size_t len = sizeof(struct shared) + (size_t)tasks * sizeof(struct slot);
    struct shared *sh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        snprintf(p->error, sizeof p->error, "mmap: %s", strerror(errno));
        return 0;
    }
    struct task_arg *args = xcalloc((size_t)tasks, sizeof *args);
    pid_t *pids = xcalloc((size_t)tasks, sizeof *pids);
    int npids = 0;
    pid_t pgid = 0; /* the point's process group, once the first task exists */
    for (int i = 0; i < tasks; i++) {
        args[i].test = test;
        args[i].sh = sh;
        args[i].t = (struct micro_task){.id = i,
                                        .ntasks = tasks,
                                        .cpu = micro_task_cpu(cpus, ncpus, i),
                                        .threaded = mode == 't',
                                        .dir = dir};
    }
    struct micro_task prep = {
        .id = -1, .ntasks = tasks, .cpu = -1, .threaded = mode == 't', .dir = dir};
    if (test->prepare && test->prepare(&prep) < 0) {
        memcpy(p->error, prep.err, sizeof p->error);
        goto out;
    }
    /* All of a point's processes (tasks, thread host, helpers) share one
     * process group, led by the first task: one kill ends them all. */
    pid_t parent = getpid();
    fflush(NULL);
    for (int i = 0; i < (mode == 't' ? 1 : tasks); i++) {
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(p->error, sizeof p->error, "fork: %s", strerror(errno));
            goto out;
        }
        if (pid == 0) {
            setpgid(0, pgid);
            if (micro_child_init(parent) < 0)
                _exit(1);
            if (mode == 't')
                thread_host(args, tasks);
            task_main(&args[i]);
            _exit(0);
        }
        setpgid(pid, pgid); /* also here, so the group exists before we go on */
        pgid = pgid ? pgid : pid;
        pids[npids++] = pid;
    }
    uint64_t t0 = now_ns();
    while (atomic_load(&sh->ready) < tasks && !signals_caught()) {
        if (check_tasks(sh, tasks, pids, npids, p->error) < 0)
            goto out;
        if (now_ns() - t0 > SETUP_TIMEOUT_NS) {
            snprintf(p->error, sizeof p->error, "setup: timed out");
            goto out;
        }
        sleep_until(now_ns() + 1000000);
    }
    atomic_store_explicit(&sh->start, 1, memory_order_release);
    uint64_t t = now_ns();
    sleep_until(t + (uint64_t)(c->warmup * 1e9));
    uint64_t prev_n = total(sh, tasks), prev_t = now_ns();
    /* will-it-scale's idle figure: the whole machine's idle share over the
     * sampled time (not the warmup), read from /proc/stat around it */
    unsigned long long idle0 = 0, total0 = 0, idle1, total1;
    int have_jiffies = procfs_cpu_jiffies(&idle0, &total0) == 0;
    for (int s = 0; s < c->samples && !signals_caught(); s++) {
        sleep_until(prev_t + (uint64_t)(c->interval * 1e9));
        uint64_t n = total(sh, tasks), tn = now_ns();
        if (signals_caught())
            break;
        if (check_tasks(sh, tasks, pids, npids, p->error) < 0)
            goto out;
        p->samples[p->nsamples++] = (double)(n - prev_n) * 1e9 / (double)(tn - prev_t);
        p->iterations += n - prev_n;
        p->elapsed_s += (double)(tn - prev_t) / 1e9;
        prev_n = n;
        prev_t = tn;
    }
    if (have_jiffies && p->nsamples > 0 && procfs_cpu_jiffies(&idle1, &total1) == 0 &&
        total1 >= total0 && idle1 >= idle0) {
        p->idle_jiffies += idle1 - idle0;
        p->total_jiffies += total1 - total0;
    }
out:
    if (pgid > 0) {
        kill(-pgid, SIGKILL);
        while (waitpid(-pgid, NULL, 0) > 0 || errno == EINTR)
            ;
    }
    free(pids);
    free(args);
    munmap(sh, len);
    return signals_caught() ? -1 : 0;
}

static void summarize(struct micro_point *p)
{
    struct stats_summary s;
    if (p->nsamples == 0)
        return;
    stats_summarize(p->samples, (size_t)p->nsamples, &s);
    p->ops = s.median;
    p->min = s.min;
    p->max = s.max;
    p->cv = s.mean > 0 ? 100 * s.sd / s.mean : 0;
    if (p->total_jiffies > 0)
        p->idle = 100.0 * (double)p->idle_jiffies / (double)p->total_jiffies;
}

int micro_run_point(const struct micro_test *test, char mode, int tasks,
                    const struct micro_config *c, struct micro_point *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->test, sizeof p->test, "%s", test->name);
    p->mode = mode;
    p->tasks = tasks;
    int *cpus = NULL;
    int ncpus = micro_cpus(c->cpus, &cpus, p->error, sizeof p->error);
    if (ncpus <= 0) {
        if (ncpus == 0)
            snprintf(p->error, sizeof p->error, "no CPUs allowed");
        free(cpus);
        return 0;
    }
    p->cpus = ncpus;
    p->samples = xcalloc((size_t)(c->samples * c->repeats), sizeof *p->samples);
    const char *base = micro_scratch_base(c->dir);
    snprintf(p->fs_type, sizeof p->fs_type, "%s", micro_fs_type(base));

    /* Idempotent: the verb installed it already; the sweep and tests may not have. */
    signals_install();
    int rc = signals_caught() ? -1 : 0;
    for (int r = 0; r < c->repeats && !p->error[0] && rc == 0; r++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/dbscale-micro.XXXXXX", base);
        if (!mkdtemp(dir)) {
            snprintf(p->error, sizeof p->error, "mkdtemp %s: %s", base, strerror(errno));
            break;
        }
        rc = run_once(test, mode, tasks, cpus, ncpus, c, dir, p);
        micro_rmtree(dir);
    }
    free(cpus);
    if (p->error[0])
        p->nsamples = 0;
    summarize(p);
    return rc;
}

void micro_point_free(struct micro_point *p)
{
    free(p->samples);
    p->samples = NULL;
}

void micro_path(const struct micro_task *t, char *buf, size_t len, const char *name)
{
    char n[256];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    snprintf(n, sizeof n, name, t->id);
#pragma GCC diagnostic pop
    snprintf(buf, len, "%s/%s", t->dir, n);
}

int micro_open(struct micro_task *t, const char *name, int flags)
{
    char path[512];
    micro_path(t, path, sizeof path, name);
    int fd = open(path, flags | O_CLOEXEC, 0644);
    if (fd < 0)
        return micro_fail(t, "open");
    return fd;
}

int micro_file(struct micro_task *t, const char *name, size_t size)
{
    static const char zero[65536];
    int fd = micro_open(t, name, O_RDWR | O_CREAT | O_TRUNC);
    while (fd >= 0 && size > 0) {
        ssize_t w = write(fd, zero, size < sizeof zero ? size : sizeof zero);
        if (w < 0) {
            micro_fail(t, "write");
            close(fd);
            return -1;
        }
        size -= (size_t)w;
    }
    return fd;
}

int micro_make(struct micro_task *t, const char *name, size_t size)
{
    int fd = micro_file(t, name, size);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}
