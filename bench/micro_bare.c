/*
 * micro_bare.c - the yardstick for bench/micro.sh: one single-purpose loop
 * (getppid, or a one-byte pipe write+read) with none of the harness around it,
 * timed the way the harness times: a child pinned to one CPU counts into a
 * cache-line slot of shared memory, the parent reads the monotonic clock and
 * the counter after a warmup and then every interval, and prints the median
 * ops/s. It must never do anything in the loop the harness does not.
 *
 * usage: micro_bare getppid|pipe CPU WARMUP_S SAMPLES INTERVAL_S
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct slot {
    alignas(64) volatile uint64_t count;
};

static uint64_t now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pause_until(uint64_t t)
{
    struct timespec ts = {(time_t)(t / 1000000000ull), (long)(t % 1000000000ull)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
        ;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 6)
        return 2;
    int pipe_test = strcmp(argv[1], "pipe") == 0, cpu = atoi(argv[2]), n = atoi(argv[4]);
    double warm = atof(argv[3]), iv = atof(argv[5]);
    struct slot *s =
        mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED || n < 1 || n > 1000)
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (sched_setaffinity(0, sizeof set, &set) < 0)
            _exit(1);
        if (pipe_test) {
            int fd[2];
            char c = 0;
            if (pipe(fd) < 0)
                _exit(1);
            for (;;) {
                if (write(fd[1], &c, 1) != 1 || read(fd[0], &c, 1) != 1)
                    _exit(1);
                s->count++;
            }
        }
        for (;;) {
            if (syscall(SYS_getppid) < 0)
                _exit(1);
            s->count++;
        }
    }
    double v[1000];
    pause_until(now() + (uint64_t)(warm * 1e9));
    uint64_t c0 = s->count, t0 = now();
    for (int i = 0; i < n; i++) {
        pause_until(t0 + (uint64_t)(iv * 1e9));
        uint64_t c1 = s->count, t1 = now();
        v[i] = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
        c0 = c1;
        t0 = t1;
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    qsort(v, (size_t)n, sizeof *v, cmp);
    printf("%.1f\n", n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
    return 0;
}
