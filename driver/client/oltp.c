/*
 * oltp.c - the set-up of prepare, run and cleanup: sysbench's option
 * vocabulary, and the workload and connection targets built from it.
 *
 * A sysbench command line works after swapping the program name: options
 * keep sysbench's names and defaults, the workload may be given as a .lua
 * path, and the command word may come last (main.c reorders). What sysbench
 * lacks but engineers need (host lists, conninfo strings, option files, the
 * client's own CPU per transaction) is added beside, never instead. This room
 * turns options into a struct oltp_setup; it never prints and never decides
 * an exit code (verbs/oltp_verb.c does).
 */
#include "client/oltp.h"
#include "client/oltp_conn.h"

#include "core/cpulist.h"
#include "core/sched_policy.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"

/* clang-format off */
/* the options before the engines' own (each engine's table: engines/) */
static const struct optdef head[] = {
    {"config", OPT_STR, NULL, "read options from this file, read before the command line: INI (keys are option names, '_' or '-') or sysbench's name=value lines; --config-file=FILE is the same"},
    /* general, as sysbench */
    {"threads", OPT_INT, "1", "number of client connections", NULL, 1, 100000},
    {"events", OPT_SIZE, "0", "stop after this many transactions (0 = no limit; K/M/G/T x1024)", NULL, 0, 1e15},
    {"time", OPT_NUM, "10", "measured seconds (0 = no limit)", NULL, 0, 1e9},
    {"warmup-time", OPT_NUM, "0", "seconds run before measuring, excluded from all figures", NULL, 0, 1e9},
    {"ramp-timeout", OPT_NUM, "10", "a level's window opens once every connection has finished a transaction (uncounted, as a warmup: cold server backends take seconds at 1000 connections), or after this many seconds, when the level is marked disturbed (0 = at once; --events and --rate open theirs at once)", NULL, 0, 1e6},
    {"rate", OPT_NUM, "0", "average transactions/s, Poisson arrivals (0 = unlimited)", NULL, 0, 1e9},
    {"report-interval", OPT_NUM, "0", "print interim figures every N seconds (fractions down to 0.01 allowed; 0 = off)", NULL, 0, 1e6},
    {"percentile", OPT_LIST, "95", "latency percentile in sysbench's report line (0 = disabled, as sysbench); more (a list, or repeated) are shown in dbscale's figures"},
    {"histogram", OPT_BOOL, "off", "print sysbench's latency histogram before the report"},
    {"report-checkpoints", OPT_STR, NULL, "comma list of seconds: at each, the full report of the time since the previous one, then the counters start again (as sysbench)"},
    {"interval-output", OPT_STR, NULL, "write every --report-interval period's figures to this file: one JSON object per line, or CSV rows if it ends in .csv"},
    {"verbosity", OPT_INT, "3", "0-2: no report on stdout (errors still on stderr), 3: the report, 4: and how the run ended, 5: and debug lines (as sysbench)", NULL, 0, 5},
    {"forced-shutdown", OPT_STR, NULL, "after --time, wait N s (or N% of --time) for transactions still running, then report them and exit 2, as sysbench; off: wait as long as they take; unset: give them 1 s and count them unfinished"},
    {"output", OPT_CHOICE, "text", "report format", "text|json|csv"},
    {"client-loops", OPT_INT, "0", "event-loop threads driving the connections (0 = one per client CPU, at most one per connection)", NULL, 0, 1024},
    {"client-sched", OPT_CHOICE, "auto", "scheduling policy of the event loops: batch (SCHED_BATCH: a reply does not preempt the server thread that sent it, so a loop serves several per wake-up; a loop of one connection keeps the normal one), normal, or auto: batch for a loop of at least 2 connections (PostgreSQL) or 3 (MariaDB, whose server threads sleep between statements under a batch loop of fewer), normal with --rate (paced arrivals are sent on time)", "auto|batch|normal"},
    {"client-cpus", OPT_STR, NULL, "CPU list the client threads run on (e.g. 1 or 0-3)"},
    {"reconnect-timeout", OPT_NUM, "30", "seconds a lost connection may take to come back", NULL, 0, 1e6},
    {"thread-init-timeout", OPT_NUM, "0", "seconds all connections may take to open, as sysbench 1.1's (0 = no limit; they open 8 at a time)", NULL, 0, 1e6},
    /* random numbers */
    {"rand-type", OPT_CHOICE, "special", "random numbers distribution", "uniform|gaussian|special|pareto|zipfian"},
    {"rand-seed", OPT_INT, "0", "random seed (0 = from the clock)", NULL, 0, 9.2e18},
    {"rand-spec-iter", OPT_INT, "12", "iterations for the special/gaussian distributions", NULL, 1, 1000},
    {"rand-spec-pct", OPT_INT, "1", "percentage of values treated as special", NULL, 0, 100},
    {"rand-spec-res", OPT_INT, "75", "percentage of special values to use", NULL, 0, 99},
    {"rand-pareto-h", OPT_NUM, "0.2", "parameter h of the pareto distribution", NULL, 0.000001, 0.999999},
    {"rand-zipfian-exp", OPT_NUM, "0.8", "exponent of the zipfian distribution", NULL, 0, 100},
    /* workload, as oltp_common.lua */
    {"tables", OPT_INT, "1", "number of tables", NULL, 1, 100},
    {"table-size", OPT_SIZE, "10000", "rows per table (K/M/G/T x1024: 10K = 10240)", NULL, 0, 2147483647},
    {"range-size", OPT_INT, "100", "range size for range SELECTs", NULL, 1, 1e9},
    {"point-selects", OPT_INT, "10", "point SELECTs per transaction", NULL, 0, 1e6},
    {"simple-ranges", OPT_INT, "1", "simple range SELECTs per transaction", NULL, 0, 1e6},
    {"sum-ranges", OPT_INT, "1", "SELECT SUM() per transaction", NULL, 0, 1e6},
    {"order-ranges", OPT_INT, "1", "SELECT ORDER BY per transaction", NULL, 0, 1e6},
    {"distinct-ranges", OPT_INT, "1", "SELECT DISTINCT per transaction", NULL, 0, 1e6},
    {"index-updates", OPT_INT, "1", "UPDATE index per transaction", NULL, 0, 1e6},
    {"non-index-updates", OPT_INT, "1", "UPDATE non-index per transaction", NULL, 0, 1e6},
    {"delete-inserts", OPT_INT, "1", "DELETE/INSERT pairs per transaction", NULL, 0, 1e6},
    {"range-selects", OPT_BOOL, "on", "enable all range SELECTs"},
    {"skip-trx", OPT_BOOL, "off", "no BEGIN/COMMIT: every statement in autocommit"},
    {"auto-inc", OPT_BOOL, "on", "AUTO_INCREMENT/SERIAL primary key (off: client-generated ids)"},
    {"secondary", OPT_BOOL, "off", "secondary index in place of the PRIMARY KEY"},
    {"create-secondary", OPT_BOOL, "on", "create the secondary index on k"},
    {"mysql-storage-engine", OPT_STR, "innodb", "storage engine (MySQL)"},
    {"random-points", OPT_INT, "10", "points in the IN() of select_random_points", NULL, 1, 200},
    {"number-of-ranges", OPT_INT, "10", "BETWEEN ranges per select_random_ranges SELECT", NULL, 1, 100},
    {"delta", OPT_INT, "5", "size of select_random_ranges' ranges", NULL, 0, 1e9},
    /* connections */
    {"db-driver", OPT_CHOICE, "mysql", "database engine; unset, --pgsql-* connection options mean pgsql, else mysql (sysbench's default)", "mysql|pgsql|mariadb|postgresql"},
    {"db-ps-mode", OPT_CHOICE, "auto", "server-side prepared statements", "auto|disable"},
    {"db-debug", OPT_BOOL, "off", "print every statement the connections run, its parameters and outcome, on stderr (slows the run)"},
    {"db-ignore-errors", OPT_STR, NULL, "error codes retried after ROLLBACK, or 'all' (default, as sysbench: mysql 1213,1020,1205; pgsql 40P01,40001,23505)"},
    {"mysql-ignore-errors", OPT_STR, NULL, "sysbench's name for --db-ignore-errors"},
};
/* and after them */
static const struct optdef tail[] = {
    /* sysbench 1.0.20's deprecated names: they work, with its warning */
    {"test", OPT_STR, NULL, "the workload, sysbench's deprecated way (give it as a word)"},
    {"num-threads", OPT_ALIAS, "threads", NULL},
    {"max-time", OPT_ALIAS, "time", NULL},
    {"max-requests", OPT_ALIAS, "events", NULL},
    {"tx-rate", OPT_ALIAS, "rate", NULL},
    /* sysbench options dbscale does not do: refused, never accepted and ignored */
    {"thread-stack-size", OPT_REFUSED, NULL, "dbscale's connections are state machines on a few event-loop threads, not a thread each; there is no per-connection stack to size"},
    {"debug", OPT_REFUSED, NULL, "use --db-debug for the statements, --verbosity for more messages"},
    {"validate", OPT_REFUSED, NULL, "the built-in workloads check no results (sysbench's OLTP scripts do not either)"},
    {"version", OPT_REFUSED, NULL, "the version is a verb here: dbscale --version"},
};
/* clang-format on */

