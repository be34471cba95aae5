/*
 * oltp_verb.c - the prepare, run and cleanup verbs: usage, the sysbench-style
 * report, signals and exit codes.
 *
 * The one idea: a sysbench command line works after swapping the program
 * name, so what is printed keeps sysbench's shape. Everything below the
 * command line (options to a set-up, the load, the run) lives in client/;
 * this file only turns it into text and an exit code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/dbdebug.h"
#include "verbs/help.h"
#include "verbs/lua_verb.h"
#include "client/oltp.h"
#include "report/report_run.h"
#include "core/signals.h"
#include "core/redact.h"
#include "core/util.h"
#include "verbs/verbs.h"

/* The pool's stop, as the signal room's stop action (async-signal-safe). */
static void stop_pool(void *p)
{
    pool_stop(p);
}

/* For the machine-readable report: the version the server gave on a
 * connection of its own (no query, so the server's counters stay clean). */
static const char *server_version(const struct oltp_setup *s, char *buf, size_t len)
{
    struct db_error e = {0};
    struct db_conn *c = s->ops->connect(&s->targets[0], &e);
    if (!c)
        return NULL;
    const char *v = s->ops->server_version(c);
    snprintf(buf, len, "%s", v ? v : "");
    s->ops->close(c);
    return *buf ? buf : NULL;
}

/* --report-checkpoints: the timing thread's report at each point. */
struct ckpt_sink {
    FILE *f; /* NULL: the counters start again, nothing is printed */
    const struct report_run_info *ri;
};

static void on_checkpoint(double t, const struct level_result *r, void *arg)
{
    const struct ckpt_sink *k = arg;
    if (k->f)
        report_checkpoint(k->f, t, r, k->ri);
}

/* sysbench's level-4 line on how the run ended, and its "Done." */
static void ending_lines(const struct oltp_setup *s, const struct level_result *r)
{
    if (s->wcfg.events > 0 && r->txns >= (uint64_t)s->wcfg.events)
        printf("Event limit exceeded, exiting...\n");
    else if (s->wcfg.time_s > 0)
        printf("Time limit exceeded, exiting...\n");
    printf("Done.\n\n");
}

static void usage(const char *verb, const struct opts *o, FILE *f)
{
    fprintf(f,
            "usage: dbscale %s WORKLOAD [options]\n"
            "   or: dbscale WORKLOAD [options] %s      (sysbench's order)\n\n"
            "WORKLOAD: oltp_read_only oltp_read_write oltp_write_only oltp_point_select\n"
            "  oltp_update_index oltp_update_non_index oltp_insert oltp_delete\n"
            "  select_random_points select_random_ranges\n\noptions:\n",
            verb, verb);
    help_verb_options(f, verb, o); /* prepare/cleanup: only what they use */
}

int oltp_main(const char *verb, int argc, char **argv)
{
    return oltp_run_shared(verb, argc, argv, NULL);
}

/* The command line up to its one workload, into *workload: --help, sysbench's
 * warnings, --test taken as the workload. -1 to go on, else the exit code
 * (what was wrong said). */
static int parse_command(const char *verb, struct opts *o, int argc, char **argv, int lead,
                         char **workload, char *err, size_t errlen)
{
    char *pos[2];
    int npos = 0;
    int r = opts_parse_argv(o, argc, argv, 1, pos, 2, &npos, err, errlen);
    if (r == 1) {
        usage(verb, o, stdout);
        return 0;
    }
    if (opts_warnings(o) && lead) /* sysbench's deprecation lines, first as there */
        fputs(opts_warnings(o), stderr);
    const char *test = r == 0 ? opts_str(o, "test") : NULL;
    if (test && lead) /* sysbench's words */
        fprintf(stderr, "WARNING: the --test option is deprecated. You can pass a script name or "
                        "path on the command line without any options.\n");
    if (test && npos == 0 && !lua_verb_is_script(test))
        pos[npos++] = (char *)test;
    else if (test && (npos || lua_verb_is_script(test))) {
        fprintf(stderr, "dbscale %s: --test=%s: %s\n", verb, test,
                npos ? "a workload is given too; give one"
                     : "give a Lua script as a word (dbscale ./x.lua [options] COMMAND)");
        return EXIT_USAGE;
    }
    if (r < 0 || npos != 1) {
        if (r < 0)
            fprintf(stderr, "dbscale %s: %s\n", verb, err);
        else
            fprintf(stderr, "dbscale %s: %s\n", verb,
                    npos ? "give one workload" : "which workload? (e.g. oltp_read_only)");
        fprintf(stderr, "(see: dbscale %s --help)\n", verb);
        return EXIT_USAGE;
    }
    *workload = pos[0];
    return -1;
}

