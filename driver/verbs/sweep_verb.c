/*
 * sweep_verb.c - `dbscale sweep`: argv to a plan and a run, then the report
 * and the exit code.
 *
 * The plan (sweep/plan.c) and the run loop (sweep/sweep.c) return errors and
 * hand finished levels up through a callback; everything a person reads on
 * the terminal about a sweep is printed here, and only here is it decided
 * what exit code a sweep ends with (0 ok, 1 runtime failure, 2 bad input,
 * 128+N on signal N).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sweep/baseline.h"
#include "core/cpulist.h"
#include "client/dbdebug.h"
#include "client/oltp_conn.h"
#include "lua/lfind.h"
#include "lua/lsetup.h"
#include "lua/lsweep.h"
#include "results/page.h"
#include "ranks/ranks.h"
#include "results/report.h"
#include "results/resdir.h"
#include "results/kerneljson.h"
#include "core/signals.h"
#include "sweep/sweep.h"
#include "verbs/sweep_print.h"
#include "core/util.h"
#include "verbs/verbs.h"

/* clang-format off */
static const struct optdef sweep_extra[] = {
    {"workload", OPT_STR, NULL, "workload (or give it as the first word)"},
    {"repeats", OPT_INT, "3", "measurements per (CPU count, threads) point", NULL, 1, 1000},
    {"order", OPT_CHOICE, "sequential", "level order; interleaved alternates CPU counts and thread levels on every repeat", "sequential|interleaved"},
    {"cpus", OPT_STR, "all", "CPU counts the server is held to, e.g. 1,2,4,all (clipped to the machine)"},
    {"cpu-method", OPT_CHOICE, "affinity", "how the server is held to k CPUs", "affinity|cpuset|hotplug"},
    {"variant", OPT_STR, NULL, "label for these results, 1-31 of A-Za-z0-9._-+=: (default: up or smp-kN from the kernel)"},
    {"server", OPT_CHOICE, "managed", "managed: a throwaway server started here; external: the one the connection options name", "managed|external"},
    {"server-pid", OPT_STR, "auto", "external server's process id, or auto (the process listening on the port)"},
    {"server-conf", OPT_LIST, NULL, "managed server: extra config line k=v (may be repeated)"},
    {"prepare", OPT_BOOL, NULL, "create and load the tables first (default: on for managed, off for external)"},
    {"out", OPT_STR, NULL, "results directory, new or empty (default results/ENGINE-WORKLOAD-TIMESTAMP, made unique)"},
    {"append", OPT_BOOL, "off", "add this run to an --out that already holds results (earlier meta.json kept as meta.N.json)"},
    {"report", OPT_BOOL, "on", "write the study's page, OUT/report.html, at the end (as `dbscale report OUT`)"},
    {"lua-path", OPT_STR, NULL, "where a workload NAME.lua and its require() look after the working directory: directories or '?' templates, ';'-separated"},
    {"baseline", OPT_STR, NULL, "kernel baseline at each CPU count: micro tests and 'fs' (file create/remove); 'default' = getppid1,open1,open3,pipe1,page_fault1,lock2,pthread_mutex1,fs"},
    {"why", OPT_CHOICE, "on", "per level: the server's CPU split, context switches and wait events over the window (cpusplit.csv, sched.csv, waits.csv; docs/why.md)", "on|off"},
    {"waits", OPT_STR, "auto", "wait events from: auto, off, pg_wait_sampling or pg_stat_activity (PostgreSQL), performance_schema (MariaDB)"},
    {"wait-hz", OPT_INT, "100", "the pg_stat_activity sampler's rate when pg_wait_sampling is not loaded", NULL, 10, 10000},
    {"profile", OPT_CHOICE, "off", "perf profile of the server (cpu-clock, call graphs) over every level (on|all) or the levels around each knee and peak (knee): folded stacks and flame graphs", "off|on|all|knee"},
};
/* clang-format on */

/* run's options a sweep has no use for: its report is results.csv and the
 * page, so listing them would be accepting and ignoring them */
static const char *const sweep_unused[] = {"output",    "histogram",          "interval-output",
                                           "verbosity", "report-checkpoints", "test"};

