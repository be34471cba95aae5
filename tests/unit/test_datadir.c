/*
 * test_datadir.c - datadir() is called by prepare's and prewarm's threads
 * at the same moment: every caller must get the finished path (the old
 * search wrote its candidates into the returned buffer, and a second
 * thread read "/work" while the first was still walking up from
 * build/: "cannot read /work/schemas/mysql.sql").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util.h"

#define NTHREADS 16

static pthread_barrier_t go;
static char seen[NTHREADS][4096];

static void *reader(void *arg)
{
    char *out = arg;
    pthread_barrier_wait(&go);
    snprintf(out, sizeof seen[0], "%s", datadir());
    return NULL;
}

static void test_datadir_threads(void **state)
{
    (void)state;
    pthread_t t[NTHREADS];
    pthread_barrier_init(&go, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, reader, seen[i]), 0);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    /* the unit binaries run from build/tests: the tree's schemas/ is found */
    char p[4200];
    struct stat st;
    snprintf(p, sizeof p, "%s/schemas", seen[0]);
    assert_int_equal(stat(p, &st), 0);
    for (int i = 1; i < NTHREADS; i++)
        assert_string_equal(seen[i], seen[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_datadir_threads)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
