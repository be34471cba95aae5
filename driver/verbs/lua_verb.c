/*
 * lua_verb.c - a sysbench Lua script on dbscale's command line: its options
 * parsed like dbscale's own (both '_' and '-' spellings), its commands run,
 * and run's figures printed by the same report code as a built-in run.
 *
 * The one idea: swap the program name and nothing else changes. The script
 * is loaded once to learn its options (sysbench.cmdline.options), those join
 * the OLTP option table, and only then is the command line parsed, so a bad
 * script option names itself (exit 2) before any connection is made.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua/lfind.h"
#include "lua/lerrors.h"
#include "lua/lreport.h"
#include "lua/lscript.h"
#include "lua/lsetup.h"
#include "verbs/lua_verb.h"
#include "client/oltp.h"
#include "report/report_run.h"
#include "core/util.h"
#include "client/workload.h"

/* --lua-path of the command line being looked at (lua_verb_find_script) */
static const char *lua_path_arg;

int lua_verb_is_script(const char *arg)
{
    char file[1024];
    size_t l = strlen(arg);
    if (l == 0 || arg[0] == '-')
        return 0;
    if (!(l > 4 && !strcmp(arg + l - 4, ".lua")))
        for (int i = 0; workload_names[i]; i++) /* a built-in wins over a same-named .lua */
            if (!strcmp(arg, workload_names[i]))
                return 0;
    return lfind_script(arg, lua_path_arg, file, sizeof file);
}

int lua_verb_find_script(int argc, char **argv)
{
    lua_path_arg = lfind_lua_path_arg(argc, argv);
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-') {
            if (!strcmp(argv[i], "--lua-path") || !strcmp(argv[i], "--lua_path"))
                i++; /* its value is no script name */
            continue;
        }
        if (lua_verb_is_script(argv[i]))
            return i;
    }
    return -1;
}

/* --table_size=5 -> --table-size=5: sysbench's scripts spell options with
 * '_', dbscale's table with '-'. Only the name part is touched. */
static char **normalize(int argc, char **argv)
{
    char **a = xcalloc((size_t)argc + 1, sizeof *a);
    for (int i = 0; i < argc; i++) {
        a[i] = xstrdup(argv[i]);
        if (strncmp(a[i], "--", 2) != 0)
            continue;
        for (char *p = a[i] + 2; *p && *p != '='; p++)
            if (*p == '_')
                *p = '-';
    }
    return a;
}

static void usage(const char *script, const struct opts *o, size_t nbase, FILE *f)
{
    fprintf(f,
            "usage: dbscale %s [options] COMMAND   (run, prepare, cleanup, help or the "
            "script's own)\n\n",
            script);
    struct opts only = *o;
    only.defs += nbase;
    only.n -= nbase;
    only.val += nbase;
    only.where += nbase;
    fprintf(f, "%s options:\n", script);
    opts_help(&only, f);
    fprintf(f, "\n(every option of 'dbscale run --help' applies too)\n");
}

static volatile sig_atomic_t stop_sig; /* the signal that stopped the run */

static void on_signal(int sig)
{
    if (!stop_sig)
        stop_sig = sig;
    lscript_stop();
}

/* Each --report-interval period: to the script's report_intermediate hook
 * (or sysbench's lines), and to the --interval-output file if there is one. */
struct lua_periods {
    struct lreport *hooks; /* NULL: no hook, sink prints the lines */
    struct report_interval_sink *sink;
};

static void lua_period(const struct interval_stats *st, void *arg)
{
    struct lua_periods *x = arg;
    if (x->hooks)
        lreport_interval(st, x->hooks);
    report_interval(st, x->sink);
}

/* --report-checkpoints: the script's report_cumulative hook takes each
 * checkpoint's figures, as sysbench calls it; else sysbench's block. */
struct lua_ckpts {
    struct lreport *hooks;
    const struct report_run_info *ri;
    double pct;
};

static void lua_checkpoint(double t, const struct level_result *r, void *arg)
{
    struct lua_ckpts *x = arg;
    if (x->hooks->cumulative)
        lreport_cumulative(x->hooks, r, x->pct);
    else
        report_checkpoint(stdout, t, r, x->ri);
}