struct optdef *sweep_verb_optdefs(size_t *n)
{
    /* the OLTP vocabulary, with --threads as a list, plus the sweep's own;
     * the engine default is run's (sysbench's mysql), so one command line
     * means one engine whichever verb it is given to */
    struct optdef *defs =
        oltp_optdefs_with(sweep_extra, sizeof sweep_extra / sizeof sweep_extra[0], n);
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++) {
        int unused = 0;
        for (size_t k = 0; k < sizeof sweep_unused / sizeof sweep_unused[0]; k++)
            unused |= !strcmp(defs[i].name, sweep_unused[k]);
        if (unused)
            continue;
        if (!strcmp(defs[i].name, "threads")) {
            defs[i].def = "1,2,4,8";
            defs[i].help = "client thread counts: 1,2,4,8 | 1-64 | 1-256:x2";
        } else if (!strcmp(defs[i].name, "report-interval")) {
            /* a period a second, kept in intervals.csv: stalls show */
            defs[i].def = "1";
            defs[i].help = "seconds per row of OUT/intervals.csv, each level's figures over time "
                           "(0 = none)";
        }
        defs[kept++] = defs[i];
    }
    *n = kept;
    return defs;
}

/* The pool's stop, as the signal room's stop action (async-signal-safe). */
static void stop_pool(void *p)
{
    pool_stop(p);
}

/* A scripted level's stop, the same way. */
static void stop_script(void *p)
{
    (void)p;
    lscript_stop();
}

/* A Lua workload's options join the sweep's table (so they parse from the
 * command line and the config file alike): a new table, or NULL with err. */
static struct optdef *with_script_options(struct optdef *defs, size_t *n, const char *path,
                                          const char *lua_path, struct lscript_opts *xo, char *err,
                                          size_t errlen)
{
    struct lapi_script probe = {
        .path = path, .threads = 1, .lua_path = lua_path, .ops = &lsql_pgsql_ops};
    if (lscript_options(&probe, defs, *n, xo, err, errlen) < 0)
        return NULL;
    struct optdef *all = xcalloc(*n + xo->n, sizeof *all);
    memcpy(all, defs, *n * sizeof *all);
    if (xo->n)
        memcpy(all + *n, xo->defs, xo->n * sizeof *all);
    *n += xo->n;
    return all;
}

/* The plan from the options; the online CPUs are read here, the plan itself
 * is pure. */
static int parse_plan(struct sweep *w, char *err, size_t errlen)
{
    struct cpulist on;
    w->plan.nonline = 0;
    if (cpulist_init(&on) == 0 && cpulist_online(&on, err, errlen) > 0)
        w->plan.nonline = cpulist_ids(&on, &w->online);
    cpulist_free(&on);
    w->plan.online = w->online;
    if (w->plan.nonline <= 0) {
        w->plan.nonline = 0;
        return -1; /* err names the file and why */
    }
    int rc =
        sweep_plan_build(&w->plan, opts_str(&w->o, "threads"), opts_str(&w->o, "cpus"),
                         opts_str(&w->o, "order"), (int)opts_int(&w->o, "repeats"), err, errlen);
    for (int i = 0; i < w->plan.nskipped; i++)
        fprintf(stderr, "dbscale sweep: --cpus: %lld is more than the %d online; skipped\n",
                w->plan.skipped[i], w->plan.nonline);
    return rc;
}

/* dbscale-mpi: every level's connections (and --rate) split over the ranks
 * with some for each, checked on the plan before any server or directory
 * is made (the ranks check it again as they open). */
static int split_check(const struct sweep *w, int nranks, char *err, size_t errlen)
{
    long long least = -1;
    for (int i = 0; i < w->plan.nlevels; i++)
        if (least < 0 || w->plan.levels[i].threads < least)
            least = w->plan.levels[i].threads;
    return least < 0 ? 0 : ranks_check_split(least, w->s.wcfg.rate, nranks, err, errlen);
}

/* --append: the rows already in results.csv stay (rewritten with the new
 * ones after each level), new repeats are numbered after theirs, and the
 * earlier run's meta.json is kept as meta.N.json. */
