/*
 * server_log.c - what a failed start says of the server's log (D/log: the
 * engine's tools and the daemon write there): its last lines, and above them
 * the first error line when the engine buried it under more output
 * (mariadb-install-db ends with a page of advice; the cause, an "[ERROR]" or
 * "ERROR:" line, sits at its top).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "servers/server_engine.h"

/* The first line of buf holding an engine's error mark, or NULL: MariaDB's
 * install-db ends its log with a page of advice, the cause sits above it. */
static const char *first_error_line(const char *buf)
{
    static const char *const marks[] = {"[ERROR]", "FATAL:", "ERROR:", NULL};
    const char *first = NULL;
    for (int i = 0; marks[i]; i++) {
        const char *m = strstr(buf, marks[i]);
        if (m && (!first || m < first))
            first = m;
    }
    while (first && first > buf && first[-1] != '\n')
        first--;
    return first;
}

void server_log_note(char *log, char *err, size_t errlen)
{
    size_t n = strlen(log);
    while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == ' '))
        log[--n] = '\0';
    char *p = log + n;
    for (int lines = 0; p > log; p--)
        if (p[-1] == '\n' && ++lines == 6)
            break;
    const char *e = first_error_line(log);
    size_t l = strlen(err);
    if (e && e < p && l + 16 < errlen) {
        snprintf(err + l, errlen - l, "; the server log says:\n%.*s\n...", (int)strcspn(e, "\n"),
                 e);
        l = strlen(err);
    }
    if (l + 16 < errlen)
        snprintf(err + l, errlen - l, "%s the server log ends:\n%s", e && e < p ? "" : ";", p);
}

void server_log_tail(const struct server *s, char *err, size_t errlen)
{
    char path[PATH_MAX + 8], buf[8192];
    if (server_fmt(path, sizeof path, "%s/log", s->dir) < 0)
        return;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    off_t end = lseek(fd, 0, SEEK_END);
    off_t from = end > (off_t)sizeof buf - 1 ? end - (off_t)sizeof buf + 1 : 0;
    ssize_t n = pread(fd, buf, sizeof buf - 1, from);
    close(fd);
    if (n <= 0)
        return;
    buf[n] = '\0';
    server_log_note(buf, err, errlen);
}
