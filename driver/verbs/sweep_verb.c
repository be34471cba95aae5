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
#include "ranks/ranks.h"
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
    {"server-bin", OPT_STR, NULL, "managed server: the installation to run, a PostgreSQL bin directory (initdb, pg_ctl, postgres) or a MariaDB basedir (mariadbd, mariadb-install-db) (default: the system's)"},
    {"prepare", OPT_BOOL, NULL, "create and load the tables first (default: on for managed, off for external)"},
    {"out", OPT_STR, NULL, "results directory, new or empty (default results/ENGINE-WORKLOAD-TIMESTAMP, made unique)"},
    {"append", OPT_BOOL, "off", "add this run to an --out that already holds results (earlier meta.json kept as meta.N.json)"},
    {"report", OPT_BOOL, "on", "write the study's page, OUT/report.html, at the end (as `dbscale report OUT`)"},
    {"lua-path", OPT_STR, NULL, "where a workload NAME.lua and its require() look after the working directory: directories or '?' templates, ';'-separated"},
    {"baseline", OPT_STR, NULL, "kernel baseline at each CPU count: micro tests and 'fs' (file create/remove); 'default' = getppid1,open1,open3,pipe1,page_fault1,lock2,pthread_mutex1,fs"},
    {"why", OPT_CHOICE, "on", "per level: the server's CPU split, context switches and wait events over the window (cpusplit.csv, sched.csv, waits.csv; docs/why.md)", "on|off"},
    {"waits", OPT_STR, "auto", "wait events from: auto, off, pg_wait_sampling or pg_stat_activity (PostgreSQL), performance_schema (MariaDB: a managed server then starts with it, ~10% TPS at 64 connections; auto reads it only where the server has it on)"},
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
    /* loaded as for the levels' command: sysbench's oltp_common.lua stops
     * a script loaded without one ("Command is required") */
    struct lapi_script probe = {
        .path = path, .command = "run", .threads = 1, .lua_path = lua_path, .ops = &db_pgsql_ops};
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

/* One sweep verb's state across its phases. */
struct sv {
    struct sweep w;
    struct kernel_facts kf;
    const struct sweep_share *sh;
    struct optdef *defs;
    char spath[1024]; /* the Lua workload's path, when is_lua */
    char wname[128];  /* the workload's name (w.workload) */
    int is_lua;
    struct lsweep lsw;
    struct lscript_opts xo;
    int mw; /* the first meta.json's write: 0 or -errno */
    char err[1024];
};

/* A phase's "not over yet": anything else is the verb's exit code. */
#define GO_ON (-1)

/* Say err as the verb and end with code. */
static int say(struct sv *v, int code, const char *fmt)
{
    fprintf(stderr, fmt, v->err);
    return code;
}

/* The options (a Lua workload's own joining them) and the workload's name. */
static int parse_args(struct sv *v, int argc, char **argv)
{
    struct sweep *w = &v->w;
    size_t n;
    char *pos[1];
    int npos = 0;
    v->defs = sweep_verb_optdefs(&n);
    /* a Lua script as the workload: found first, its options then parse */
    v->is_lua = lsweep_find_workload(argc - 1, argv + 1, v->spath, sizeof v->spath);
    if (v->is_lua) {
        struct optdef *all =
            with_script_options(v->defs, &n, v->spath, lfind_lua_path_arg(argc - 1, argv + 1),
                                &v->xo, v->err, sizeof v->err);
        if (!all) /* w->o stays zeroed: opts_free takes it */
            return say(v, EXIT_USAGE, "dbscale sweep: %s\n");
        free(v->defs);
        v->defs = all;
    }
    opts_init(&w->o, v->defs, n);
    /* one positional at most: a second is a mistake, named (exit 2) */
    int pr = opts_parse_argv(&w->o, argc, argv, 1, pos, 1, &npos, v->err, sizeof v->err);
    if (pr == 1) {
        usage(&w->o, stdout);
        return 0;
    }
    if (opts_warnings(&w->o))
        fputs(opts_warnings(&w->o), stderr);
    if (pr < 0 || sweep_cfg_bind(w, v->err, sizeof v->err) < 0)
        return say(v, EXIT_USAGE, "dbscale sweep: %s\n(see: dbscale sweep --help)\n");
    const char *wl = npos ? pos[0] : opts_str(&w->o, "workload");
    if (!wl) {
        fprintf(stderr, "dbscale sweep: which workload? give it first or as workload= in the "
                        "config\n(see: dbscale sweep --help)\n");
        return EXIT_USAGE;
    }
    w->workload = oltp_workload_name(wl, v->wname, sizeof v->wname);
    if (npos && opts_str(&w->o, "workload")) {
        char other[128];
        oltp_workload_name(opts_str(&w->o, "workload"), other, sizeof other);
        if (strcmp(other, w->workload) != 0) {
            fprintf(stderr,
                    "dbscale sweep: workload '%s' conflicts with --workload=%s; give one\n(see: "
                    "dbscale sweep --help)\n",
                    pos[0], opts_str(&w->o, "workload"));
            return EXIT_USAGE;
        }
    }
    return GO_ON;
}

