/*
 * fuzz_options.c - libFuzzer target for the command-line option parser
 * (options_argv.c over options.c), the one users feed by hand on every run.
 *
 * The input is split into an argv on NUL and newline bytes and parsed twice,
 * against the real tables: oltp_optdefs() (run, prepare, cleanup) and the
 * sweep's (sweep_verb_optdefs: --threads as OPT_COUNTS, lists, choices). On success the getters,
 * --help and the JSON dump run too. The whole input also goes through parse_int_list.
 *
 * --config makes the parser open a file: an input naming a path with a '/'
 * is skipped, so only names in the current directory can be read (run.sh
 * runs the target in a directory holding one good config, a.ini).
 *
 * Built with FUZZ_NO_MAIN, this file gives fuzz_options_one() alone, which
 * tests/unit/test_fuzz_regressions.c feeds the saved crash inputs through.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/oltp.h"
#include "core/options.h"
#include "core/util.h"
#include "verbs/verbs.h"

/* The sweep's own table (oltp's with --threads as a list of counts, plus
 * the sweep's options), built once: every OPT_* type but one is reached. */
static const struct optdef *sweep_defs(size_t *n)
{
    static struct optdef *defs;
    static size_t ndefs;
    if (!defs)
        defs = sweep_verb_optdefs(&ndefs);
    *n = ndefs;
    return defs;
}

static void use_values(const struct opts *o)
{
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    for (size_t i = 0; i < o->n; i++) {
        const struct optdef *d = &o->defs[i];
        switch (d->type) {
        case OPT_INT:
            (void)opts_int(o, d->name);
            break;
        case OPT_NUM:
            (void)opts_num(o, d->name);
            break;
        case OPT_BOOL:
            (void)opts_bool(o, d->name);
            break;
        default:
            (void)opts_str(o, d->name);
            break;
        }
        (void)opts_isset(o, d->name);
    }
    if (null)
        opts_help(o, null);
    struct sbuf b = {0};
    opts_json(o, &b);
    sbuf_free(&b);
}

/* One table, one argv: 0, 1 (--help) or -1 with err set. */
static int parse_with(const struct optdef *defs, size_t n, int argc, char **argv, char *err,
                      size_t errlen)
{
    struct opts o;
    char *pos[4];
    int npos = 0;
    opts_init(&o, defs, n);
    err[0] = '\0';
    int rc = opts_parse_argv(&o, argc, argv, 1, pos, 4, &npos, err, errlen);
    if (rc == 0)
        use_values(&o);
    opts_free(&o);
    return rc;
}

/* Runs one input through every entry point. Returns the worst result
 * (-1 if any parse failed, with that message in err), or -2 when the input
 * was skipped (a '/' in it: see the top of this file). */
int fuzz_options_one(const uint8_t *data, size_t size, char *err, size_t errlen)
{
    if (memchr(data, '/', size))
        return -2;
    /* argv: "dbscale", then the input's words; a copy ends every word. */
    char *buf = xmalloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = '\0';
    int argc = 1, cap = 16;
    char **argv = xmalloc((size_t)cap * sizeof *argv);
    argv[0] = "dbscale";
    char *w = buf;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && buf[i] != '\n' && buf[i] != '\0')
            continue;
        buf[i] = '\0';
        if (i < size || *w) {
            if (argc + 1 >= cap) {
                cap *= 2;
                argv = xrealloc(argv, (size_t)cap * sizeof *argv);
            }
            argv[argc++] = w;
        }
        w = buf + i + 1;
    }
    argv[argc] = NULL;

    char err2[512];
    int worst = 0;
    int r1 = parse_with(oltp_optdefs(), oltp_noptdefs(), argc, argv, err, errlen);
    size_t n;
    const struct optdef *defs = sweep_defs(&n);
    int r2 = parse_with(defs, n, argc, argv, err2, sizeof err2);
    if (r1 < 0)
        worst = -1;
    else if (r2 < 0) {
        worst = -1;
        snprintf(err, errlen, "%s", err2);
    } else
        worst = r1 > r2 ? r1 : r2;

    /* The whole input as one list ("1,2,8", "1-256:x2"), NULs cut it short. */
    memcpy(buf, data, size);
    buf[size] = '\0';
    long long out[64];
    (void)parse_int_list(buf, out, 64);
    free(argv);
    free(buf);
    return worst;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    (void)fuzz_options_one(data, size, err, sizeof err);
    return 0;
}
#endif
