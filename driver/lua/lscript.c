/*
 * lscript.c - a sysbench Lua script's life: its options, its commands and
 * its run, each thread with its own Lua state (lapi.c) and connection.
 *
 * The one idea: sysbench's shape, kept plain. Every thread opens its own
 * state, so per-thread globals (con, stmt, param) are the script's own;
 * thread_run paces itself through three callbacks here that time each event
 * into the thread's histogram. Nothing here prints or exits: a failure is a
 * message naming the script, line and thread.
 */
#include <lauxlib.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "lscript.h"
#include "util.h"

static volatile sig_atomic_t stop_asked;

void lscript_stop(void)
{
    stop_asked = 1;
}

static char *keep(struct lscript_opts *x, const char *s)
{
    x->strs = xrealloc(x->strs, (x->nstrs + 1) * sizeof *x->strs);
    return x->strs[x->nstrs++] = xstrdup(s);
}

void lscript_opts_free(struct lscript_opts *x)
{
    for (size_t i = 0; i < x->nstrs; i++)
        free(x->strs[i]);
    free(x->strs);
    free(x->defs);
    memset(x, 0, sizeof *x);
}

static int known(const struct optdef *base, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(base[i].name, name))
            return 1;
    return 0;
}

int lscript_options(const struct lapi_script *s, const struct optdef *base, size_t nbase,
                    struct lscript_opts *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct lapi_thread t = {.tid = 0, .s = s};
    lua_State *L = lapi_open(&t, err, errlen);
    if (!L)
        return -1;
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "cmdline");
    lua_getfield(L, -1, "options");
    if (!lua_istable(L, -1)) {
        lua_close(L);
        return 0;
    }
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1)) {
            snprintf(err, errlen,
                     "%s: sysbench.cmdline.options: each entry must be "
                     "name = {description, default}",
                     s->path);
            lua_close(L);
            lscript_opts_free(out);
            return -1;
        }
        char name[128];
        snprintf(name, sizeof name, "%s", lua_tostring(L, -2));
        for (char *p = name; *p; p++)
            if (*p == '_')
                *p = '-';
        if (!known(base, nbase, name)) {
            struct optdef d = {0};
            d.name = keep(out, name);
            lua_rawgeti(L, -1, 1);
            d.help = keep(out, lua_isstring(L, -1) ? lua_tostring(L, -1) : "(a script option)");
            lua_pop(L, 1);
            lua_rawgeti(L, -1, 2);
            switch (lua_type(L, -1)) {
            case LUA_TNUMBER:
                d.type = OPT_NUM;
                d.def = keep(out, lua_tostring(L, -1));
                break;
            case LUA_TBOOLEAN:
                d.type = OPT_BOOL;
                d.def = lua_toboolean(L, -1) ? "on" : "off";
                break;
            case LUA_TSTRING:
                d.type = OPT_STR;
                d.def = keep(out, lua_tostring(L, -1));
                break;
            case LUA_TTABLE: {
                d.type = OPT_LIST;
                struct sbuf b = {0};
                for (int i = 1;; i++) {
                    lua_rawgeti(L, -1, i);
                    if (lua_isnil(L, -1)) {
                        lua_pop(L, 1);
                        break;
                    }
                    sbuf_printf(&b, "%s%s", i > 1 ? "," : "", lua_tostring(L, -1));
                    lua_pop(L, 1);
                }
                d.def = keep(out, b.s ? b.s : "");
                sbuf_free(&b);
                break;
            }
            default:
                d.type = OPT_STR;
            }
            lua_pop(L, 1);
            out->defs = xrealloc(out->defs, (out->n + 1) * sizeof *out->defs);
            out->defs[out->n++] = d;
        }
        lua_pop(L, 1);
    }
    lua_close(L);
    return 0;
}

/* commands[cmd] as {fn, parallel} on the stack (1) or nothing (0). */
static int find_command(lua_State *L, const char *cmd, int *parallel)
{
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "cmdline");
    lua_getfield(L, -1, "commands");
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, cmd);
        if (lua_istable(L, -1)) {
            lua_rawgeti(L, -1, 2);
            *parallel = lua_toboolean(L, -1);
            lua_pop(L, 1);
            lua_rawgeti(L, -1, 1);
            lua_replace(L, -5);
            lua_pop(L, 3);
            if (lua_isfunction(L, -1))
                return 1;
            lua_pop(L, 1);
            return 0;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 3);
    *parallel = 0;
    lua_getglobal(L, cmd);
    if (lua_isfunction(L, -1))
        return 1;
    lua_pop(L, 1);
    return 0;
}