/* Everything the options say checked before anything starts: the setup, the
 * plan, the script, the baseline, the collectors, the server's settings. */
static int check_options(struct sv *v)
{
    struct sweep *w = &v->w;
    char *err = v->err;
    size_t errlen = sizeof v->err;
    if (w->cfg.variant && sweep_plan_check_variant(w->cfg.variant, err, errlen) < 0)
        return say(v, EXIT_USAGE, "dbscale sweep: %s\n(see: dbscale sweep --help)\n");
    if (oltp_setup(&w->s, &w->o, v->is_lua ? "oltp_read_write" : w->workload, err, errlen) < 0 ||
        parse_plan(w, err, errlen) < 0)
        return say(v, EXIT_USAGE, "dbscale sweep: %s\n(see: dbscale sweep --help)\n");
    if (v->sh && split_check(w, v->sh->nranks, err, errlen) < 0) /* before anything starts */
        return say(v, EXIT_USAGE, "dbscale-mpi sweep: %s\n");
    if (v->sh && v->is_lua) { /* the ranks share a pool; a script's level has none */
        fprintf(stderr,
                "dbscale-mpi sweep: %s: a Lua script is swept by one process (dbscale "
                "sweep SCRIPT ...); over MPI ranks the built-in mixes run\n",
                v->spath);
        return EXIT_USAGE;
    }
    if (v->is_lua) {
        v->lsw.ls.path = v->spath;
        v->lsw.ls.lua_path = opts_str(&w->o, "lua-path");
        lsetup_fill(&v->lsw.ls, &w->o, &w->s);
        v->lsw.cfg = w->s.wcfg; /* a level sets its callbacks */
        w->script = v->spath;
        w->run_level = lsweep_level;
        w->run_level_arg = &v->lsw;
        if (opts_bool(&w->o, "db-debug")) { /* as the script verbs refuse it */
            fprintf(stderr, "dbscale sweep: --db-debug is not supported for Lua scripts yet\n");
            return EXIT_USAGE;
        }
    }
    if (opts_bool(&w->o, "db-debug")) /* the levels' connections, traced */
        w->s.wcfg.ops = dbdebug_ops(w->s.ops, stderr);
    if (baseline_check(w->cfg.baseline, err, errlen) < 0)
        return say(v, EXIT_USAGE, "dbscale sweep: %s\n");
    if (!strcmp(w->cfg.why, "off") && strcmp(w->cfg.profile, "off") != 0) {
        fprintf(stderr,
                "dbscale sweep: --profile=%s needs the why collectors, which --why=off "
                "turns off\n(see: dbscale sweep --help)\n",
                w->cfg.profile);
        return EXIT_USAGE;
    }
    if (why_check_waits(w->s.ops->name, w->cfg.waits, err, errlen) < 0)
        return say(v, EXIT_USAGE, "dbscale sweep: %s\n(see: dbscale sweep --help)\n");
    if (cpuset_method_parse(w->cfg.cpu_method) < 0) {
        fprintf(stderr, "dbscale sweep: --cpu-method: unknown method\n");
        return EXIT_USAGE;
    }
    sysinfo_read(&w->facts);
    sweep_iso_now(w->started, sizeof w->started);
    w->managed = !strcmp(opts_str(&w->o, "server"), "managed");
    const char *bin = opts_str(&w->o, "server-bin");
    if (bin && !w->managed) {
        fprintf(stderr, "dbscale sweep: --server-bin is the managed server's installation; with "
                        "--server=external the connection options name the server\n");
        return EXIT_USAGE;
    }
    if (w->managed) {
        /* the installation, then a --server-conf its server refuses: bad
         * input (exit 2) before a results directory or a server exists */
        enum server_engine e = (enum server_engine)server_engine_parse(w->s.ops->name);
        if (server_install_find(e, bin, &w->inst, err, errlen) < 0) {
            if (bin)
                return say(v, EXIT_USAGE, "dbscale sweep: --server-bin: %s\n");
            memset(&w->inst, 0, sizeof w->inst); /* none here: the start says so */
        }
        char *conf = opts_lines(&w->o, "server-conf");
        int bad = server_check_request_from(e, w->inst.daemon[0] ? &w->inst : NULL, NULL, NULL,
                                            conf, err, errlen) < 0;
        free(conf);
        if (bad)
            return say(v, EXIT_USAGE, "dbscale sweep: --server-conf: %s\n");
    }
    const char *spid = opts_str(&w->o, "server-pid"); /* re-pinned later: must be the server */
    if (!w->managed && spid && strcmp(spid, "auto") != 0 &&
        server_check_pid(spid, oltp_conn_port(&w->s), &w->ext_pid, err, errlen) < 0)
        return say(v, EXIT_USAGE, "dbscale sweep: --server-pid: %s\n");
    return GO_ON;
}