static int load_earlier_run(struct sweep *w, char *err, size_t errlen)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/results.csv", w->out);
    if (access(path, F_OK) == 0) {
        struct result_set rs = {0};
        if (results_read(w->out, &rs, err, errlen) < 0)
            return -1;
        w->old_rows = rs.rows;
        w->nold = (int)rs.n;
        w->rank_rows = rs.rank_rows; /* an earlier MPI run's ranks' rows stay too */
        w->nrank_rows = (int)rs.nrank;
        w->nsaved = w->nold;
        for (int i = 0; i < w->nold; i++)
            if (w->old_rows[i].repeat > w->repeat_base)
                w->repeat_base = w->old_rows[i].repeat;
    }
    return results_dir_keep_meta(w->out, err, errlen);
}

static void usage(const struct opts *o, FILE *f)
{
    fprintf(f, "usage: dbscale sweep [WORKLOAD] [options]\n"
               "   or: dbscale sweep --config configs/NAME.ini [options]\n\n"
               "Runs WORKLOAD at every thread count (--threads=1,2,4,8 | 1-64 | 1-256:x2) with\n"
               "the server held to each CPU count (--cpus=1,2,4,all), --repeats times, and\n"
               "writes results.csv + meta.json into --out after every level.\n\noptions:\n");
    opts_help(o, f);
}

int sweep_main(int argc, char **argv)
{
    return sweep_main_shared(argc, argv, NULL);
}

