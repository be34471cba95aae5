/*
 * test_fuzz_regressions.c - every input the fuzzers (tests/fuzz/) ever
 * crashed on, and every seed, fed again through the fuzz targets' own entry
 * points: the option parser, the config reader, and the results/compare
 * readers. Each input must come back as success or as a clean error (a
 * message in err), never a crash; under `make asan-check` a leak or UB in
 * them fails too.
 *
 * Inputs live in tests/fuzz/regressions/TARGET/ and tests/fuzz/corpus/TARGET/
 * (tests run from the repo root). A new crash is fixed in the driver and its
 * input dropped into regressions/: no edit here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The targets without their LLVMFuzzerTestOneInput: fuzz_*_one() only. */
#define FUZZ_NO_MAIN
#include "../fuzz/fuzz_config.c"
#include "../fuzz/fuzz_options.c"
#include "../fuzz/fuzz_results.c"

typedef int (*fuzz_entry)(const uint8_t *data, size_t size, char *err, size_t errlen);

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    fclose(f);
    *size = n;
    return buf;
}

/* Feeds every regular file of dir through entry; returns how many. */
static int feed_dir(const char *dir, fuzz_entry entry)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0; /* no regressions for this target yet */
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
            continue;
        size_t size;
        uint8_t *data = slurp(path, &size);
        char err[512];
        int rc = entry(data, size, err, sizeof err);
        free(data);
        /* -2: skipped by the target itself; 1: --help */
        if (rc < -2 || rc > 1 || (rc == -1 && err[0] == '\0'))
            fail_msg("%s: rc %d, err '%s'", path, rc, rc == -1 ? err : "");
        count++;
    }
    closedir(d);
    return count;
}

static void run_target(const char *name, fuzz_entry entry)
{
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz/regressions/%s", name);
    int n = feed_dir(dir, entry);
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", name);
    int m = feed_dir(dir, entry);
    /* the seeds are committed: not finding them means a wrong directory */
    assert_true(m > 0);
    print_message("%s: %d regression inputs, %d seeds\n", name, n, m);
}

static void test_options_inputs(void **state)
{
    (void)state;
    run_target("fuzz_options", fuzz_options_one);
}

static void test_config_inputs(void **state)
{
    (void)state;
    run_target("fuzz_config", fuzz_config_one);
}

static void test_results_inputs(void **state)
{
    (void)state;
    run_target("fuzz_results", fuzz_results_one);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_inputs),
        cmocka_unit_test(test_config_inputs),
        cmocka_unit_test(test_results_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