/* The results directory first: a typo'd path, a directory that already
 * holds results, a read-only or full disk all fail before any server starts. */
static int open_results(struct sv *v)
{
    struct sweep *w = &v->w;
    char base[600], ts[32];
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
    snprintf(base, sizeof base, "results/%s-%s-%s", w->s.ops->name, w->workload, ts);
    int append = opts_bool(&w->o, "append");
    int dr = results_dir_create(opts_str(&w->o, "out"), base, append, w->out, sizeof w->out, v->err,
                                sizeof v->err);
    if (dr < 0)
        return say(v, dr == -2 ? EXIT_USAGE : EXIT_RUNTIME, "dbscale sweep: %s\n");
    /* one sweep at a time in a directory, before the earlier run is read */
    int lk = results_dir_lock(w->out, 0, v->err, sizeof v->err);
    if (lk == 1) {
        fprintf(stderr, "dbscale sweep: waiting for the other sweep writing %s...\n", w->out);
        lk = results_dir_lock(w->out, 1, v->err, sizeof v->err);
    }
    if (lk < 0)
        return say(v, EXIT_RUNTIME, "dbscale sweep: %s\n");
    /* one kernel per results directory (the page labels them so), checked
     * before --append reads or renames anything: a refusal leaves the
     * directory as it was */
    kernelinfo_read(&v->kf);
    if (kernel_json_check(w->out, &v->kf, v->err, sizeof v->err) < 0)
        return say(v, EXIT_USAGE, "dbscale sweep: %s\n");
    /* one server build and one set of extra settings per directory too */
    if (append && sweep_server_same(w, v->err, sizeof v->err) < 0)
        return say(v, EXIT_USAGE, "dbscale sweep: --append: %s\n");
    if (append && load_earlier_run(w, v->err, sizeof v->err) < 0)
        return say(v, EXIT_RUNTIME, "dbscale sweep: --append: %s\n");
    /* the first meta.json doubles as the check that the disk takes writes */
    v->mw = sweep_write_meta(w, NULL);
    if (v->mw != 0) {
        fprintf(stderr, "dbscale sweep: cannot write %s/meta.json: %s\n", w->out, strerror(-v->mw));
        return EXIT_RUNTIME;
    }
    if (kernel_json_write(w->out, &v->kf, v->err, sizeof v->err) < 0)
        return say(v, EXIT_RUNTIME, "dbscale sweep: cannot write %s\n");
    return GO_ON;
}

