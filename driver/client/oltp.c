/*
 * oltp.c - prepare, run and cleanup, the way sysbench users type them.
 *
 * A sysbench command line works after swapping the program name: options
 * keep sysbench's names and defaults, the workload may be given as a .lua
 * path, and the command word may come last (main.c reorders). What sysbench
 * lacks but engineers need (host lists, conninfo strings, option files, the
 * client's own CPU per transaction) is added beside, never instead.
 */
#include "oltp.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "util.h"
#include "verbs.h"

/* clang-format off */
const struct optdef oltp_optdefs[] = {
    {"config", OPT_STR, NULL, "read options from this INI file (keys are option names)"},
    /* general, as sysbench */
    {"threads", OPT_INT, "1", "number of client connections", NULL, 1, 100000},
    {"events", OPT_INT, "0", "stop after this many transactions (0 = no limit)", NULL, 0, 1e15},
    {"time", OPT_NUM, "10", "measured seconds (0 = no limit)", NULL, 0, 1e9},
    {"warmup-time", OPT_NUM, "0", "seconds run before measuring, excluded from all figures", NULL, 0, 1e9},
    {"rate", OPT_NUM, "0", "average transactions/s, Poisson arrivals (0 = unlimited)", NULL, 0, 1e9},
    {"report-interval", OPT_NUM, "0", "print interim figures every N seconds (fractions allowed; 0 = off)", NULL, 0, 1e6},
    {"percentile", OPT_LIST, "95", "latency percentile to report (may be repeated)"},
    {"histogram", OPT_BOOL, "off", "accepted for sysbench compatibility"},
    {"verbosity", OPT_INT, "3", "accepted for sysbench compatibility", NULL, 0, 5},
    {"forced-shutdown", OPT_STR, "off", "accepted for sysbench compatibility"},
    {"output", OPT_CHOICE, "text", "report format", "text|json|csv"},
    {"client-loops", OPT_INT, "0", "event-loop threads driving the connections (0 = one per client CPU, at most one per connection)", NULL, 0, 1024},
    {"client-cpus", OPT_STR, NULL, "CPU list the client threads run on (e.g. 1 or 0-3)"},
    {"reconnect-timeout", OPT_NUM, "30", "seconds a lost connection may take to come back", NULL, 0, 1e6},
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
    {"table-size", OPT_INT, "10000", "rows per table", NULL, 0, 2147483647},
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
    {"db-driver", OPT_CHOICE, "mysql", "database engine (sysbench's default is mysql)", "mysql|pgsql|mariadb|postgresql"},
    {"db-ps-mode", OPT_CHOICE, "auto", "server-side prepared statements", "auto|disable"},
    {"db-ignore-errors", OPT_STR, NULL, "error codes retried after ROLLBACK, or 'all' (default: deadlocks, serialization failures, lock wait timeouts, duplicate keys)"},
    {"mysql-ignore-errors", OPT_STR, NULL, "sysbench's name for --db-ignore-errors"},
    {"pgsql-host", OPT_STR, "localhost", "PostgreSQL host(s), comma-separated: connections spread round-robin"},
    {"pgsql-port", OPT_INT, "5432", "PostgreSQL port", NULL, 1, 65535},
    {"pgsql-user", OPT_STR, "sbtest", "PostgreSQL user"},
    {"pgsql-password", OPT_SECRET, NULL, "PostgreSQL password (prefer PGPASSWORD or PGPASSFILE)"},
    {"pgsql-db", OPT_STR, "sbtest", "PostgreSQL database"},
    {"pgsql-conninfo", OPT_STR, NULL, "libpq conninfo string or URI; wins over the pgsql-* options"},
    {"mysql-host", OPT_STR, "localhost", "MySQL host(s), comma-separated: connections spread round-robin"},
    {"mysql-port", OPT_INT, "3306", "MySQL port", NULL, 1, 65535},
    {"mysql-socket", OPT_STR, NULL, "MySQL unix socket"},
    {"mysql-user", OPT_STR, "sbtest", "MySQL user"},
    {"mysql-password", OPT_SECRET, NULL, "MySQL password (prefer --mysql-defaults-file)"},
    {"mysql-db", OPT_STR, "sbtest", "MySQL database"},
    {"mysql-defaults-file", OPT_STR, NULL, "MariaDB option file ([client] user, password, host ...)"},
};
/* clang-format on */
const size_t oltp_noptdefs = sizeof oltp_optdefs / sizeof oltp_optdefs[0];