/* prepare or cleanup: the tables made or dropped. The exit code. */
static int prepare_or_cleanup(const char *verb, const struct oltp_setup *s, char *err,
                              size_t errlen)
{
    if (s->verbosity >= 3) /* as sysbench: its banner is a notice, the progress lines are not */
        printf("dbscale %s (sysbench-compatible)\n\n", DBSCALE_VERSION);
    int (*fn)(const struct oltp_setup *, FILE *, char *, size_t) =
        verb[0] == 'p' ? oltp_prepare : oltp_cleanup;
    if (workload_check_load(&s->wl, err, errlen) < 0) {
        fprintf(stderr, "dbscale %s: %s\n(see: dbscale %s --help)\n", verb, err, verb);
        return EXIT_USAGE;
    }
    if (fn(s, stdout, err, errlen) < 0) {
        fprintf(stderr, "dbscale %s: %s\n", verb, err);
        return EXIT_RUNTIME;
    }
    return 0;
}

/* What run cannot do with these options, said. 1 when refused. */
static int run_refused(const struct opts *o, const struct oltp_setup *s, const char *out,
                       const struct run_share *sh)
{
    if (!strcmp(out, "csv") && opts_bool(o, "histogram")) {
        fprintf(stderr, "dbscale run: --histogram has no place in a CSV row; use "
                        "--output=json (latency_histogram) or the text report\n");
        return 1;
    }
    if (s->nckpts && (strcmp(out, "text") || sh)) {
        fprintf(stderr,
                "dbscale run: --report-checkpoints: %s; use --report-interval with "
                "--interval-output for figures over time\n",
                sh ? "not with MPI ranks (each holds only its share of the counters)"
                   : "sysbench's text reports only, not with --output=json|csv");
        return 1;
    }
    return 0;
}

/* This process's pool into *pp: with ranks, its share of the threads (into
 * *threads), and every rank learns whether all opened. 0, or the exit code
 * with *pp NULL and the reason said by the lead. */
static int open_pool(struct oltp_setup *s, const struct run_share *sh, int lead, int *threads,
                     struct pool **pp, char *err, size_t errlen)
{
    int rc = 0, total = *threads; /* at the server; this process opens its share */
    struct pool *p = NULL;
    /* the split is the same on every rank, so is its refusal */
    int sliced = !sh || sh->slice(s, threads, err, errlen, sh->arg) == 0;
    if (!sliced)
        rc = EXIT_USAGE;
    else if (lead && oltp_check_connections(s, total, err, errlen) < 0)
        rc = EXIT_USAGE;
    else if (!(p = pool_open(&s->wcfg, *threads, err, errlen)))
        rc = EXIT_RUNTIME;
    /* every rank learns whether all opened, before any level runs */
    if (sh && sliced && sh->all_open(p != NULL, err, errlen, sh->arg) < 0 && !rc)
        rc = EXIT_RUNTIME;
    if (rc && p) {
        pool_close(p);
        p = NULL;
    }
    if (rc && lead)
        fprintf(stderr, "dbscale run: %s\n", err);
    *pp = p;
    return rc;
}

/* The load on an open pool under the stop signals, then the lead's report
 * (with ranks, of the reduction). The exit code; the pool closed. */
static int run_pool(struct pool *p, const struct oltp_setup *s, int threads,
                    const struct report_run_info *ri, const char *out, const struct run_share *sh,
                    int lead)
{
    const int text = !strcmp(out, "text"), v = s->verbosity;
    /* Caught only from here: prepare/cleanup keep the default
     * disposition (a load is ended by dying, the server rolls back). */
    signals_install();
    int slot = signals_on_stop(stop_pool, p);
    if (text && lead && v >= 5)
        for (int i = 0; i < threads; i++)
            printf("DEBUG: connection (#%d) open and prepared\n", i);
    if (text && lead && v >= 3) {
        printf("Threads started!\n\n");
        fflush(stdout);
    }
    if (sh)
        sh->start(sh->arg);
    struct level_result res;
    int pr = pool_run(p, threads, &res);
    if (sh)
        pr = sh->reduce(&res, pr, sh->arg);
    signals_off(slot);
    if (pr < 0 && lead)
        fprintf(stderr, "dbscale run: stopped: %s\n", res.fatal_msg);
    /* --forced-shutdown=N: what was still running N s after --time */
    int forced = s->forced && res.unfinished > 0 && pr >= 0 && !signals_caught();
    if (forced && lead)
        fprintf(text ? stdout : stderr,
                "FATAL: The --max-time limit has expired, forcing shutdown...\n");
    else if (text && lead && v >= 4 && pr >= 0 && !signals_caught())
        ending_lines(s, &res);
    if (lead) {
        if (text) {
            if (v >= 3) /* below, sysbench prints no report at all */
                report_text(stdout, &res, ri);
        } else if (!strcmp(out, "json"))
            report_json(stdout, &res, ri);
        else
            report_csv(stdout, &res, ri, 1);
    }
    int rc = pr < 0             ? EXIT_RUNTIME
             : signals_caught() ? signals_exit_code()
             : forced           ? 2 /* sysbench's */
                                : 0;
    level_result_free(&res);
    pool_close(p);
    return rc;
}