int lscript_has_command(const struct lapi_script *s, const char *cmd, char *err, size_t errlen)
{
    struct lapi_thread t = {.tid = 0, .s = s};
    lua_State *L = lapi_open(&t, err, errlen);
    if (!L)
        return -1;
    int par, r = find_command(L, cmd, &par);
    lua_close(L);
    return r;
}

struct cmd_thread {
    const struct lapi_script *s;
    struct lapi_thread t;
    pthread_t th;
    int failed;
    char err[700];
};

static void *cmd_main(void *arg)
{
    struct cmd_thread *c = arg;
    lua_State *L = lapi_open(&c->t, c->err, sizeof c->err);
    if (!L) {
        c->failed = 1;
        return NULL;
    }
    int par;
    if (find_command(L, c->s->command, &par) && lapi_pcall(L, 0, c->err, sizeof c->err) < 0)
        c->failed = 1;
    lua_close(L);
    return NULL;
}

int lscript_command(const struct lapi_script *s, char *err, size_t errlen)
{
    struct lapi_thread t;
    lapi_thread_seed(&t, s, 0);
    lua_State *L = lapi_open(&t, err, errlen);
    if (!L)
        return -1;
    int par;
    if (!find_command(L, s->command, &par)) {
        snprintf(err, errlen, "%s: the script has no '%s' command", s->path, s->command);
        lua_close(L);
        return -2;
    }
    if (!par) {
        int r = lapi_pcall(L, 0, err, errlen);
        lua_close(L);
        return r;
    }
    lua_close(L);
    int n = s->threads;
    struct cmd_thread *ct = xcalloc((size_t)n, sizeof *ct);
    int started = 0, rc = 0;
    for (int i = 0; i < n; i++) {
        ct[i].s = s;
        lapi_thread_seed(&ct[i].t, s, i);
        if (pthread_create(&ct[i].th, NULL, cmd_main, &ct[i]) != 0) {
            snprintf(err, errlen, "cannot start thread %d", i);
            rc = -1;
            break;
        }
        started++;
    }
    for (int i = 0; i < started; i++) {
        pthread_join(ct[i].th, NULL);
        if (ct[i].failed && rc == 0) {
            snprintf(err, errlen, "thread %d: %s", i, ct[i].err);
            rc = -1;
        }
    }
    free(ct);
    return rc;
}

/* ---- run ---- */

struct run_shared {
    const struct lscript_limits *lim;
    pthread_barrier_t ready;
    atomic_int stop;
    atomic_llong events;
    /* ns, 0 = none; set again once every thread_init is done, while the
     * threads may already read it */
    _Atomic uint64_t deadline;
};

struct run_thread {
    struct run_shared *sh;
    struct lapi_thread t;
    pthread_t th;
    struct hist *lat;
    uint64_t t0, busy_ns, done;
    int failed;
    char err[700];
};

static int more(struct lapi_thread *t)
{
    struct run_thread *r = t->run;
    struct run_shared *sh = r->sh;
    if (stop_asked || atomic_load_explicit(&sh->stop, memory_order_relaxed))
        return 0;
    uint64_t dl = atomic_load_explicit(&sh->deadline, memory_order_relaxed);
    if (dl && now_ns() >= dl)
        return 0;
    if (sh->lim->events > 0 && atomic_fetch_add(&sh->events, 1) >= sh->lim->events)
        return 0;
    return 1;
}

static void ev_start(struct lapi_thread *t)
{
    ((struct run_thread *)t->run)->t0 = now_ns();
}

static void ev_stop(struct lapi_thread *t)
{
    struct run_thread *r = t->run;
    uint64_t d = now_ns() - r->t0;
    hist_record(r->lat, d);
    r->busy_ns += d;
    r->done++;
    lapi_count(t, SB_CNT_TRX);
}

