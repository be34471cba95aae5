/*
 * fuzz_results.c - libFuzzer target for the readers behind plot and
 * compare: results_read (results.c) and the compare loaders
 * (compare_load.c), then compare's table build and renderers on whatever
 * loaded.
 *
 * The loader is chosen by the file name, so the input is written three
 * times into one temp dir made once: results.csv (results_read, and
 * compare_load's CSV path, which picks results or micro by the header),
 * micro.csv, and wide.tsv (the will-it-scale style TSV). What follows a
 * form feed, if any, is a second input written as other.csv and other.tsv.
 *
 * Built with FUZZ_NO_MAIN, this file gives fuzz_results_one() alone, which
 * tests/unit/test_fuzz_regressions.c feeds the saved crash inputs through.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "analysis/compare_load.h"
#include "results/results.h"
#include "core/util.h"

static char fr_dir[] = "/tmp/dbscale-fuzz-results-XXXXXX";
static const char *fr_names[] = {"results.csv", "micro.csv", "wide.tsv", "other.csv", "other.tsv"};
#define FR_NFILES (sizeof fr_names / sizeof fr_names[0])

static void fr_cleanup(void)
{
    char p[128];
    for (size_t i = 0; i < FR_NFILES; i++) {
        snprintf(p, sizeof p, "%s/%s", fr_dir, fr_names[i]);
        unlink(p);
    }
    rmdir(fr_dir);
}

static void fr_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "w");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

/* Keeps the first error message; rc -1 if any reader failed. */
static void fr_note(int r, const char *e, int *rc, char *err, size_t errlen)
{
    if (r < 0 && *rc == 0) {
        *rc = -1;
        snprintf(err, errlen, "%s", e);
    }
}

/* Reads the input as each kind of file: 0 when all load, else -1 with the
 * first error in err. */
int fuzz_results_one(const uint8_t *data, size_t size, char *err, size_t errlen)
{
    static int ready;
    if (!ready) {
        if (!mkdtemp(fr_dir)) {
            perror("mkdtemp");
            abort();
        }
        atexit(fr_cleanup);
        ready = 1;
    }
    /* A form feed splits off a second input, so compare sees two
     * different sets side by side, not one set twice. */
    const uint8_t *ff = memchr(data, '\f', size);
    size_t na = ff ? (size_t)(ff - data) : size, nfiles = ff ? FR_NFILES : 3;
    char p[FR_NFILES][128], e[512];
    for (size_t i = 0; i < nfiles; i++) {
        snprintf(p[i], sizeof p[i], "%s/%s", fr_dir, fr_names[i]);
        if (i < 3)
            fr_write(p[i], data, na);
        else
            fr_write(p[i], ff + 1, size - na - 1);
    }
    int rc = 0;
    err[0] = '\0';

    struct result_set rs;
    e[0] = '\0';
    fr_note(results_read(p[0], &rs, e, sizeof e), e, &rc, err, errlen);
    results_free(&rs);

    struct compare_sets ss = {0};
    for (size_t i = 0; i < nfiles; i++) {
        e[0] = '\0';
        fr_note(compare_load(&ss, p[i], e, sizeof e), e, &rc, err, errlen);
    }
    compare_name_sets(&ss);
    for (int k = 0; k < COMPARE_NKINDS; k++) {
        struct compare_table t;
        struct sbuf b = {0};
        compare_build(&ss, (enum compare_kind)k, &t);
        compare_render_text(&t, &b);
        compare_render_md(&t, &b);
        compare_render_csv(&t, &b);
        sbuf_free(&b);
        compare_table_free(&t);
    }
    compare_sets_free(&ss);
    return rc;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    (void)fuzz_results_one(data, size, err, sizeof err);
    return 0;
}
#endif