/* The run verb: the report's sinks set up, the pool opened, the load run and
 * reported as --output asks. The exit code. */
static int run_verb(const struct opts *o, struct oltp_setup *s, const char *name,
                    const struct run_share *sh, int lead, char *err, size_t errlen)
{
    const char *out = opts_str(o, "output");
    if (run_refused(o, s, out, sh))
        return EXIT_USAGE;
    const int text = !strcmp(out, "text");
    const int v = s->verbosity;         /* sysbench's levels: 3 = notices, the report */
    FILE *rep = text ? stdout : stderr; /* machine output stays clean */
    struct sbuf optj = {0};
    redact_opts_json(o, &optj); /* a conninfo password masked */
    char version[128] = "";
    struct report_run_info ri = {
        .workload = name,
        .engine = s->ops->name,
        .server_version = text || !lead ? NULL : server_version(s, version, sizeof version),
        .options_json = optj.s,
        .threads = opts_int(o, "threads"),
        .rate = s->wcfg.rate,
        .report_interval = s->wcfg.rep.interval_s,
        .rand_seed = opts_int(o, "rand-seed"),
        .pcts = s->pcts,
        .npcts = s->npcts,
        .histogram = opts_bool(o, "histogram"),
        .forced_in_s = s->forced ? (long long)(s->wcfg.time_s + s->wcfg.grace_s) : 0,
        .checkpoints = s->ckpts,
        .ncheckpoints = s->nckpts,
        .forced = s->forced,
    };
    struct report_interval_sink sink = {
        .text = v >= 3 ? rep : NULL, .rate = ri.rate, .pct_off = !s->npcts};
    struct ckpt_sink ck = {.f = text && lead && v >= 3 ? stdout : NULL, .ri = &ri};
    s->wcfg.rep.on_checkpoint = on_checkpoint;
    s->wcfg.rep.on_checkpoint_arg = &ck;
    const char *ipath = opts_str(o, "interval-output");
    char ierr[1200];
    if (ipath &&
        report_interval_open(&sink, ipath, s->wcfg.rep.interval_s, ierr, sizeof ierr) < 0) {
        fprintf(stderr, "dbscale run: %s\n", ierr);
        sbuf_free(&optj);
        return EXIT_USAGE;
    }
    if (text && lead && v >= 3) {
        report_run_header(stdout, &ri);
        fflush(stdout);
    }
    s->wcfg.rep.on_interval = report_interval;
    s->wcfg.rep.on_interval_arg = &sink;
    int threads = (int)opts_int(o, "threads");
    struct pool *p;
    int rc = open_pool(s, sh, lead, &threads, &p, err, errlen);
    if (p)
        rc = run_pool(p, s, threads, &ri, out, sh, lead);
    if (report_interval_close(&sink, ipath, ierr, sizeof ierr) < 0) {
        fprintf(stderr, "dbscale run: %s\n", ierr);
        rc = rc ? rc : EXIT_RUNTIME;
    }
    sbuf_free(&optj);
    return rc;
}

int oltp_run_shared(const char *verb, int argc, char **argv, const struct run_share *sh)
{
    int lead = !sh || sh->rank == 0; /* the one process that prints */
    struct opts o;
    opts_init(&o, oltp_optdefs(), oltp_noptdefs());
    char err[700], *workload = NULL;
    int rc = parse_command(verb, &o, argc, argv, lead, &workload, err, sizeof err);
    if (rc >= 0) {
        opts_free(&o);
        return rc;
    }
    char name[128];
    oltp_workload_name(workload, name, sizeof name);
    struct oltp_setup s;
    if (oltp_setup(&s, &o, name, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale %s: %s\n(see: dbscale %s --help)\n", verb, err, verb);
        oltp_setup_free(&s);
        opts_free(&o);
        return EXIT_USAGE;
    }
    if (opts_bool(&o, "db-debug")) /* the run's connections, traced */
        s.wcfg.ops = dbdebug_ops(s.ops, stderr);
    const char *cc = opts_str(&o, "client-cpus");
    if (!strcmp(verb, "run") && cc && (!strcmp(cc, "same") || !strcmp(cc, "rest"))) {
        fprintf(stderr,
                "dbscale run: --client-cpus=%s: same and rest are relative to the server's CPUs "
                "in a sweep; give a CPU list (e.g. 1 or 0-3)\n",
                cc);
        rc = EXIT_USAGE;
    } else if (!strcmp(verb, "prepare") || !strcmp(verb, "cleanup"))
        rc = prepare_or_cleanup(verb, &s, err, sizeof err);
    else
        rc = run_verb(&o, &s, name, sh, lead, err, sizeof err);
    oltp_setup_free(&s);
    opts_free(&o);
    return rc;
}
