/*
 * fuzz_plot.c - libFuzzer target for `dbscale plot` without gnuplot: the
 * input, split at form feeds, becomes results.csv, meta.json and micro.csv
 * of one results directory; curves_load() and plot_make() with no image
 * format then build the curves, statistics, summary, data files and the
 * generated scripts (gnuplot is not run).
 *
 * Besides crashes, leaks and UB it checks the one property that keeps
 * received results from running as code: in every generated script, a
 * backquote (gnuplot's command substitution) appears only inside a
 * single-quoted string, and no line holds an '@' macro outside one.
 * Scripts are found from the plot's own record of what it wrote.
 *
 * DBSCALE_DATADIR must name the repo (tests/fuzz/run.sh sets it) so the
 * graphs/NAME.gp styles can be copied.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot/plot.h"
#include "core/util.h"

static char fp_dir[] = "/tmp/dbscale-fuzz-plot-XXXXXX";

static void fp_write(const char *name, const uint8_t *data, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", fp_dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

static void fp_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fp_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", fp_dir);
}

/* Abort when a generated (not copied) script lets data out of single quotes. */
static void fp_check_script(const char *out, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", out, name);
    struct sbuf b = {0};
    if (sbuf_read_file(&b, path) < 0 || !b.s)
        return;
    int in_single = 0, in_double = 0, comment = 0;
    for (size_t i = 0; i < b.len; i++) {
        char c = b.s[i];
        if (c == '\n') {
            if (in_single || in_double) {
                fprintf(stderr, "%s: a string runs over a line end at byte %zu\n", path, i);
                abort();
            }
            comment = 0;
            continue;
        }
        if (comment)
            continue;
        if (in_single) {
            if (c == '\'' && b.s[i + 1] == '\'')
                i++;
            else if (c == '\'')
                in_single = 0;
            continue;
        }
        if (c == '`' || c == '@') {
            fprintf(stderr, "%s: '%c' outside a single-quoted string at byte %zu\n", path, c, i);
            abort();
        }
        if (in_double) {
            if (c == '\\' && b.s[i + 1])
                i++;
            else if (c == '"')
                in_double = 0;
        } else if (c == '\'') {
            in_single = 1;
        } else if (c == '"') {
            in_double = 1;
        } else if (c == '#') {
            comment = 1;
        }
    }
    sbuf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        if (!mkdtemp(fp_dir)) {
            perror("mkdtemp");
            abort();
        }
        atexit(fp_cleanup);
        ready = 1;
    }
    static const char *names[] = {"results.csv", "meta.json", "micro.csv"};
    const uint8_t *p = data, *end = data + size;
    for (int i = 0; i < 3; i++) {
        const uint8_t *ff = p < end ? memchr(p, '\f', (size_t)(end - p)) : NULL;
        size_t n = p < end ? (size_t)((ff ? ff : end) - p) : 0;
        char path[128];
        snprintf(path, sizeof path, "%s/%s", fp_dir, names[i]);
        if (i > 0 && n == 0) {
            unlink(path);
        } else {
            fp_write(names[i], p, n);
        }
        p = ff ? ff + 1 : end;
    }
    char out[160];
    snprintf(out, sizeof out, "%s/plots", fp_dir);
    struct curves_log log = {0};
    struct plot_files written = {0};
    struct curves cv = {0};
    struct plot pl = {0};
    cv.log = &log;
    pl.cv = &cv;
    pl.written = &written;
    pl.out = out;
    char *paths[] = {fp_dir};
    if (curves_load(&cv, paths, 1) == 0) {
        (void)plot_make(&pl, "");
        for (size_t i = 0; i < written.n; i++) {
            size_t l = strlen(written.name[i]);
            if (l > 3 && !strcmp(written.name[i] + l - 3, ".gp") &&
                strncmp(written.name[i], "graphs/", 7))
                fp_check_script(out, written.name[i]);
        }
    }
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    plot_files_free(&written);
    curves_free(&cv);
    return 0;
}