/* A managed server started, or the external one's process found when the
 * plan holds it to fewer CPUs. */
static int find_server(struct sv *v)
{
    struct sweep *w = &v->w;
    if (w->managed) {
        fprintf(stderr, "dbscale sweep: starting a throwaway %s server...\n", w->s.ops->name);
        if (sweep_start_managed(w, v->err, sizeof v->err) < 0) /* a stop gave it up */
            return say(v, signals_caught() ? signals_exit_code() : EXIT_RUNTIME,
                       "dbscale sweep: %s\n");
        return GO_ON;
    }
    const char *sp = opts_str(&w->o, "server-pid");
    int port = oltp_conn_port(&w->s);
    if ((!sp || !strcmp(sp, "auto")) && port > 0) /* else server_check_pid set it */
        w->ext_pid = sysinfo_pid_by_port(port);
    int restricted = w->plan.kcpus[0] != w->plan.nonline || w->plan.nk > 1;
    if (v->sh && restricted) /* the CPU methods act on processes of this host */
        fprintf(stderr,
                "dbscale-mpi sweep: --cpus with --server=external: --cpu-method=%s holds "
                "the server's processes on rank 0's host (%s), so the server must run "
                "there\n",
                w->cfg.cpu_method, w->facts.hostname);
    if (w->ext_pid <= 0 && restricted) {
        fprintf(stderr,
                "dbscale sweep: cannot find the process listening on port %d%s; give "
                "--server-pid=PID to hold the server to fewer CPUs\n",
                port, v->sh ? " on rank 0's host" : "");
        return EXIT_USAGE;
    }
    return GO_ON;
}

/* The tables prepared (if asked), the connections opened and the levels run. */
static int prepare_and_run(struct sv *v)
{
    struct sweep *w = &v->w;
    v->lsw.ls.targets = w->s.targets; /* a managed server's own address by now */
    v->lsw.ls.ntargets = w->s.ntargets;
    int want_prepare = opts_isset(&w->o, "prepare") ? opts_bool(&w->o, "prepare") : w->managed;
    if (oltp_check_connections(&w->s, w->plan.maxthreads, v->err, sizeof v->err) < 0) {
        fprintf(stderr, "dbscale sweep: %s%s\n", v->err,
                w->managed ? " (--server-conf max_connections=N raises it here)" : "");
        return EXIT_USAGE;
    }
    if (want_prepare && !signals_caught()) {
        if (v->is_lua)
            fprintf(stderr, "dbscale sweep: running %s's prepare...\n", v->spath);
        else
            fprintf(stderr, "dbscale sweep: preparing %d table(s) of %lld rows...\n",
                    w->s.wl.cfg.tables, (long long)w->s.wl.cfg.table_size);
        if (v->is_lua ? lsweep_prepare(&v->lsw, v->err, sizeof v->err) < 0
                      : oltp_prepare(&w->s, NULL, v->err, sizeof v->err) < 0)
            return say(v, EXIT_RUNTIME, "dbscale sweep: prepare: %s\n");
    }
    sweep_read_settings(w);
    v->mw = sweep_write_meta(w, NULL); /* now with the server's version and settings */
    if (v->mw != 0) {
        fprintf(stderr, "dbscale sweep: cannot write %s/meta.json: %s\n", w->out, strerror(-v->mw));
        return EXIT_RUNTIME;
    }
    if (signals_caught())
        return 0;
    if (!v->is_lua && sweep_open_pool(w, v->err, sizeof v->err) < 0)
        return say(v, EXIT_RUNTIME, "dbscale sweep: %s\n");
    int slot = v->is_lua ? signals_on_stop(stop_script, NULL) : signals_on_stop(stop_pool, w->pool);
    fprintf(stderr, "dbscale sweep: %d levels (%d CPU count(s), %d repeat(s)), results in %s\n",
            w->plan.nlevels, w->plan.nk, w->plan.repeats, w->out);
    w->on_level = sweep_print_progress;
    w->on_baseline = sweep_print_baseline;
    w->on_note = sweep_print_why_note;
    int rc = 0, run = sweep_run(w, v->err, sizeof v->err);
    if (run == 0 && isatty(2))
        fputc('\n', stderr);
    if (run < 0)
        rc = say(v, EXIT_RUNTIME, "\ndbscale sweep: stopped: %s\n");
    signals_off(slot);
    return rc;
}