static struct optdef *all;
static size_t nall;

/* head, every engine's options, tail: made once, at the first ask (the
 * verbs' set-up, one thread) */
static void compose(void)
{
    if (all)
        return;
    size_t nh = sizeof head / sizeof head[0], nt = sizeof tail / sizeof tail[0], n = nh + nt;
    for (int e = 0; db_engines[e]; e++) {
        size_t k;
        db_engines[e]->options(&k);
        n += k;
    }
    all = xcalloc(n, sizeof *all);
    memcpy(all, head, sizeof head);
    nall = nh;
    for (int e = 0; db_engines[e]; e++) {
        size_t k;
        const struct optdef *d = db_engines[e]->options(&k);
        memcpy(all + nall, d, k * sizeof *d);
        nall += k;
    }
    memcpy(all + nall, tail, sizeof tail);
    nall += nt;
}

const struct optdef *oltp_optdefs(void)
{
    compose();
    return all;
}

size_t oltp_noptdefs(void)
{
    compose();
    return nall;
}

struct optdef *oltp_optdefs_with(const struct optdef *extra, size_t n, size_t *total)
{
    *total = oltp_noptdefs() + n;
    struct optdef *defs = xcalloc(*total, sizeof *defs);
    memcpy(defs, oltp_optdefs(), sizeof *defs * oltp_noptdefs());
    memcpy(defs + oltp_noptdefs(), extra, sizeof *extra * n);
    for (size_t i = 0; i < oltp_noptdefs(); i++)
        if (!strcmp(defs[i].name, "threads"))
            defs[i].type = OPT_COUNTS;
    return defs;
}