int sweep_main_shared(int argc, char **argv, const struct sweep_share *sh)
{
    struct sweep w;
    struct kernel_facts kf;
    memset(&w, 0, sizeof w);
    w.share = sh;
    w.stop = signals_flag();
    size_t n;
    struct optdef *defs = sweep_verb_optdefs(&n);
    char err[1024], *pos[1];
    int npos = 0, rc = 0, mw = 0;
    /* a Lua script as the workload: found first, its options then parse */
    char spath[1024];
    struct lsweep lsw;
    lsweep_init(&lsw);
    struct lscript_opts xo = {0};
    int is_lua = lsweep_find_workload(argc - 1, argv + 1, spath, sizeof spath);
    if (is_lua) {
        struct optdef *all = with_script_options(
            defs, &n, spath, lfind_lua_path_arg(argc - 1, argv + 1), &xo, err, sizeof err);
        if (!all) {
            fprintf(stderr, "dbscale sweep: %s\n", err);
            free(defs);
            lsweep_free(&lsw);
            return EXIT_USAGE;
        }
        free(defs);
        defs = all;
    }
    opts_init(&w.o, defs, n);
    /* one positional at most: a second is a mistake, named (exit 2) */
    int pr = opts_parse_argv(&w.o, argc, argv, 1, pos, 1, &npos, err, sizeof err);
    if (pr == 1) {
        usage(&w.o, stdout);
        goto done;
    }
    if (opts_warnings(&w.o))
        fputs(opts_warnings(&w.o), stderr);
    if (pr < 0) {
        fprintf(stderr, "dbscale sweep: %s\n(see: dbscale sweep --help)\n", err);
        rc = EXIT_USAGE;
        goto done;
    }
    char wname[128];
    const char *wl = npos ? pos[0] : opts_str(&w.o, "workload");
    if (!wl) {
        fprintf(stderr, "dbscale sweep: which workload? give it first or as workload= in the "
                        "config\n(see: dbscale sweep --help)\n");
        rc = EXIT_USAGE;
        goto done;
    }
    w.workload = oltp_workload_name(wl, wname, sizeof wname);
    if (npos && opts_str(&w.o, "workload")) {
        char other[128];
        oltp_workload_name(opts_str(&w.o, "workload"), other, sizeof other);
        if (strcmp(other, w.workload) != 0) {
            fprintf(stderr,
                    "dbscale sweep: workload '%s' conflicts with --workload=%s; give one\n(see: "
                    "dbscale sweep --help)\n",
                    pos[0], opts_str(&w.o, "workload"));
            rc = EXIT_USAGE;
            goto done;
        }
    }
    const char *vl = opts_str(&w.o, "variant");
    if (vl && sweep_plan_check_variant(vl, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: %s\n(see: dbscale sweep --help)\n", err);
        rc = EXIT_USAGE;
        goto done;
    }
    if (oltp_setup(&w.s, &w.o, is_lua ? "oltp_read_write" : w.workload, err, sizeof err) < 0 ||
        parse_plan(&w, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: %s\n(see: dbscale sweep --help)\n", err);
        rc = EXIT_USAGE;
        goto done;
    }
    if (sh && split_check(&w, sh->nranks, err, sizeof err) < 0) { /* before anything starts */
        fprintf(stderr, "dbscale-mpi sweep: %s\n", err);
        rc = EXIT_USAGE;
        goto done;
    }
    if (is_lua) {
        lsw.ls.path = spath;
        lsw.ls.lua_path = opts_str(&w.o, "lua-path");
        lsetup_fill(&lsw.ls, &w.o, &w.s);
        lsw.pct = w.s.npcts ? w.s.pcts[0] : 95;
        lsw.batch_from = w.s.wcfg.batch_from;
        w.script = spath;
        w.run_level = lsweep_level;
        w.run_level_arg = &lsw;
        if (opts_bool(&w.o, "db-debug")) { /* as the script verbs refuse it */
            fprintf(stderr, "dbscale sweep: --db-debug is not supported for Lua scripts yet\n");
            rc = EXIT_USAGE;
            goto done;
        }
    }
    if (opts_bool(&w.o, "db-debug")) /* the levels' connections, traced */
        w.s.wcfg.ops = dbdebug_ops(w.s.ops, stderr);
    if (baseline_check(opts_str(&w.o, "baseline"), err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: %s\n", err);
        rc = EXIT_USAGE;
        goto done;
    }
    if (!strcmp(opts_str(&w.o, "why"), "off") && strcmp(opts_str(&w.o, "profile"), "off") != 0) {
        fprintf(stderr,
                "dbscale sweep: --profile=%s needs the why collectors, which --why=off "
                "turns off\n(see: dbscale sweep --help)\n",
                opts_str(&w.o, "profile"));
        rc = EXIT_USAGE;
        goto done;
    }
    if (why_check_waits(w.s.ops->name, opts_str(&w.o, "waits"), err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: %s\n(see: dbscale sweep --help)\n", err);
        rc = EXIT_USAGE;
        goto done;
    }
    if (cpuset_method_parse(opts_str(&w.o, "cpu-method")) < 0) {
        fprintf(stderr, "dbscale sweep: --cpu-method: unknown method\n");
        rc = EXIT_USAGE;
        goto done;
    }
    sysinfo_read(&w.facts);
    sweep_iso_now(w.started, sizeof w.started);
    w.managed = !strcmp(opts_str(&w.o, "server"), "managed");
    if (w.managed) {
        /* a --server-conf the managed server refuses is bad input: say so
         * (exit 2) before a results directory or a server exists */
        char *conf = opts_lines(&w.o, "server-conf");
        enum server_engine e = (enum server_engine)server_engine_parse(w.s.ops->name);
        int bad = server_check_request(e, NULL, NULL, conf, err, sizeof err) < 0;
        free(conf);
        if (bad) {
            fprintf(stderr, "dbscale sweep: --server-conf: %s\n", err);
            rc = EXIT_USAGE;
            goto done;
        }
    }
    const char *spid = opts_str(&w.o, "server-pid"); /* re-pinned later: must be the server */
    if (!w.managed && spid && strcmp(spid, "auto") != 0 &&
        server_check_pid(spid, oltp_conn_port(&w.s), &w.ext_pid, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: --server-pid: %s\n", err);
        rc = EXIT_USAGE;
        goto done;
    }

    /* results directory first: a typo'd path, a directory that already holds
     * results, a read-only or full disk all fail before any server starts */
    {
        char base[600], ts[32];
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
        snprintf(base, sizeof base, "results/%s-%s-%s", w.s.ops->name, w.workload, ts);
        int append = opts_bool(&w.o, "append");
        int dr = results_dir_create(opts_str(&w.o, "out"), base, append, w.out, sizeof w.out, err,
                                    sizeof err);
        if (dr < 0) {
            fprintf(stderr, "dbscale sweep: %s\n", err);
            rc = dr == -2 ? EXIT_USAGE : EXIT_RUNTIME;
            goto done;
        }
        /* one sweep at a time in a directory, before the earlier run is read */
        int lk = results_dir_lock(w.out, 0, err, sizeof err);
        if (lk == 1) {
            fprintf(stderr, "dbscale sweep: waiting for the other sweep writing %s...\n", w.out);
            lk = results_dir_lock(w.out, 1, err, sizeof err);
        }
        if (lk < 0) {
            fprintf(stderr, "dbscale sweep: %s\n", err);
            rc = EXIT_RUNTIME;
            goto done;
        }
        if (append && load_earlier_run(&w, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale sweep: --append: %s\n", err);
            rc = EXIT_RUNTIME;
            goto done;
        }
        kernelinfo_read(&kf); /* one kernel per results directory: the page labels them so */
        if (kernel_json_check(w.out, &kf, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale sweep: %s\n", err);
            rc = EXIT_USAGE;
            goto done;
        }
    }
    /* the first meta.json doubles as the check that the disk takes writes */
    mw = sweep_write_meta(&w, NULL);
    if (mw != 0) {
        fprintf(stderr, "dbscale sweep: cannot write %s/meta.json: %s\n", w.out, strerror(-mw));
        rc = EXIT_RUNTIME;
        goto done;
    }
    if (kernel_json_write(w.out, &kf, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: cannot write %s\n", err);
        rc = EXIT_RUNTIME;
        goto done;
    }

    /* From here a signal ends the sweep at the next safe point: prepare
     * finishes, the server is stopped, finished levels are kept. */
    signals_install();
    int pool_slot = -1;

    if (w.managed) {
        fprintf(stderr, "dbscale sweep: starting a throwaway %s server...\n", w.s.ops->name);
        if (sweep_start_managed(&w, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale sweep: %s\n", err);
            rc = signals_caught() ? signals_exit_code() : EXIT_RUNTIME; /* a stop gave it up */
            goto done;
        }
    } else {
        const char *sp = opts_str(&w.o, "server-pid");
        int port = oltp_conn_port(&w.s);
        if ((!sp || !strcmp(sp, "auto")) && port > 0) /* else server_check_pid set it */
            w.ext_pid = sysinfo_pid_by_port(port);
        int restricted = w.plan.kcpus[0] != w.plan.nonline || w.plan.nk > 1;
        if (sh && restricted) /* the CPU methods act on processes of this host */
            fprintf(stderr,
                    "dbscale-mpi sweep: --cpus with --server=external: --cpu-method=%s holds "
                    "the server's processes on rank 0's host (%s), so the server must run "
                    "there\n",
                    opts_str(&w.o, "cpu-method"), w.facts.hostname);
        if (w.ext_pid <= 0 && restricted) {
            fprintf(stderr,
                    "dbscale sweep: cannot find the process listening on port %d%s; give "
                    "--server-pid=PID to hold the server to fewer CPUs\n",
                    port, sh ? " on rank 0's host" : "");
            rc = EXIT_USAGE;
            goto done;
        }
    }
    lsw.ls.targets = w.s.targets; /* a managed server's own address by now */
    lsw.ls.ntargets = w.s.ntargets;
    int want_prepare = opts_isset(&w.o, "prepare") ? opts_bool(&w.o, "prepare") : w.managed;
    long long maxt = w.plan.maxthreads;
    if (oltp_check_connections(&w.s, maxt, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: %s%s\n", err,
                w.managed ? " (--server-conf max_connections=N raises it here)" : "");
        rc = EXIT_USAGE;
        goto cleanup;
    }
    if (want_prepare && !signals_caught()) {
        if (is_lua)
            fprintf(stderr, "dbscale sweep: running %s's prepare...\n", spath);
        else
            fprintf(stderr, "dbscale sweep: preparing %d table(s) of %lld rows...\n",
                    w.s.wl.cfg.tables, (long long)w.s.wl.cfg.table_size);
        if (is_lua ? lsweep_prepare(&lsw, err, sizeof err) < 0
                   : oltp_prepare(&w.s, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale sweep: prepare: %s\n", err);
            rc = EXIT_RUNTIME;
            goto cleanup;
        }
    }
    sweep_read_settings(&w);
    mw = sweep_write_meta(&w, NULL); /* now with the server's version and settings */
    if (mw != 0) {
        fprintf(stderr, "dbscale sweep: cannot write %s/meta.json: %s\n", w.out, strerror(-mw));
        rc = EXIT_RUNTIME;
        goto cleanup;
    }
    if (!signals_caught()) {
        if (!is_lua && sweep_open_pool(&w, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale sweep: %s\n", err);
            rc = EXIT_RUNTIME;
            goto cleanup;
        }
        pool_slot =
            is_lua ? signals_on_stop(stop_script, NULL) : signals_on_stop(stop_pool, w.pool);
        fprintf(stderr, "dbscale sweep: %d levels (%d CPU count(s), %d repeat(s)), results in %s\n",
                w.plan.nlevels, w.plan.nk, w.plan.repeats, w.out);
        w.on_level = sweep_print_progress;
        w.on_baseline = sweep_print_baseline;
        w.on_note = sweep_print_why_note;
        int run = sweep_run(&w, err, sizeof err);
        if (run == 0 && isatty(2))
            fputc('\n', stderr);
        if (run < 0) {
            fprintf(stderr, "\ndbscale sweep: stopped: %s\n", err);
            rc = EXIT_RUNTIME;
        }
        signals_off(pool_slot);
    }
cleanup:
    if (w.pool)
        pool_close(w.pool);
    sweep_restore_cpus(&w);
    int meta_ok = 0;
    if (w.plan.levels && w.out[0]) {
        char ended[32];
        sweep_iso_now(ended, sizeof ended);
        int e = sweep_write_meta(&w, ended);
        meta_ok = e == 0;
        sweep_why_close(&w); /* its side connections go before the server does */
        if (e != 0 && mw == 0) {
            fprintf(stderr, "dbscale sweep: cannot write %s/meta.json: %s\n", w.out, strerror(-e));
            if (rc == 0)
                rc = EXIT_RUNTIME;
        }
    }
    /* only what is on disk: a level whose write failed is not reported */
    int saved = w.nsaved > w.nold ? w.nsaved - w.nold : 0;
    if (saved > 0) {
        report_sweep_summary(stdout, w.rows + w.nold, (size_t)saved);
        sweep_print_disturbed(w.rows + w.nold, saved);
        printf("\nresults: %s/results.csv (%d level%s%s)%s%s/meta.json\n", w.out, saved,
               saved == 1 ? "" : "s", w.nold ? " added" : "",
               meta_ok ? ", " : "; not written: ", w.out);
        char page[1200], perr[600];
        page_known_options(w.o.defs, w.o.n); /* the reproduce line's names */
        if (opts_bool(&w.o, "report") &&
            page_write_dir(w.out, page, sizeof page, perr, sizeof perr) < 0) {
            fprintf(stderr, "dbscale sweep: report page: %s\n", perr);
            if (rc == 0)
                rc = EXIT_RUNTIME;
        } else if (opts_bool(&w.o, "report")) {
            printf("report: %s\n", page);
        }
    }
    if (w.managed && w.server_up) {
        char e2[512];
        if (server_stop(&w.srv, e2, sizeof e2) < 0)
            fprintf(stderr, "dbscale sweep: stopping the server: %s\n", e2);
    }
    if (signals_caught()) {
        fprintf(stderr, "dbscale sweep: interrupted; %d finished level(s) kept in %s\n", saved,
                w.out);
        rc = signals_exit_code();
    }
done:
    if (sh && sh->end) /* the other ranks follow rank 0 until told it is over */
        sh->end(rc, sh->arg);
    sweep_why_close(&w);
    free(w.rank_rows);
    free(w.skews);
    free(w.rows);
    free(w.old_rows);
    intervals_free(&w.iv);
    intervals_free(&w.iv_level);
    latcsv_free(&w.lat);
    sweep_plan_free(&w.plan);
    free(w.online);
    oltp_setup_free(&w.s);
    opts_free(&w.o);
    free(defs);
    lscript_opts_free(&xo);
    lsweep_free(&lsw);
    return rc;
}
