/*
 * util.c - shared helpers. The one idea worth stating: results are never
 * written in place. write_file_atomic() writes a temp file beside the target,
 * fsyncs it and renames it over, so a crash or a full disk leaves either the
 * old file or the new one, never half of one. It calls nothing else of
 * core/: the whole-file read (sbuf_read_file) needs safefile's opener, so
 * it lives in safefile.c, above this file.
 */
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double now_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static _Noreturn void oom(size_t n)
{
    fprintf(stderr, "dbscale: out of memory (%zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p)
        oom(n * sz);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        oom(strlen(s));
    return p;
}

void warnx_(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("dbscale: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("dbscale: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
    /* The temp name is made by mkostemp (O_EXCL, a name nobody can predict):
     * a fixed PATH.tmp.PID opened with O_CREAT|O_TRUNC would follow a symlink
     * planted there and overwrite whatever it points at. */
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path) >= (int)sizeof tmp)
        return -ENAMETOOLONG;
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (fchmod(fd, 0644) < 0) { /* mkostemp makes it 0600; results are for reading */
        int e = errno;
        close(fd);
        unlink(tmp);
        return -e;
    }
    const char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            unlink(tmp);
            return -e;
        }
        p += w;
        left -= (size_t)w;
    }
    if (fsync(fd) < 0 || close(fd) < 0) {
        int e = errno;
        unlink(tmp);
        return -e;
    }
    if (rename(tmp, path) < 0) {
        int e = errno;
        unlink(tmp);
        return -e;
    }
    return 0;
}

void sbuf_add(struct sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->s = xrealloc(b->s, cap);
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        sbuf_add(b, small, (size_t)n);
        return;
    }
    char *big = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sbuf_add(b, big, (size_t)n);
    free(big);
}

void sbuf_free(struct sbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

void sbuf_json(struct sbuf *b, const char *s)
{
    sbuf_add(b, "\"", 1);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            sbuf_printf(b, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            sbuf_printf(b, "\\u%04x", *s);
        else
            sbuf_add(b, s, 1);
    }
    sbuf_add(b, "\"", 1);
}

int mkdir_p(const char *path, int mode)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return -ENAMETOOLONG;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, (mode_t)mode) < 0 && errno != EEXIST)
            return -errno;
        *p = '/';
    }
    if (mkdir(buf, (mode_t)mode) < 0 && errno != EEXIST)
        return -errno;
    return 0;
}

static int has_schemas(const char *dir)
{
    char p[PATH_MAX];
    struct stat st;
    if (snprintf(p, sizeof p, "%s/schemas", dir) >= (int)sizeof p)
        return 0;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Found once, then read by any thread (prepare and prewarm threads read
 * schemas at the same time): the search works in its own buffer, so no
 * thread ever sees a half-searched path. */
static char datadir_path[PATH_MAX];
static pthread_once_t datadir_once = PTHREAD_ONCE_INIT;

static void datadir_find(void)
{
    char dir[PATH_MAX];
    const char *env = getenv("DBSCALE_DATADIR");
    if (env && *env) {
        snprintf(datadir_path, sizeof datadir_path, "%s", env);
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        /* installed: PREFIX/bin/dbscale -> PREFIX/share/dbscale */
        if (snprintf(dir, sizeof dir, "%s/../share/dbscale", exe) < (int)sizeof dir &&
            has_schemas(dir)) {
            memcpy(datadir_path, dir, sizeof dir);
            return;
        }
        /* build tree: build/dbscale or build/asan/dbscale */
        for (int up = 1; up <= 3; up++) {
            char *s = strrchr(exe, '/');
            snprintf(dir, sizeof dir, "%s", exe);
            if (has_schemas(dir)) {
                memcpy(datadir_path, dir, sizeof dir);
                return;
            }
            if (!s)
                break;
            *s = '\0';
        }
    }
    snprintf(datadir_path, sizeof datadir_path, ".");
}

const char *datadir(void)
{
    pthread_once(&datadir_once, datadir_find);
    return datadir_path;
}