static void *run_main(void *arg)
{
    struct run_thread *r = arg;
    lua_State *L = lapi_open(&r->t, r->err, sizeof r->err);
    int ok = L && lapi_call(L, "thread_init", 1, r->err, sizeof r->err) >= 0;
    if (!ok) {
        r->failed = 1;
        atomic_store(&r->sh->stop, 1);
    }
    pthread_barrier_wait(&r->sh->ready);
    if (ok) {
        lua_getglobal(L, "thread_run");
        lua_pushnumber(L, r->t.tid);
        if (lapi_pcall(L, 1, r->err, sizeof r->err) < 0) {
            r->failed = 1;
            atomic_store(&r->sh->stop, 1);
        } else if (lapi_call(L, "thread_done", 1, r->err, sizeof r->err) < 0) {
            r->failed = 1;
        }
    }
    if (L)
        lua_close(L);
    return NULL;
}

/* ---- --report-interval ---- */

struct ticker {
    const struct lscript_limits *lim;
    struct run_thread *rt;
    int n;
    uint64_t t0;
    atomic_int done;
    pthread_t th;
};

static void sum_counts(const struct ticker *k, uint64_t c[SB_CNT_MAX], struct hist *h)
{
    memset(c, 0, SB_CNT_MAX * sizeof *c);
    hist_init(h);
    for (int i = 0; i < k->n; i++) {
        for (int j = 0; j < SB_CNT_MAX; j++)
            c[j] += lapi_counter(&k->rt[i].t, j);
        hist_merge(h, k->rt[i].lat); /* readable while written: hist.h */
    }
}

static void *tick_main(void *arg)
{
    struct ticker *k = arg;
    struct hist *prev = xmalloc(sizeof *prev), *cur = xmalloc(sizeof *cur), *d = xmalloc(sizeof *d);
    uint64_t pc[SB_CNT_MAX], cc[SB_CNT_MAX];
    sum_counts(k, pc, prev);
    uint64_t step = (uint64_t)(k->lim->interval_s * 1e9), next = k->t0 + step, last = k->t0;
    while (!atomic_load(&k->done)) {
        uint64_t now = now_ns();
        if (now < next) {
            uint64_t w = next - now < 50000000 ? next - now : 50000000; /* notice the end */
            struct timespec ts = {(time_t)(w / 1000000000u), (long)(w % 1000000000u)};
            nanosleep(&ts, NULL);
            continue;
        }
        sum_counts(k, cc, cur);
        hist_diff(d, cur, prev);
        double dt = (double)(now - last) / 1e9;
        struct interval_stats st = {
            .t = (double)(next - k->t0) / 1e9, /* the period's scheduled end: "[ 2s ]" */
            .dt = dt,
            .threads = k->n,
            .tps = (double)(cc[SB_CNT_TRX] - pc[SB_CNT_TRX]) / dt,
            .reads = (double)(cc[SB_CNT_READ] - pc[SB_CNT_READ]) / dt,
            .writes = (double)(cc[SB_CNT_WRITE] - pc[SB_CNT_WRITE]) / dt,
            .others = (double)(cc[SB_CNT_OTHER] - pc[SB_CNT_OTHER]) / dt,
            .pct = k->lim->pct,
            .lat_ms = (double)hist_percentile(d, k->lim->pct) / 1e6,
            .errors = (double)(cc[SB_CNT_ERROR] - pc[SB_CNT_ERROR]) / dt,
            .reconnects = (double)(cc[SB_CNT_RECONNECT] - pc[SB_CNT_RECONNECT]) / dt,
        };
        k->lim->on_interval(&st, k->lim->on_interval_arg);
        memcpy(pc, cc, sizeof pc);
        hist_copy(prev, cur);
        last = now;
        next += step;
    }
    free(prev);
    free(cur);
    free(d);
    return NULL;
}

static double sd(const double *v, int n, double *avg)
{
    double s = 0, q = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    *avg = n ? s / n : 0;
    for (int i = 0; i < n; i++)
        q += (v[i] - *avg) * (v[i] - *avg);
    return n ? sqrt(q / n) : 0;
}