/* After the levels (or a failure once the server was there): the pool
 * closed, the CPUs given back, meta.json's last write, the summary and the
 * page, the managed server stopped. The exit code, from rc. */
static int finish(struct sv *v, int rc)
{
    struct sweep *w = &v->w;
    if (w->pool)
        pool_close(w->pool);
    sweep_restore_cpus(w);
    int meta_ok = 0;
    if (w->plan.levels && w->out[0]) {
        char ended[32];
        sweep_iso_now(ended, sizeof ended);
        int e = sweep_write_meta(w, ended);
        meta_ok = e == 0;
        sweep_why_close(w); /* its side connections go before the server does */
        if (e != 0 && v->mw == 0) {
            fprintf(stderr, "dbscale sweep: cannot write %s/meta.json: %s\n", w->out, strerror(-e));
            if (rc == 0)
                rc = EXIT_RUNTIME;
        }
    }
    /* only what is on disk: a level whose write failed is not reported */
    int saved = w->nsaved > w->nold ? w->nsaved - w->nold : 0;
    if (saved > 0 && sweep_print_end(w, saved, meta_ok) < 0 && rc == 0)
        rc = EXIT_RUNTIME;
    if (w->managed && w->server_up) {
        char e2[512];
        if (server_stop(&w->srv, e2, sizeof e2) < 0)
            fprintf(stderr, "dbscale sweep: stopping the server: %s\n", e2);
    }
    if (signals_caught()) {
        fprintf(stderr, "dbscale sweep: interrupted; %d finished level(s) kept in %s\n", saved,
                w->out);
        rc = signals_exit_code();
    }
    return rc;
}

static void sv_free(struct sv *v)
{
    struct sweep *w = &v->w;
    sweep_why_close(w);
    free(w->rank_rows);
    free(w->skews);
    free(w->rows);
    free(w->old_rows);
    intervals_free(&w->iv);
    intervals_free(&w->iv_level);
    latcsv_free(&w->lat);
    levels_free(&w->lvl);
    sweep_plan_free(&w->plan);
    free(w->online);
    oltp_setup_free(&w->s);
    opts_free(&w->o);
    free(v->defs);
    lscript_opts_free(&v->xo);
    lsweep_free(&v->lsw);
}

int sweep_main_shared(int argc, char **argv, const struct sweep_share *sh)
{
    struct sv *v = xcalloc(1, sizeof *v);
    v->sh = sh;
    v->w.share = sh;
    v->w.stop = signals_flag();
    lsweep_init(&v->lsw);
    int rc = parse_args(v, argc, argv);
    if (rc == GO_ON)
        rc = check_options(v);
    if (rc == GO_ON)
        rc = open_results(v);
    if (rc == GO_ON) {
        /* From here a signal ends the sweep at the next safe point: prepare
         * finishes, the server is stopped, finished levels are kept. */
        signals_install();
        rc = find_server(v);
        if (rc == GO_ON)
            rc = finish(v, prepare_and_run(v));
    }
    if (sh && sh->end) /* the other ranks follow rank 0 until told it is over */
        sh->end(rc, sh->arg);
    sv_free(v);
    free(v);
    return rc;
}
