/*
 * verbs/fs_verb.c - `dbscale fs`: the command line, the bonnie-style table or
 * CSV on stdout, DIR/fs.csv, and the exit code.
 *
 * The file create/remove benchmark itself (micro/fsbench.c) measures and
 * returns; this file only turns passes into text and an exit code (0, 1 a
 * failed pass or write, 2 bad input, 128 + the signal that stopped it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "results/benchcsv.h"
#include "micro/fsbench.h"
#include "micro/micro.h"
#include "core/options.h"
#include "results/kerneljson.h"
#include "core/signals.h"
#include "core/safefile.h"
#include "core/util.h"
#include "verbs/verbs.h"

#define MAX_COUNTS 64

static const struct optdef fs_opts[] = {
    {"config", OPT_STR, NULL, "read options from this INI file first"},
    {"files", OPT_STR, "100,1000,10000,50000", "file counts, a list/ranges as in the sweep"},
    {"passes", OPT_INT, "3", "passes per file count", NULL, 1, 1000},
    {"dir", OPT_STR, NULL, "where the scratch dir goes (default: $TMPDIR or /tmp)"},
    {"size", OPT_INT, "0", "bytes written to each file", NULL, 0, 1 << 30},
    {"fsync", OPT_BOOL, "off", "fsync each file before closing it"},
    {"tasks", OPT_INT, "1", "processes splitting the files", NULL, 1, 1024},
    {"shared-dir", OPT_BOOL, "on", "all tasks in one directory (off: one directory each)"},
    {"output", OPT_CHOICE, "table", "stdout format", "table|csv"},
    {"out", OPT_STR, NULL, "also write DIR/fs.csv (atomically)"},
};

/* the table, for the man page and the completion (verb_table.c) */
const struct optdef *fs_verb_optdefs(size_t *n)
{
    *n = sizeof fs_opts / sizeof fs_opts[0];
    return fs_opts;
}

static void table_header(const struct fs_config *c, const char *fs_type)
{
    struct utsname u;
    char host[256] = "";
    uname(&u);
    gethostname(host, sizeof host - 1);
    printf("Statistics for %s\n  %s %s %s, %s on %s, %zu bytes/file%s, %d task(s)%s\n\n", host,
           u.sysname, u.release, u.machine, micro_scratch_base(c->dir), fs_type, c->size,
           c->fsync ? ", fsync" : "", c->tasks,
           c->tasks > 1 ? (c->shared_dir ? " in one dir" : " in own dirs") : "");
    printf("No. of  Pass    Create         Files/      Remove         Files/\n"
           "Files   Number  Time           Second      Time           Second\n"
           "----------------------------------------------------------------\n");
}

static void table_row(const struct fs_result *r)
{
    char ct[32], rt[32];
    if (r->error[0]) {
        printf("%6d  %4d    N/A  %s\n", r->files, r->pass, r->error);
        return;
    }
    fs_hms(r->create_s, ct, sizeof ct);
    fs_hms(r->remove_s, rt, sizeof rt);
    printf("%6d  %4d    %s %11.2f   %s %11.2f\n", r->files, r->pass, ct,
           fs_rate(r->files, r->create_s), rt, fs_rate(r->files, r->remove_s));
}

int fs_main(int argc, char **argv)
{
    struct opts o;
    char err[1024], *pos[1];
    int npos;
    opts_init(&o, fs_opts, sizeof fs_opts / sizeof *fs_opts);
    int r = opts_parse_argv(&o, argc, argv, 1, pos, 0, &npos, err, sizeof err);
    if (r == 1) {
        printf("usage: dbscale fs [options]\n\n");
        opts_help(&o, stdout);
        opts_free(&o);
        return 0;
    }
    if (r < 0) {
        opts_free(&o);
        die(EXIT_USAGE, "fs: %s", err);
    }
    long long counts[MAX_COUNTS];
    int ncounts = parse_int_list(opts_str(&o, "files"), counts, MAX_COUNTS);
    for (int i = 0; i < ncounts; i++)
        if (counts[i] < 1 || counts[i] > 100000000)
            ncounts = -1;
    if (ncounts <= 0)
        die(EXIT_USAGE, "fs: --files: '%s' is not a list of file counts like 100,1000",
            opts_str(&o, "files"));
    struct fs_config c = {
        .dir = opts_str(&o, "dir"),
        .size = (size_t)opts_int(&o, "size"),
        .fsync = opts_bool(&o, "fsync"),
        .tasks = (int)opts_int(&o, "tasks"),
        .shared_dir = opts_bool(&o, "shared-dir"),
    };
    struct stat st;
    if (c.dir && (stat(c.dir, &st) < 0 || !S_ISDIR(st.st_mode)))
        die(EXIT_USAGE, "fs: --dir: '%s' is not a directory", c.dir);
    const char *out = opts_str(&o, "out");
    int kr = out ? kernel_json_record_running(out, err, sizeof err) : 0;
    if (kr < 0)
        die(kr == -2 ? EXIT_USAGE : EXIT_RUNTIME, "fs: --out: %s", err);
    const char *fs_type = micro_fs_type(micro_scratch_base(c.dir));
    int table = strcmp(opts_str(&o, "output"), "table") == 0, passes = (int)opts_int(&o, "passes");
    struct sbuf csv = {0};
    sbuf_printf(&csv, "%s\n", FSCSV_HEADER);
    if (table)
        table_header(&c, fs_type);
    else
        fputs(csv.s, stdout);
    int rc = 0;
    for (int i = 0; i < ncounts && rc == 0; i++)
        for (int p = 1; p <= passes && rc == 0; p++) {
            struct fs_result res;
            if (fs_run_pass(&c, (int)counts[i], p, &res) < 0) {
                warnx_("fs: interrupted by signal %d; workers killed, scratch removed",
                       signals_caught());
                rc = signals_exit_code();
                break;
            }
            size_t at = csv.len;
            fs_csv_row(&csv, &c, &res, fs_type);
            if (table)
                table_row(&res);
            else
                fputs(csv.s + at, stdout);
            fflush(stdout);
            if (res.error[0])
                rc = EXIT_RUNTIME;
        }
    if (out && rc < 128) {
        char path[4096];
        int e = dir_make_nofollow(out, 0755);
        snprintf(path, sizeof path, "%s/fs.csv", out);
        if (e == 0)
            e = write_file_atomic(path, csv.s, csv.len);
        if (e < 0) {
            warnx_("fs: cannot write %s: %s", path, file_strerror(e));
            rc = EXIT_RUNTIME;
        }
    }
    sbuf_free(&csv);
    opts_free(&o);
    return rc;
}