const char *oltp_workload_name(const char *arg, char *buf, size_t len)
{
    const char *base = strrchr(arg, '/');
    base = base ? base + 1 : arg;
    snprintf(buf, len, "%s", base);
    size_t l = strlen(buf);
    if (l > 4 && !strcmp(buf + l - 4, ".lua"))
        buf[l - 4] = '\0';
    return buf;
}

/* The shortest interim report period. A line every 10 ms is already more
 * than anyone reads, and below that an interval holds too few transactions
 * for its figures to mean anything, while the printing itself starts to
 * load the client being measured (1e-12 gave 13,000 lines a second). */
#define OLTP_MIN_REPORT_INTERVAL 0.01

/* Whether the verb's table has the option (sweep's lacks run's report
 * options: asking opts_* for one is an internal error). */
static int has_opt(const struct opts *o, const char *name)
{
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->defs[i].name, name))
            return 1;
    return 0;
}

/* --forced-shutdown=N|N%|off into the worker's grace (0 = its default,
 * < 0 = no limit); 0 with err when malformed. */
int oltp_forced_shutdown(const char *v, double time_s, double *grace, char *err, size_t errlen)
{
    if (!strcmp(v, "off")) {
        *grace = -1;
        return 1;
    }
    char num[32];
    size_t l = strlen(v);
    int pct = l > 0 && v[l - 1] == '%';
    double n;
    snprintf(num, sizeof num, "%.*s", (int)(pct ? l - 1 : l), v);
    if (l == 0 || l >= sizeof num || !isdigit((unsigned char)num[0]) || parse_num(num, &n) < 0) {
        snprintf(err, errlen, "--forced-shutdown: '%s' is not N (seconds), N%% (of --time) or off",
                 v);
        return 0;
    }
    if (pct) /* as sysbench: a whole number of seconds */
        n = floor(time_s * n / 100);
    *grace = n > 0 ? n : 1e-6; /* 0: give up at once */
    return 1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* --report-checkpoints=LIST: seconds > 0, ascending and each once. */
static int checkpoints(struct oltp_setup *s, const char *list, char *err, size_t errlen)
{
    for (const char *p = list;;) {
        size_t l = strcspn(p, ",");
        char item[32];
        double v;
        snprintf(item, sizeof item, "%.*s", (int)(l < 31 ? l : 31), p);
        if (l == 0 || l > 31 || !isdigit((unsigned char)item[0]) || parse_num(item, &v) < 0 ||
            v <= 0) {
            snprintf(err, errlen, "--report-checkpoints: '%s' is not a number of seconds above 0",
                     item);
            return -1;
        }
        if (s->nckpts == OLTP_MAX_CHECKPOINTS) {
            snprintf(err, errlen, "--report-checkpoints: more than %d points",
                     OLTP_MAX_CHECKPOINTS);
            return -1;
        }
        s->ckpts[s->nckpts++] = v;
        if (!p[l])
            break;
        p += l + 1;
    }
    qsort(s->ckpts, (size_t)s->nckpts, sizeof s->ckpts[0], cmp_double);
    int n = 0;
    for (int i = 0; i < s->nckpts; i++)
        if (!n || s->ckpts[i] != s->ckpts[n - 1])
            s->ckpts[n++] = s->ckpts[i];
    s->nckpts = n;
    return 0;
}

/* --db-ignore-errors: "all", or codes as the engines report them: MySQL
 * error numbers (at most 5 digits) or SQLSTATEs (5 capitals and digits). */
static int ignore_list_ok(const char *list)
{
    if (!strcmp(list, "all"))
        return 1;
    for (const char *p = list;;) {
        size_t l = strcspn(p, ",");
        size_t digits = strspn(p, "0123456789");
        int alnum = 1;
        for (size_t i = 0; i < l; i++)
            alnum &= isdigit((unsigned char)p[i]) || isupper((unsigned char)p[i]);
        if (l == 0 || !alnum || (digits != l && l != 5) || (digits == l && l > 5))
            return 0;
        if (!p[l])
            return 1;
        p += l + 1;
    }
}

/* The engine a connection option belongs to, or NULL: workload options
 * that merely carry an engine's name (the storage engine, sysbench's name
 * for the error list) connect to nothing. */
const struct db_ops *oltp_option_engine(const char *name)
{
    for (int e = 0; db_engines[e]; e++) {
        size_t n;
        const struct optdef *d = db_engines[e]->options(&n);
        for (size_t i = 0; i < n; i++)
            if (!strcmp(d[i].name, name))
                return db_engines[e];
    }
    return NULL;
}

const struct db_ops *oltp_engine(const struct opts *o, char *err, size_t errlen)
{
    const char *first[2] = {NULL, NULL}; /* the first option given, per engine */
    for (size_t i = 0; i < o->n; i++) {
        const struct db_ops *e = o->val[i] ? oltp_option_engine(o->defs[i].name) : NULL;
        if (e && !first[e == &db_pgsql_ops])
            first[e == &db_pgsql_ops] = o->defs[i].name;
    }
    if (opts_isset(o, "db-driver")) {
        const char *drv = opts_str(o, "db-driver");
        const struct db_ops *ops = db_find(drv);
        const char *other = first[ops != &db_pgsql_ops];
        if (other) {
            /* sysbench would leave it unused: a benchmark of the wrong server */
            snprintf(err, errlen, "--db-driver=%s conflicts with --%s (a %s option); drop one", drv,
                     other, ops == &db_pgsql_ops ? "MySQL" : "PostgreSQL");
            return NULL;
        }
        return ops;
    }
    if (first[0] && first[1]) {
        snprintf(err, errlen,
                 "--%s (MySQL) and --%s (PostgreSQL) name different engines; give --db-driver "
                 "and only that engine's options",
                 first[0], first[1]);
        return NULL;
    }
    return first[1] ? &db_pgsql_ops : db_find(opts_str(o, "db-driver"));
}

int oltp_client_sched(const struct opts *o, const struct db_ops *ops)
{
    return sched_policy_batch_from(opts_str(o, "client-sched"), ops->batch_min_conns,
                                   opts_num(o, "rate") > 0);
}

/* The built-in mix's settings (the workload's room checks them). */
static int workload_settings(struct oltp_setup *s, const struct opts *o, const char *workload,
                             char *err, size_t errlen)
{
    struct wl_config c = {0};
    c.name = workload;
    c.ops = s->ops;
    c.tables = (int)opts_int(o, "tables");
    c.table_size = (uint32_t)opts_int(o, "table-size");
    c.range_size = (unsigned)opts_int(o, "range-size");
    c.point_selects = (unsigned)opts_int(o, "point-selects");
    c.simple_ranges = (unsigned)opts_int(o, "simple-ranges");
    c.sum_ranges = (unsigned)opts_int(o, "sum-ranges");
    c.order_ranges = (unsigned)opts_int(o, "order-ranges");
    c.distinct_ranges = (unsigned)opts_int(o, "distinct-ranges");
    c.index_updates = (unsigned)opts_int(o, "index-updates");
    c.non_index_updates = (unsigned)opts_int(o, "non-index-updates");
    c.delete_inserts = (unsigned)opts_int(o, "delete-inserts");
    c.range_selects = opts_bool(o, "range-selects");
    c.skip_trx = opts_bool(o, "skip-trx");
    c.auto_inc = opts_bool(o, "auto-inc");
    c.secondary = opts_bool(o, "secondary");
    c.create_secondary = opts_bool(o, "create-secondary");
    c.random_points = (unsigned)opts_int(o, "random-points");
    c.number_of_ranges = (unsigned)opts_int(o, "number-of-ranges");
    c.delta = (unsigned)opts_int(o, "delta");
    c.mysql_storage_engine = opts_str(o, "mysql-storage-engine");
    /* it is pasted into DDL: an identifier, nothing else */
    for (const char *p = c.mysql_storage_engine; p && *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_') {
            snprintf(err, errlen, "--mysql-storage-engine: '%s' is not an engine name",
                     c.mysql_storage_engine);
            return -1;
        }
    if (rng_dist_init(&c.dist, opts_str(o, "rand-type"), (unsigned)opts_int(o, "rand-spec-iter"),
                      (unsigned)opts_int(o, "rand-spec-pct"),
                      (unsigned)opts_int(o, "rand-spec-res"), opts_num(o, "rand-pareto-h"),
                      opts_num(o, "rand-zipfian-exp")) < 0) {
        snprintf(err, errlen, "--rand-type and its parameters do not fit together");
        return -1;
    }
    if (workload_init(&s->wl, &c, err, errlen) < 0)
        return -1;
    return 0;
}

/* The percentiles shown: each --percentile, itself perhaps "95,99". */
static int percentiles(struct oltp_setup *s, const struct opts *o, char *err, size_t errlen)
{
    size_t npl;
    const char *const *pl = opts_list(o, "percentile", &npl);
    for (size_t k = 0; k < npl; k++) {
        const char *p = pl[k];
        for (;;) {
            double v;
            char item[32];
            size_t l = strcspn(p, ",");
            snprintf(item, sizeof item, "%.*s", (int)(l < 31 ? l : 31), p);
            if (l == 0 || parse_num(item, &v) < 0 || v < 0 || v > 100) {
                snprintf(err, errlen, "--percentile: '%s' is not a number in 0..100", item);
                return -1;
            }
            if (v > 0 && s->npcts < 8)
                s->pcts[s->npcts++] = v;
            if (!p[l])
                break;
            p += l + 1;
        }
    }
    return 0;
}

/* The client's settings: the loops, the window, the errors, the CPUs. */
static int worker_settings(struct oltp_setup *s, const struct opts *o, char *err, size_t errlen)
{
    struct worker_cfg *w = &s->wcfg;
    w->ops = s->ops;
    w->targets = s->targets;
    w->ntargets = s->ntargets;
    w->wl = &s->wl;
    w->seed = (uint64_t)opts_int(o, "rand-seed");
    if (w->seed == 0)
        w->seed = now_ns() ^ ((uint64_t)getpid() << 32);
    w->loops = (int)opts_int(o, "client-loops");
    w->rate = opts_num(o, "rate");
    w->batch_from = oltp_client_sched(o, s->ops);
    w->events = opts_int(o, "events");
    w->time_s = opts_num(o, "time");
    w->warmup_s = opts_num(o, "warmup-time");
    w->rep.interval_s = opts_num(o, "report-interval");
    if (w->rep.interval_s > 0 && w->rep.interval_s < OLTP_MIN_REPORT_INTERVAL) {
        snprintf(err, errlen,
                 "--report-interval: %g s is below the %g s minimum (0 turns the reports off)",
                 w->rep.interval_s, OLTP_MIN_REPORT_INTERVAL);
        return -1;
    }
    w->rep.pct = s->npcts ? s->pcts[0] : 95;
    const char *ign =
        opts_isset(o, "db-ignore-errors") ? "db-ignore-errors" : "mysql-ignore-errors";
    w->ignore_errors = opts_str(o, ign);
    if (w->ignore_errors && !ignore_list_ok(w->ignore_errors)) {
        snprintf(err, errlen,
                 "--%s: '%s' is not 'all' or a comma list of error codes (MySQL numbers of up "
                 "to 5 digits, PostgreSQL SQLSTATEs like 40P01)",
                 ign, w->ignore_errors);
        return -1;
    }
    w->reconnect_timeout = opts_num(o, "reconnect-timeout");
    w->init_timeout_s = opts_num(o, "thread-init-timeout");
    w->ramp_timeout_s = opts_num(o, "ramp-timeout");
    /* sweep's table leaves out what only a run's report uses */
    s->verbosity = has_opt(o, "verbosity") ? (int)opts_int(o, "verbosity") : 3;
    const char *fs = opts_str(o, "forced-shutdown");
    if (fs && !oltp_forced_shutdown(fs, w->time_s, &w->grace_s, err, errlen))
        return -1;
    s->forced = fs && w->grace_s > 0;
    const char *ck = has_opt(o, "report-checkpoints") ? opts_str(o, "report-checkpoints") : NULL;
    if (ck && checkpoints(s, ck, err, errlen) < 0)
        return -1;
    w->rep.checkpoints = s->ckpts;
    w->rep.ncheckpoints = s->nckpts;
    w->client_cpus = opts_str(o, "client-cpus");
    /* checked here, once, for run and sweep: a bad list must not run unpinned
     * (same/rest are the sweep's words; the run verb refuses them) */
    if (w->client_cpus && strcmp(w->client_cpus, "same") != 0 &&
        strcmp(w->client_cpus, "rest") != 0) {
        char why[256];
        if (cpulist_check_online(w->client_cpus, why, sizeof why) < 0) {
            snprintf(err, errlen, "--client-cpus=%.64s: %s", w->client_cpus, why);
            return -1;
        }
    }
    if (w->time_s == 0 && w->events == 0) {
        snprintf(err, errlen, "--time=0 and --events=0: the run would never end");
        return -1;
    }
    return 0;
}

int oltp_setup(struct oltp_setup *s, const struct opts *o, const char *workload, char *err,
               size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->ops = oltp_engine(o, err, errlen);
    if (!s->ops)
        return -1;
    if (oltp_conn_dry_run(s, o, err, errlen) < 0)
        return -1;
    if (workload_settings(s, o, workload, err, errlen) < 0)
        return -1;
    /* connection targets: every host with every port (client/oltp_conn.c) */
    if (oltp_conn_targets(s, o, err, errlen) < 0)
        return -1;
    if (percentiles(s, o, err, errlen) < 0)
        return -1;
    return worker_settings(s, o, err, errlen);
}

void oltp_setup_free(struct oltp_setup *s)
{
    workload_free(&s->wl);
    free(s->targets);
    free(s->hosts);
    memset(s, 0, sizeof *s);
}

/* ---- the server's connection limit ---- */

int oltp_check_connections(const struct oltp_setup *s, long long threads, char *err, size_t errlen)
{
    struct db_error e = {0};
    struct db_conn *c = s->ops->connect(&s->targets[0], &e);
    if (!c)
        return 0;
    char *v = s->ops->query_value(c, s->ops->max_connections_sql, &e);
    char *r = s->ops->reserved_connections_sql
                  ? s->ops->query_value(c, s->ops->reserved_connections_sql, &e)
                  : NULL;
    long long limit = v ? atoll(v) - (r ? atoll(r) : 0) : -1;
    free(v);
    free(r);
    s->ops->close(c);
    if (limit > 0 && threads + 1 > limit) {
        snprintf(err, errlen,
                 "%lld threads need %lld connections (plus one for dbscale's own queries) but "
                 "the server accepts %lld (max_connections); raise max_connections or lower "
                 "--threads",
                 threads, threads, limit);
        return -1;
    }
    return 0;
}
