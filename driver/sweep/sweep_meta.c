/*
 * sweep_meta.c - what a sweep writes into meta.json: the variant label of a
 * level, the time stamps, the options (secrets left out) and the facts of
 * the machine, the server and the command that reproduces the run.
 */
#include "sweep/sweep.h"

#include <string.h>
#include <time.h>

#include "results/meta.h"
#include "results/meta_command.h"
#include "client/oltp_conn.h"
#include "core/redact.h"
#include "core/util.h"

void sweep_variant(char *buf, size_t len, const char *user_label, int up, int cpus)
{
    if (user_label && *user_label)
        snprintf(buf, len, "%s", user_label);
    else if (up)
        snprintf(buf, len, "up");
    else
        snprintf(buf, len, "smp-k%d", cpus);
}

void sweep_iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The one place the sweep's options go into meta.json: what is stored here
 * is what anyone reading the results sees: OPT_SECRET values left out, and a
 * conninfo's password masked (redact_opts_json). */
json_t *sweep_meta_options(const struct opts *o)
{
    struct sbuf b = {0};
    redact_opts_json(o, &b); /* no conninfo password in meta.json */
    json_t *j = json_loadb(b.s ? b.s : "{}", b.len, 0, NULL);
    sbuf_free(&b);
    return j ? j : json_object();
}

int sweep_write_meta(struct sweep *w, const char *ended)
{
    struct meta m;
    memset(&m, 0, sizeof m);
    const struct sysinfo_facts *f = &w->facts;
    snprintf(m.dbscale_version, sizeof m.dbscale_version, "%s", DBSCALE_VERSION);
    snprintf(m.git_commit, sizeof m.git_commit, "%s", DBSCALE_GIT);
    snprintf(m.engine, sizeof m.engine, "%s", w->s.ops->name);
    snprintf(m.workload, sizeof m.workload, "%s", w->workload);
    snprintf(m.server, sizeof m.server, "%s", w->managed ? "managed" : "external");
    snprintf(m.server_version, sizeof m.server_version, "%s", w->server_version);
    /* where the levels were measured: after a managed start the targets are
     * the throwaway server's own address, not the connection options' */
    const struct db_target *t = &w->s.targets[0];
    snprintf(m.db_host, sizeof m.db_host, "%s", t->host ? t->host : t->socket ? t->socket : "");
    m.db_port = oltp_conn_port(&w->s);
    snprintf(m.cpu_method, sizeof m.cpu_method, "%s", w->cfg.cpu_method);
    snprintf(m.host, sizeof m.host, "%s", f->hostname);
    snprintf(m.kernel, sizeof m.kernel, "%s", f->kernel);
    snprintf(m.machine, sizeof m.machine, "%s", f->machine);
    snprintf(m.cmdline, sizeof m.cmdline, "%s", f->cmdline);
    snprintf(m.cpu_model, sizeof m.cpu_model, "%s", f->cpu_model);
    snprintf(m.cpus_online, sizeof m.cpus_online, "%s", f->online);
    snprintf(m.cpus_possible, sizeof m.cpus_possible, "%s", f->possible);
    m.uniprocessor = f->up;
    m.mem_kb = f->mem_kb;
    snprintf(m.started, sizeof m.started, "%s", w->started);
    snprintf(m.ended, sizeof m.ended, "%s", ended ? ended : "");
    m.time_s = w->cfg.time_s;
    m.warmup_s = w->cfg.warmup_s;
    m.repeats = w->plan.repeats;
    m.levels_planned = w->plan.nlevels;
    m.levels_done = w->nsaved - w->nold; /* this run's */
    for (int i = 0; i < w->plan.nlevels; i++) {
        char v[64];
        sweep_variant(v, sizeof v, w->cfg.variant, f->up, w->plan.kcpus[w->plan.levels[i].k]);
        meta_add_variant(&m, v);
    }
    char settings[sizeof w->settings + 2];
    snprintf(settings, sizeof settings, "{%s}", w->settings);
    m.server_settings = json_loads(settings, 0, NULL);
    m.options = sweep_meta_options(&w->o);
    if (w->script) /* the name in the rows, the file it came from here */
        json_object_set_new(m.options, "workload", json_string(w->script));
    if (w->share)
        m.extra = sweep_ranks_meta(w); /* ranks, hosts, window start skew */
    if (!m.extra)
        m.extra = json_object();
    /* the command that reproduces it: what the user set (the page shows it) */
    json_object_set_new(m.extra, "command",
                        meta_command_words(&w->o, w->script ? w->script : w->workload));
    sweep_server_meta(w, m.extra);   /* which build, which extra settings */
    json_t *why = sweep_why_meta(w); /* what the collectors read, their files' columns */
    if (why)
        json_object_set_new(m.extra, "why", why);
    int rc = meta_write(w->out, &m);
    meta_free(&m);
    return rc;
}
