/*
 * plot_gnuplot.c - running gnuplot for `dbscale plot`: one child per script
 * and format, in the out directory, its stderr captured.
 *
 * The one idea: gnuplot's own words are the diagnosis. Its exit code alone
 * misses errors it reports and goes on from, so any "error" on its stderr
 * fails the graph with the whole message; anything else it says comes back
 * as a warning for the verb to show.
 *
 * Never print here, and never pass data on gnuplot's command line: only
 * the validated format name.
 */
#include "plot/plot_gnuplot.h"
#include "core/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int plot_gp_run(const char *dir, const char *script, const char *format, struct sbuf *warn,
                char *err, size_t errlen)
{
    int fd[2];
    if (pipe(fd) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    char fmt[64];
    snprintf(fmt, sizeof fmt, "fmt=\"%s\"", format);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(fd[0]), close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(fd[1], 2);
        close(fd[0]);
        int dfd = dir_open_nofollow(dir); /* gnuplot writes its images here: no link */
        if (dfd < 0 || fchdir(dfd) < 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", "-e", fmt, script, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    struct sbuf msg = {0};
    sbuf_read_fd(&msg, fd[0], 16384);
    close(fd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    int rc = 0;
    if (code == 127)
        snprintf(err, errlen, "gnuplot not found (install it: apt-get install gnuplot-nox)");
    else if (code == 126)
        snprintf(err, errlen, "cannot enter %s", dir);
    else if (code != 0 || (msg.s && strcasestr(msg.s, "error")))
        snprintf(err, errlen, "gnuplot failed on %s/%s (exit %d):\n%s", dir, script, code,
                 msg.s ? msg.s : "");
    else if (msg.s)
        sbuf_printf(warn, "gnuplot on %s/%s said:\n%s", dir, script, msg.s);
    if (code != 0 || (msg.s && strcasestr(msg.s, "error")))
        rc = -1;
    sbuf_free(&msg);
    return rc;
}