static int run_cmd(struct lapi_script *ls, struct oltp_setup *st, const struct opts *o)
{
    char err[800];
    const char *out = opts_str(o, "output");
    int text = !strcmp(out, "text");
    if (st->nckpts && !text) { /* as a built-in run refuses them */
        fprintf(stderr,
                "dbscale %s: --report-checkpoints: sysbench's text reports only, not with "
                "--output=json|csv; use --report-interval with --interval-output for figures "
                "over time\n",
                ls->path);
        return EXIT_USAGE;
    }
    struct sbuf optj = {0};
    opts_json(o, &optj);
    struct report_run_info ri = {
        .workload = ls->path,
        .engine = st->ops->name,
        .options_json = optj.s,
        .threads = ls->threads,
        .report_interval = opts_num(o, "report-interval"),
        .rate = opts_num(o, "rate"),
        .rand_seed = opts_int(o, "rand-seed"),
        .pcts = st->pcts,
        .npcts = st->npcts,
        .histogram = opts_bool(o, "histogram"),
        .checkpoints = st->ckpts,
        .ncheckpoints = st->nckpts,
    };
    if (text) {
        report_run_header(stdout, &ri);
        printf("Threads started!\n\n");
        fflush(stdout);
    }
    struct report_interval_sink sink = {
        .text = text ? stdout : stderr, .rate = ri.rate, .pct_off = !st->npcts};
    /* the script's report hooks replace the default reporters (lreport.c) */
    struct lreport hooks;
    if (lreport_open(&hooks, ls, opts_num(o, "time"), err, sizeof err) < 0) {
        fprintf(stderr, "dbscale run: %s\n", err);
        sbuf_free(&optj);
        return EXIT_RUNTIME;
    }
    /* --interval-output, as a built-in run writes it */
    const char *ipath = opts_str(o, "interval-output");
    if (ipath &&
        report_interval_open(&sink, ipath, opts_num(o, "report-interval"), err, sizeof err) < 0) {
        fprintf(stderr, "dbscale run: %s\n", err);
        lreport_close(&hooks);
        sbuf_free(&optj);
        return EXIT_USAGE;
    }
    if (hooks.intermediate)
        sink.text = NULL; /* the hook prints instead */
    struct lua_periods periods = {.hooks = hooks.intermediate ? &hooks : NULL, .sink = &sink};
    struct worker_cfg cfg = st->wcfg; /* as a built-in run's level */
    cfg.rep.on_interval = lua_period;
    cfg.rep.on_interval_arg = &periods;
    cfg.rep.on_checkpoint = lua_checkpoint;
    struct lua_ckpts ckpts = {.hooks = &hooks, .ri = &ri, .pct = cfg.rep.pct};
    cfg.rep.on_checkpoint_arg = &ckpts;
    struct level_result res;
    struct lerrors errs; /* ignored errors by code, for the report */
    lerrors_init(&errs);
    ls->errors = &errs;
    struct sigaction sa = {0}, old_int, old_term;
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    int r = lscript_run(ls, &cfg, &res, err, sizeof err);
    lerrors_take(&errs, &res);
    ls->errors = NULL;
    lerrors_destroy(&errs);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    fflush(stdout);
    if (r < 0)
        fprintf(stderr, "dbscale run: %s\n", err);
    if (r < 0 && res.time_s == 0)
        ; /* init() or the script failed before any thread ran: no figures to show */
    else if (hooks.cumulative)
        lreport_cumulative(&hooks, &res, cfg.rep.pct);
    else if (text)
        report_text(stdout, &res, &ri);
    else if (!strcmp(out, "json"))
        report_json(stdout, &res, &ri);
    else
        report_csv(stdout, &res, &ri, 1);
    lreport_close(&hooks);
    fflush(stdout);
    if (hooks.failed)
        fprintf(stderr, "dbscale run: %s\n", hooks.err);
    /* a stop that the watchdog had to enforce (lwatch.h) is still the stop's */
    int stopped = res.interrupted ? 128 + (stop_sig ? stop_sig : SIGINT) : 0;
    int rc = res.abandoned && stopped ? stopped : r < 0 || hooks.failed ? EXIT_RUNTIME : stopped;
    if (report_interval_close(&sink, ipath, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale run: %s\n", err);
        rc = rc ? rc : EXIT_RUNTIME;
    }
    level_result_free(&res);
    sbuf_free(&optj);
    return rc;
}

int lua_main(const char *verb, int argc, char **argv)
{
    /* A script's lines reach a file or a pipe as they are printed (a long
     * prepare's progress, say), not at exit: sysbench's do. */
    setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    int si = lua_verb_find_script(argc, argv);
    if (si < 0) {
        fprintf(stderr, "dbscale: no Lua script given\n");
        return EXIT_USAGE;
    }
    char **a = normalize(argc, argv);
    const char *cmd = verb;
    for (int i = argc - 1; !cmd && i >= 0; i--)
        if (i != si && a[i][0] != '-')
            cmd = a[i];
    /* NAME means NAME.lua in the working directory, then on --lua-path */
    char file[1024];
    const char *lpath = lfind_lua_path_arg(argc, argv);
    if (!lfind_script(argv[si], lpath, file, sizeof file))
        snprintf(file, sizeof file, "%s", argv[si]);
    struct lapi_script ls = {.path = file, .command = cmd, .threads = 1, .lua_path = lpath};
    char err[800];
    int rc = 0;
    struct lscript_opts xo;
    /* the options-reading state has no connection target yet */
    ls.ops = &db_pgsql_ops;
    int lr = lscript_options(&ls, oltp_optdefs(), oltp_noptdefs(), &xo, err, sizeof err);
    if (lr < 0 || !cmd) {
        /* As sysbench, a script with no command is loaded without one, so
         * its own check speaks first (oltp_common.lua: "Command is
         * required", exit 1); one without a check gets the question
         * (sysbench would exit 0 having done nothing). */
        if (lr < 0)
            fprintf(stderr, "dbscale: %s\n", err);
        else {
            lscript_opts_free(&xo);
            fprintf(stderr,
                    "dbscale %s: which command? (run, prepare, cleanup, help or the "
                    "script's own)\n",
                    argv[si]);
        }
        for (int i = 0; i < argc; i++)
            free(a[i]);
        free(a);
        return lr < 0 && !cmd ? EXIT_RUNTIME : EXIT_USAGE;
    }
    size_t nbase = oltp_noptdefs() + lfind_noptdefs, nd = nbase + xo.n;
    struct optdef *defs = xcalloc(nd, sizeof *defs);
    memcpy(defs, oltp_optdefs(), oltp_noptdefs() * sizeof *defs);
    memcpy(defs + oltp_noptdefs(), lfind_optdefs, lfind_noptdefs * sizeof *defs);
    if (xo.n) /* memcpy from NULL is undefined even for 0 bytes */
        memcpy(defs + nbase, xo.defs, xo.n * sizeof *defs);
    struct opts o;
    opts_init(&o, defs, nd);
    char *pos[4];
    int npos = 0;
    int r = opts_parse_argv(&o, argc, a, 0, pos, 4, &npos, err, sizeof err);
    if (opts_warnings(&o)) /* sysbench's deprecation lines */
        fputs(opts_warnings(&o), stderr);
    if (r == 1 || !strcmp(cmd, "help")) {
        usage(argv[si], &o, nbase, stdout);
        goto out;
    }
    if (r < 0 || npos != (verb ? 1 : 2)) {
        fprintf(stderr, "dbscale %s: %s\n", argv[si],
                r < 0 ? err : "give the script and one command");
        rc = EXIT_USAGE;
        goto out;
    }
    if (opts_isset(&o, "test")) { /* the script is the word given */
        fprintf(stderr, "dbscale %s: --test names a built-in workload; the script is given\n",
                argv[si]);
        rc = EXIT_USAGE;
        goto out;
    }
    if (opts_bool(&o, "db-debug")) { /* accepted and ignored would be a lie */
        fprintf(stderr,
                "dbscale %s: --db-debug traces the built-in workloads only, not Lua "
                "scripts yet\n",
                argv[si]);
        rc = EXIT_USAGE;
        goto out;
    }
    struct oltp_setup st;
    if (oltp_setup(&st, &o, "oltp_read_write", err, sizeof err) < 0) {
        fprintf(stderr, "dbscale %s: %s\n", argv[si], err);
        oltp_setup_free(&st);
        rc = EXIT_USAGE;
        goto out;
    }
    if (opts_bool(&o, "mysql-dry-run")) { /* a script reads its statements' rows */
        fprintf(stderr, "dbscale %s: --mysql-dry-run is for the built-in mixes, not scripts\n",
                argv[si]);
        oltp_setup_free(&st);
        rc = EXIT_USAGE;
        goto out;
    }
    lsetup_fill(&ls, &o, &st);
    if (!strcmp(cmd, "run")) {
        rc = run_cmd(&ls, &st, &o);
    } else {
        printf("dbscale %s (sysbench-compatible)\n\n", DBSCALE_VERSION);
        fflush(stdout);
        int cr = lscript_command(&ls, err, sizeof err);
        if (cr < 0) {
            fprintf(stderr, "dbscale %s %s: %s\n", argv[si], cmd, err);
            rc = cr == -2 ? EXIT_USAGE : EXIT_RUNTIME;
        }
    }
    oltp_setup_free(&st);
out:
    opts_free(&o);
    free(defs);
    lscript_opts_free(&xo);
    for (int i = 0; i < argc; i++)
        free(a[i]);
    free(a);
    return rc;
}
