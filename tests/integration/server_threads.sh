#!/bin/sh
# server_start / server_stop called in-process from a multi-threaded program,
# as the demo and the sweep do: two servers started at once from two threads
# while other threads churn memory and hold fds open without O_CLOEXEC, with
# SIGINT/SIGTERM blocked and SIGCHLD at default. The servers must come up,
# take the generated password, inherit none of our fds, and stop promptly.
# Built from the object files next to the binary ($1): skipped without them.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
need_engine mysql
obj=$(dirname "$DBSCALE")/obj/driver
[ -f "$obj/servers/server.o" ] && [ -f "$obj/core/util.o" ] && [ -f "$obj/core/options.o" ] ||
    skip "no object files beside $DBSCALE"
need_tool cc build-essential
src=$(cd "$(dirname "$0")/../../driver" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dbscale-it-XXXXXX")
trap 'rm -rf "$work"' EXIT
cat >"$work/t.c" <<'C'
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <mysql.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "servers/server.h"
#include "core/util.h"

static atomic_int stop_churn;
static int leak_fd[2]; /* a pipe without O_CLOEXEC that no server may inherit */

static void *churn(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_churn)) {
        void *p = malloc(4096 + (size_t)(rand() % 65536));
        free(p);
        int fd = open("/dev/null", O_RDONLY); /* no O_CLOEXEC, on purpose */
        if (fd >= 0)
            close(fd);
    }
    return NULL;
}

struct job {
    enum server_engine e;
    const char *cpus;
    struct server s;
    char err[2048];
    int rc;
};

static int leaked(pid_t pid)
{
    char d[64], l[256], want[64];
    struct stat st;
    fstat(leak_fd[0], &st);
    snprintf(want, sizeof want, "pipe:[%lu]", (unsigned long)st.st_ino);
    snprintf(d, sizeof d, "/proc/%ld/fd", (long)pid);
    DIR *dir = opendir(d);
    struct dirent *e;
    int found = 0;
    while (dir && (e = readdir(dir))) {
        char p[400];
        snprintf(p, sizeof p, "%s/%s", d, e->d_name);
        ssize_t n = readlink(p, l, sizeof l - 1);
        if (n > 0) {
            l[n] = 0;
            found |= strcmp(l, want) == 0;
        }
    }
    if (dir)
        closedir(dir);
    return found;
}

/* Connect with the generated password; no server process holds our pipe. 0 ok. */
static int check(struct job *j)
{
    struct db_target t;
    server_target(&j->s, &t);
    if (j->e == SERVER_PGSQL) {
        char ci[512];
        snprintf(ci, sizeof ci, "host=%s port=%d user=%s password=%s dbname=%s", t.host, t.port,
                 t.user, t.password, t.db);
        PGconn *c = PQconnectdb(ci);
        int bad = PQstatus(c) != CONNECTION_OK;
        if (bad)
            fprintf(stderr, "pg connect: %s", PQerrorMessage(c));
        PQfinish(c);
        if (bad)
            return -1;
    } else {
        MYSQL *m = mysql_init(NULL);
        int bad = !mysql_real_connect(m, t.host, t.user, t.password, t.db, (unsigned)t.port, NULL, 0);
        if (bad)
            fprintf(stderr, "mysql connect: %s\n", mysql_error(m));
        mysql_close(m);
        if (bad)
            return -1;
    }
    pid_t pids[64];
    int n = server_pids(&j->s, pids, 64);
    if (n < 1 || (j->e == SERVER_PGSQL && n < 3)) {
        fprintf(stderr, "%s: server_pids found %d\n", server_engine_name(j->e), n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (leaked(pids[i])) {
            fprintf(stderr, "%s pid %ld inherited our fd\n", server_engine_name(j->e),
                    (long)pids[i]);
            return -1;
        }
    printf("%s: %d processes\n", server_engine_name(j->e), n);
    return 0;
}

static void *run(void *arg)
{
    struct job *j = arg;
    j->rc = 1;
    if (server_start(&j->s, j->e, NULL, 0, j->cpus, "max_connections=50", j->err, sizeof j->err)) {
        fprintf(stderr, "start %s: %s\n", server_engine_name(j->e), j->err);
        return NULL;
    }
    int ok = check(j) == 0;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", j->s.dir);
    uint64_t t0 = now_ns();
    if (server_stop(&j->s, j->err, sizeof j->err)) {
        fprintf(stderr, "stop: %s\n", j->err);
        return NULL;
    }
    double secs = (now_ns() - t0) / 1e9;
    /* a hang bound (a stop takes well under a second; one that waits for
     * signals the child has blocked never ends), not a speed */
    if (secs > 15) {
        fprintf(stderr, "%s: stop took %.1f s (signals blocked in the child?)\n",
                server_engine_name(j->e), secs);
        return NULL;
    }
    if (access(dir, F_OK) == 0) {
        fprintf(stderr, "%s still exists\n", dir);
        return NULL;
    }
    printf("%s: stopped in %.2f s\n", server_engine_name(j->e), secs);
    j->rc = !ok;
    return NULL;
}

int main(void)
{
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, NULL); /* inherited by every thread below */
    signal(SIGHUP, SIG_IGN);
    if (pipe(leak_fd) < 0)
        return 1;
    pthread_t ch[3], th[2];
    for (int i = 0; i < 3; i++)
        pthread_create(&ch[i], NULL, churn, NULL);
    struct job jobs[2] = {{SERVER_PGSQL, "0"}, {SERVER_MYSQL, NULL}};
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, run, &jobs[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    atomic_store(&stop_churn, 1);
    for (int i = 0; i < 3; i++)
        pthread_join(ch[i], NULL);
    return jobs[0].rc || jobs[1].rc;
}
C
# the library objects: not main.o, nor dbscale-mpi's (main_mpi.o, mpi_*.o: MPI, a main)
# whose source is still in the tree (a build directory older than a rename
# keeps the old file's object, which would define its functions twice)
inc=" -I$src"
objs=
for o in $(find "$(dirname "$DBSCALE")/obj" -name '*.o' ! -name main.o ! -name main_mpi.o ! -name 'mpi_*.o'); do
    rel=${o#"$(dirname "$DBSCALE")/obj/"}
    [ -e "$src/../${rel%.o}.c" ] && objs="$objs $o"
done
# the libraries the Makefile links, read from it so the two cannot drift
pkgs=$(sed -n 's/^PKGS *:= *//p' "$(dirname "$src")/Makefile")
[ -n "$pkgs" ] || fail "no PKGS line in the Makefile"
# the objects are there, so a program that does not build is a failure, not a skip
cc -std=c11 -D_GNU_SOURCE $inc $(pkg-config --cflags $pkgs) \
    -o "$work/t" "$work/t.c" $objs $(pkg-config --libs $pkgs) -rdynamic -lpthread -lm \
    >"$work/cc.log" 2>&1 || fail "cannot build the test program: $(head -c 600 "$work/cc.log")"
"$work/t" || fail "in-process start/stop from threads failed"
echo ok
