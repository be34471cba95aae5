/*
 * server_pid.c - is this pid a database server? The check behind sweep
 * --server-pid, which re-pins the process it is given and labels results
 * with the CPUs it had.
 *
 * The one idea: trust only what the kernel says about the pid. It is the
 * server if it holds a socket listening on the port the clients use (read
 * from /proc/PID/fd and /proc/net/tcp{,6}), or if its executable is one of
 * the engines' servers (/proc/PID/exe: postgres, mariadbd, mysqld).
 *
 * It must never accept text that is not a whole positive number, nor a pid
 * that does not live.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/procfs.h"
#include "servers/server_engine.h"
#include "core/util.h"

#define MAX_INODES 1024

/* Does pid hold a TCP socket in LISTEN on port? */
static int listens_on(pid_t pid, int port)
{
    unsigned long inodes[MAX_INODES];
    int n = procfs_socket_inodes(pid, inodes, MAX_INODES);
    static const char *const tables[] = {"/proc/net/tcp", "/proc/net/tcp6", NULL};
    int found = 0;
    for (int t = 0; tables[t] && !found && n; t++) {
        struct sbuf b = {0};
        if (sbuf_read_file(&b, tables[t]) == 0 && b.s) {
            for (const char *line = strchr(b.s, '\n'); line && *++line && !found;
                 line = strchr(line, '\n')) {
                char local[64];
                unsigned st = 0;
                unsigned long inode = 0;
                if (sscanf(line, " %*s %63s %*s %x %*s %*s %*s %*s %*s %lu", local, &st, &inode) !=
                    3)
                    continue;
                const char *colon = strchr(local, ':');
                if (st != 0x0A || !colon || strtol(colon + 1, NULL, 16) != port)
                    continue;
                for (int i = 0; i < n && !found; i++)
                    found = inodes[i] == inode;
            }
        }
        sbuf_free(&b);
    }
    return found;
}

/* Is pid's executable one of the engines' server programs? */
static int is_server_program(pid_t pid)
{
    char link[64], exe[PATH_MAX];
    snprintf(link, sizeof link, "/proc/%ld/exe", (long)pid);
    ssize_t l = readlink(link, exe, sizeof exe - 1);
    if (l <= 0)
        return 0;
    exe[l] = '\0';
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    for (int i = 0; server_engines[i]; i++)
        for (const char *const *p = server_engines[i]->procs; *p; p++)
            if (!strcmp(base, *p))
                return 1;
    return 0;
}

int server_check_pid(const char *text, int port, pid_t *out, char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    long v = text && *text >= '0' && *text <= '9' ? strtol(text, &end, 10) : -1;
    if (v <= 0 || errno || !end || *end || v > 4194304) {
        snprintf(err, errlen, "'%s' is not a process id (a whole number above 0)",
                 text ? text : "");
        return -1;
    }
    pid_t pid = (pid_t)v;
    if (!spawn_alive(pid)) {
        snprintf(err, errlen, "no process %ld is running", v);
        return -1;
    }
    if (!(port > 0 && listens_on(pid, port)) && !is_server_program(pid)) {
        char comm[64] = "?";
        spawn_proc_read(pid, "comm", comm, sizeof comm);
        comm[strcspn(comm, "\n")] = '\0';
        snprintf(err, errlen,
                 "process %ld (%s) is not the database server: it does not listen on port %d "
                 "and is not postgres, mariadbd or mysqld",
                 v, comm, port);
        return -1;
    }
    *out = pid;
    return 0;
}
