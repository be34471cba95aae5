/*
 * fdwait.c - the poll and select loops behind poll1/2 and select1/2/3. The
 * pipes stay idle so every call measures only the kernel's walk over the
 * fds; the pipe ends are left open for the task's life (the harness reaps
 * the task, which closes them).
 */
#include "micro/fdwait.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/select.h>
#include <unistd.h>

int micro_poll_loop(struct micro_task *t, volatile uint64_t *it, int nfds)
{
    struct pollfd *pfd = calloc((size_t)nfds, sizeof *pfd);
    if (!pfd)
        return micro_fail(t, "calloc");
    for (int i = 0; i < nfds; i++) {
        int p[2];
        if (pipe(p) < 0) {
            free(pfd);
            return micro_fail(t, "pipe");
        }
        pfd[i] = (struct pollfd){.fd = p[0], .events = POLLIN};
    }
    for (;;) {
        if (poll(pfd, (nfds_t)nfds, 0) < 0) {
            free(pfd);
            return micro_fail(t, "poll");
        }
        (*it)++;
    }
}

int micro_select_loop(struct micro_task *t, volatile uint64_t *it, int nfds)
{
    int max = -1;
    fd_set want;
    FD_ZERO(&want);
    for (int i = 0; i < nfds; i++) {
        int p[2];
        if (pipe(p) < 0)
            return micro_fail(t, "pipe");
        if (p[0] >= FD_SETSIZE)
            return micro_na(t, "fd number above FD_SETSIZE (too many tasks for select)");
        FD_SET(p[0], &want);
        max = p[0] > max ? p[0] : max;
    }
    for (;;) {
        fd_set rd = want; /* select overwrites its set */
        struct timeval tv = {0, 0};
        if (select(max + 1, &rd, NULL, NULL, &tv) < 0)
            return micro_fail(t, "select");
        (*it)++;
    }
}