struct optdef *oltp_optdefs_with(const struct optdef *extra, size_t n, size_t *total)
{
    *total = oltp_noptdefs + n;
    struct optdef *defs = xcalloc(*total, sizeof *defs);
    memcpy(defs, oltp_optdefs, sizeof oltp_optdefs[0] * oltp_noptdefs);
    memcpy(defs + oltp_noptdefs, extra, sizeof *extra * n);
    for (size_t i = 0; i < oltp_noptdefs; i++)
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

/* An option set explicitly wins; otherwise an engine environment variable
 * (PGHOST, ...) is left for the library to read; otherwise sysbench's default. */
static const char *conn_opt(const struct opts *o, const char *name, const char *env)
{
    if (opts_isset(o, name))
        return opts_str(o, name);
    if (env && getenv(env))
        return NULL;
    return opts_str(o, name);
}

int oltp_setup(struct oltp_setup *s, const struct opts *o, const char *workload, char *err,
               size_t errlen)
{
    memset(s, 0, sizeof *s);
    const char *drv = opts_str(o, "db-driver");
    s->ops = db_find(drv);
    int pg = s->ops == &db_pgsql_ops;
    struct wl_config c = {0};
    c.name = workload;
    c.engine = pg ? "pgsql" : "mysql";
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

    /* connection targets: one per host in the comma list */
    const char *hosts = pg ? conn_opt(o, "pgsql-host", "PGHOST")
                           : (opts_isset(o, "mysql-socket") && !opts_isset(o, "mysql-host")
                                  ? NULL
                                  : conn_opt(o, "mysql-host", NULL));
    s->hosts = xstrdup(hosts ? hosts : "");
    int nh = 1;
    for (char *p = s->hosts; *p; p++)
        nh += *p == ',';
    s->targets = xcalloc((size_t)nh, sizeof *s->targets);
    char *save = NULL, *tok = strtok_r(s->hosts, ",", &save);
    do {
        struct db_target *t = &s->targets[s->ntargets++];
        t->host = tok && *tok ? tok : NULL;
        t->ps = strcmp(opts_str(o, "db-ps-mode"), "disable") != 0;
        if (pg) {
            t->port = opts_isset(o, "pgsql-port") || !getenv("PGPORT")
                          ? (int)opts_int(o, "pgsql-port")
                          : 0;
            t->user = conn_opt(o, "pgsql-user", "PGUSER");
            t->password = opts_str(o, "pgsql-password");
            t->db = conn_opt(o, "pgsql-db", "PGDATABASE");
            t->conninfo = opts_str(o, "pgsql-conninfo");
            if (t->conninfo) {
                /* the conninfo says where; sysbench defaults must not override it */
                if (!opts_isset(o, "pgsql-host"))
                    t->host = NULL;
                if (!opts_isset(o, "pgsql-port"))
                    t->port = 0;
                if (!opts_isset(o, "pgsql-user"))
                    t->user = NULL;
            }
        } else {
            t->port = (int)opts_int(o, "mysql-port");
            t->socket = opts_str(o, "mysql-socket");
            t->user = opts_str(o, "mysql-user");
            t->password = opts_str(o, "mysql-password");
            t->db = opts_str(o, "mysql-db");
            t->defaults_file = opts_str(o, "mysql-defaults-file");
            struct stat dst; /* libmariadb ignores a missing file: the user would become root */
            if (t->defaults_file && (stat(t->defaults_file, &dst) < 0 || !S_ISREG(dst.st_mode) ||
                                     access(t->defaults_file, R_OK) < 0)) {
                snprintf(err, errlen, "--mysql-defaults-file=%s: not a readable file",
                         t->defaults_file);
                return -1;
            }
            if (t->defaults_file && !opts_isset(o, "mysql-user"))
                t->user = NULL; /* let the option file say who */
        }
    } while ((tok = strtok_r(NULL, ",", &save)) != NULL);

    /* percentiles */
    const char *pl = opts_str(o, "percentile");
    for (const char *p = pl; p && *p && s->npcts < 8;) {
        double v;
        char item[32];
        const char *comma = strchr(p, ',');
        size_t l = comma ? (size_t)(comma - p) : strlen(p);
        snprintf(item, sizeof item, "%.*s", (int)(l < 31 ? l : 31), p);
        if (parse_num(item, &v) < 0 || v < 0 || v > 100) {
            snprintf(err, errlen, "--percentile: '%s' is not a number in 0..100", item);
            return -1;
        }
        if (v > 0)
            s->pcts[s->npcts++] = v;
        p += l + (comma ? 1 : 0);
    }

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
    w->events = opts_int(o, "events");
    w->time_s = opts_num(o, "time");
    w->warmup_s = opts_num(o, "warmup-time");
    w->report_interval = opts_num(o, "report-interval");
    w->report_pct = s->npcts ? s->pcts[0] : 95;
    w->ignore_errors = opts_isset(o, "db-ignore-errors") ? opts_str(o, "db-ignore-errors")
                                                         : opts_str(o, "mysql-ignore-errors");
    w->reconnect_timeout = opts_num(o, "reconnect-timeout");
    w->client_cpus = opts_str(o, "client-cpus");
    if (w->time_s == 0 && w->events == 0) {
        snprintf(err, errlen, "--time=0 and --events=0: the run would never end");
        return -1;
    }
    return 0;
}

void oltp_setup_free(struct oltp_setup *s)
{
    workload_free(&s->wl);
    free(s->targets);
    free(s->hosts);
    memset(s, 0, sizeof *s);
}

/* ---- prepare / cleanup: one connection per table, in parallel ---- */

struct table_job {
    const struct oltp_setup *s;
    int table;
    FILE *log;
    int rc;
    char err[600];
    pthread_mutex_t *log_mu;
};

static int ddl(const struct oltp_setup *s, struct db_conn *c, const char *section, int n, char *err,
               size_t errlen)
{
    char *sql = workload_ddl(&s->wl, section, n, err, errlen);
    if (!sql)
        return -1;
    struct db_error e = {0};
    int rc = db_exec(s->ops, c, sql, &e);
    if (rc < 0)
        snprintf(err, errlen, "sbtest%d: %s", n, e.msg);
    free(sql);
    return rc;
}

static void say(struct table_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct table_job *j, const char *fmt, ...)
{
    if (!j->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(j->log_mu);
    vfprintf(j->log, fmt, ap);
    fflush(j->log);
    pthread_mutex_unlock(j->log_mu);
    va_end(ap);
}

static void *prepare_table(void *arg)
{
    struct table_job *j = arg;
    const struct oltp_setup *s = j->s;
    struct db_error e = {0};
    struct db_conn *c = s->ops->connect(&s->targets[j->table % s->ntargets], &e);
    j->rc = -1;
    if (!c) {
        snprintf(j->err, sizeof j->err, "%s", e.msg);
        return NULL;
    }
    int n = j->table;
    say(j, "Creating table 'sbtest%d'...\n", n);
    if (ddl(s, c, "create", n, j->err, sizeof j->err) < 0)
        goto out;
    /* oltp_insert with client-generated ids starts empty, as in sysbench */
    uint32_t rows = s->wl.cfg.table_size;
    if (!strcmp(s->wl.cfg.name, "oltp_insert") && !s->wl.cfg.auto_inc)
        rows = 0;
    if (rows > 0) {
        say(j, "Inserting %u records into 'sbtest%d'\n", rows, n);
        char table[32], vals[4][128];
        const char *vp[4] = {vals[0], vals[1], vals[2], vals[3]};
        snprintf(table, sizeof table, "sbtest%d", n);
        struct rng r;
        rng_seed(&r, s->wcfg.seed, 1000003u * (uint64_t)n);
        if (s->ops->bulk_begin(c, table, workload_load_cols(&s->wl), &e) < 0)
            goto dberr;
        for (uint32_t i = 1; i <= rows; i++) {
            int nv = workload_load_row(&s->wl, &r, i, vals);
            if (s->ops->bulk_row(c, vp, nv, &e) < 0)
                goto dberr;
        }
        if (s->ops->bulk_end(c, &e) < 0)
            goto dberr;
    }
    if (s->wl.cfg.create_secondary) {
        say(j, "Creating a secondary index on 'sbtest%d'...\n", n);
        if (ddl(s, c, "index", n, j->err, sizeof j->err) < 0)
            goto out;
    }
    j->rc = 0;
    goto out;
dberr:
    snprintf(j->err, sizeof j->err, "sbtest%d: %s", n, e.msg);
out:
    s->ops->close(c);
    return NULL;
}

static void *cleanup_table(void *arg)
{
    struct table_job *j = arg;
    const struct oltp_setup *s = j->s;
    struct db_error e = {0};
    struct db_conn *c = s->ops->connect(&s->targets[0], &e);
    j->rc = -1;
    if (!c) {
        snprintf(j->err, sizeof j->err, "%s", e.msg);
        return NULL;
    }
    say(j, "Dropping table 'sbtest%d'...\n", j->table);
    j->rc = ddl(s, c, "drop", j->table, j->err, sizeof j->err);
    s->ops->close(c);
    return NULL;
}

static int for_each_table(const struct oltp_setup *s, void *(*fn)(void *), FILE *log, char *err,
                          size_t errlen)
{
    int n = s->wl.cfg.tables;
    struct table_job *jobs = xcalloc((size_t)n, sizeof *jobs);
    pthread_t *th = xcalloc((size_t)n, sizeof *th);
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    /* sbtest1 first on its own: if the server is unreachable or the table
     * exists, one clear message instead of one per table */
    int rc = 0;
    for (int i = 0; i < n; i++) {
        jobs[i] = (struct table_job){.s = s, .table = i + 1, .log = log, .log_mu = &mu};
        if (i == 0) {
            fn(&jobs[0]);
            if (jobs[0].rc < 0)
                break;
            continue;
        }
        pthread_create(&th[i], NULL, fn, &jobs[i]);
    }
    for (int i = 1; i < n && jobs[0].rc == 0; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < n; i++)
        if (jobs[i].rc < 0 && rc == 0) {
            snprintf(err, errlen, "%s", jobs[i].err);
            rc = -1;
        }
    free(jobs);
    free(th);
    return rc;
}

int oltp_prepare(const struct oltp_setup *s, FILE *log, char *err, size_t errlen)
{
    return for_each_table(s, prepare_table, log, err, errlen);
}

int oltp_cleanup(const struct oltp_setup *s, FILE *log, char *err, size_t errlen)
{
    return for_each_table(s, cleanup_table, log, err, errlen);
}

int oltp_check_connections(const struct oltp_setup *s, long long threads, char *err, size_t errlen)
{
    struct db_error e = {0};
    struct db_conn *c = s->ops->connect(&s->targets[0], &e);
    if (!c)
        return 0;
    int pg = s->ops == &db_pgsql_ops;
    /* SHOW, not SELECT: the check must not add to the server's Com_select */
    char *v = s->ops->query_value(
        c, pg ? "SHOW max_connections" : "SHOW GLOBAL VARIABLES LIKE 'max_connections'", &e);
    /* PostgreSQL keeps superuser_reserved_connections (3) out of reach */
    char *r = pg ? s->ops->query_value(c, "SHOW superuser_reserved_connections", &e) : NULL;
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

/* ---- the verbs ---- */

static struct pool *volatile running_pool;

static void on_signal(int sig)
{
    (void)sig;
    if (running_pool)
        pool_stop(running_pool);
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
    opts_help(o, f);
}

int oltp_main(const char *verb, int argc, char **argv)
{
    struct opts o;
    opts_init(&o, oltp_optdefs, oltp_noptdefs);
    char err[700], *pos[2];
    int npos = 0;
    int r = opts_parse_argv(&o, argc, argv, 1, pos, 2, &npos, err, sizeof err);
    if (r == 1) {
        usage(verb, &o, stdout);
        opts_free(&o);
        return 0;
    }
    if (r < 0 || npos != 1) {
        if (r < 0)
            fprintf(stderr, "dbscale %s: %s\n", verb, err);
        else
            fprintf(stderr, "dbscale %s: %s\n", verb,
                    npos ? "give one workload" : "which workload? (e.g. oltp_read_only)");
        fprintf(stderr, "(see: dbscale %s --help)\n", verb);
        opts_free(&o);
        return EXIT_USAGE;
    }
    char name[128];
    oltp_workload_name(pos[0], name, sizeof name);
    struct oltp_setup s;
    if (oltp_setup(&s, &o, name, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale %s: %s\n(see: dbscale %s --help)\n", verb, err, verb);
        oltp_setup_free(&s);
        opts_free(&o);
        return EXIT_USAGE;
    }
    int rc = 0;
    if (!strcmp(verb, "prepare") || !strcmp(verb, "cleanup")) {
        printf("dbscale %s (sysbench-compatible)\n\n", DBSCALE_VERSION);
        int (*fn)(const struct oltp_setup *, FILE *, char *, size_t) =
            verb[0] == 'p' ? oltp_prepare : oltp_cleanup;
        if (fn(&s, stdout, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale %s: %s\n", verb, err);
            rc = EXIT_RUNTIME;
        }
    } else {
        const char *out = opts_str(&o, "output");
        int text = !strcmp(out, "text");
        FILE *rep = text ? stdout : stderr; /* machine output stays clean */
        if (text) {
            printf("dbscale %s (sysbench-compatible)\n\nRunning the test with following "
                   "options:\nNumber of threads: %lld\n",
                   DBSCALE_VERSION, opts_int(&o, "threads"));
            if (s.wcfg.report_interval > 0)
                printf("Report intermediate results every %g second(s)\n", s.wcfg.report_interval);
            printf("Initializing random number generator from %s\n\n",
                   opts_int(&o, "rand-seed") ? "seed" : "current time");
            printf("Initializing worker threads...\n\n");
            fflush(stdout);
        }
        s.wcfg.on_interval = report_interval;
        s.wcfg.on_interval_arg = rep;
        int threads = (int)opts_int(&o, "threads");
        struct pool *p = NULL;
        if (oltp_check_connections(&s, threads, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale run: %s\n", err);
            rc = EXIT_USAGE;
        } else if (!(p = pool_open(&s.wcfg, threads, err, sizeof err))) {
            fprintf(stderr, "dbscale run: %s\n", err);
            rc = EXIT_RUNTIME;
        } else {
            struct sigaction sa = {0}, old_int, old_term;
            sa.sa_handler = on_signal;
            sigemptyset(&sa.sa_mask);
            running_pool = p;
            sigaction(SIGINT, &sa, &old_int);
            sigaction(SIGTERM, &sa, &old_term);
            if (text) {
                printf("Threads started!\n\n");
                fflush(stdout);
            }
            struct level_result res;
            int pr = pool_run(p, threads, &res);
            sigaction(SIGINT, &old_int, NULL);
            sigaction(SIGTERM, &old_term, NULL);
            running_pool = NULL;
            if (pr < 0)
                fprintf(stderr, "dbscale run: stopped: %s\n", res.fatal_msg);
            if (text) {
                if (s.wcfg.report_interval > 0)
                    printf("\n");
                report_text(stdout, &res, s.pcts, s.npcts);
            } else if (!strcmp(out, "json")) {
                report_json(stdout, &res, s.pcts, s.npcts);
            } else {
                report_csv(stdout, &res, 1);
            }
            rc = pr < 0 ? EXIT_RUNTIME : pr == 1 ? 130 : 0;
            level_result_free(&res);
            pool_close(p);
        }
    }
    oltp_setup_free(&s);
    opts_free(&o);
    return rc;
}
