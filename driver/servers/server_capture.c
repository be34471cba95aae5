/*
 * server_capture.c - one of the engine's programs run for what it prints:
 * the server binary asked which settings it knows (postgres
 * --describe-config, mariadbd --verbose --help), for each engine's
 * list_settings.
 *
 * The one idea: the program starts nothing and answers in a few tens of
 * ms, so it is run plainly (fork, exec, read its stdout and stderr to the
 * end, wait; stdin from /dev/null), not through spawn.c's sessions and
 * users. The engines call down into this file; it calls no other file of
 * the room.
 *
 * It keeps what the program prints only up to 16 MiB, and still reads the
 * rest, so the program never blocks on a full pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "servers/server_engine.h"
#include "core/util.h"

int server_capture(const char *path, char *const argv[], struct sbuf *out)
{
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        execv(path, argv);
        _exit(127);
    }
    close(fd[1]);
    sbuf_read_fd(out, fd[0], 16u << 20);
    close(fd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}