static double cpu_s(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

int lscript_run(const struct lapi_script *s, const struct lscript_limits *lim,
                struct level_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->threads = out->loops = s->threads;
    out->lat = xmalloc(sizeof *out->lat);
    hist_init(out->lat);
    stop_asked = 0;
    struct lapi_thread mt;
    lapi_thread_seed(&mt, s, 0);
    lua_State *M = lapi_open(&mt, err, errlen);
    if (!M)
        return -1;
    /* the default thread_run calls event(); without either there is no run */
    lua_getglobal(M, "event");
    int has_event = lua_isfunction(M, -1);
    lua_pop(M, 1);
    if (!has_event) {
        snprintf(err, errlen,
                 "%s: the script defines no event() function, so 'run' has nothing "
                 "to do",
                 s->path);
        lua_close(M);
        return -1;
    }
    if (lapi_call(M, "init", 0, err, errlen) < 0) {
        lua_close(M);
        return -1;
    }
    int n = s->threads;
    struct run_shared sh = {.lim = lim};
    pthread_barrier_init(&sh.ready, NULL, (unsigned)n + 1);
    struct run_thread *rt = xcalloc((size_t)n, sizeof *rt);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        rt[i].sh = &sh;
        lapi_thread_seed(&rt[i].t, s, i);
        rt[i].t.run = &rt[i];
        rt[i].t.more = more;
        rt[i].t.ev_start = ev_start;
        rt[i].t.ev_stop = ev_stop;
        rt[i].lat = xmalloc(sizeof *rt[i].lat);
        hist_init(rt[i].lat);
        if (pthread_create(&rt[i].th, NULL, run_main, &rt[i]) != 0)
            die(EXIT_RUNTIME, "cannot start thread %d", i);
    }
    uint64_t t0 = now_ns();
    atomic_store(&sh.deadline, lim->time_s > 0 ? t0 + (uint64_t)(lim->time_s * 1e9) : 0);
    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    pthread_barrier_wait(&sh.ready); /* every thread_init done: measuring starts */
    t0 = now_ns();
    if (lim->time_s > 0)
        atomic_store(&sh.deadline, t0 + (uint64_t)(lim->time_s * 1e9));
    struct ticker tk = {.lim = lim, .rt = rt, .n = n, .t0 = t0};
    int ticking = lim->interval_s > 0 && lim->on_interval &&
                  pthread_create(&tk.th, NULL, tick_main, &tk) == 0;
    double *ev = xcalloc((size_t)n, sizeof *ev), *busy = xcalloc((size_t)n, sizeof *busy);
    for (int i = 0; i < n; i++) {
        pthread_join(rt[i].th, NULL);
        if (rt[i].failed && rc == 0) {
            snprintf(err, errlen, "connection %d (sysbench.tid %d): %s", i, i, rt[i].err);
            snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
            rc = -1;
        }
    }
    if (ticking) {
        atomic_store(&tk.done, 1);
        pthread_join(tk.th, NULL);
    }
    out->time_s = (double)(now_ns() - t0) / 1e9;
    getrusage(RUSAGE_SELF, &ru1);
    out->client_user_s = cpu_s(&ru1.ru_utime) - cpu_s(&ru0.ru_utime);
    out->client_sys_s = cpu_s(&ru1.ru_stime) - cpu_s(&ru0.ru_stime);
    out->client_csw = (double)(ru1.ru_nvcsw - ru0.ru_nvcsw + ru1.ru_nivcsw - ru0.ru_nivcsw);
    for (int i = 0; i < n; i++) {
        const uint64_t *c = rt[i].t.cnt; /* every writer joined */
        out->txns += c[SB_CNT_TRX];
        out->reads += c[SB_CNT_READ];
        out->writes += c[SB_CNT_WRITE];
        out->others += c[SB_CNT_OTHER];
        out->errors += c[SB_CNT_ERROR];
        out->reconnects += c[SB_CNT_RECONNECT];
        hist_merge(out->lat, rt[i].lat);
        ev[i] = (double)rt[i].done;
        busy[i] = (double)rt[i].busy_ns / 1e9;
        free(rt[i].lat);
    }
    out->fair_events_sd = sd(ev, n, &out->fair_events_avg);
    out->fair_time_sd = sd(busy, n, &out->fair_time_avg);
    out->interrupted = stop_asked != 0;
    free(ev);
    free(busy);
    free(rt);
    pthread_barrier_destroy(&sh.ready);
    if (lapi_call(M, "done", 0, rc ? NULL : err, rc ? 0 : errlen) < 0 && rc == 0)
        rc = -1;
    lua_close(M);
    return rc;
}
