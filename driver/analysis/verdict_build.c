/*
 * verdict_build.c - the verdict of a set of results directories, built once: the
 * evidence (why files), each curve's limits, the pairs (every curve of a
 * later directory against its match in the first), their points, curve
 * figures and explanations, then the gate.
 *
 * The one idea: the gate fails closed. "pass" is said only when every
 * point of every pair was compared on both sides and none is worse or
 * undecided; a point one side has alone, a level that failed, or no shared
 * point at all is never read as "no regression".
 */
#include "analysis/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/verdict_internal.h"

static const char *const fig_names[VF_N] = {"tps", "p95 latency", "client CPU/txn",
                                            "server CPU/txn"};
static const char *const fig_units[VF_N] = {"tps", "ms", "us", "us"};
static const char *const gate_names[] = {"pass", "regression", "inconclusive", "incomparable",
                                         "none"};

const char *verdict_fig_name(enum verdict_fig f)
{
    return f < VF_N ? fig_names[f] : "?";
}

const char *verdict_fig_unit(enum verdict_fig f)
{
    return f < VF_N ? fig_units[f] : "";
}

const char *verdict_gate_name(enum verdict_gate g)
{
    return g <= VG_NONE ? gate_names[g] : "?";
}

void verdict_opt_default(struct verdict_opt *o)
{
    *o = (struct verdict_opt){
        .delta = 0.05, .fdr = 0.05, .conf = 0.95, .boot = 1000, .moderate = 1, .seed = 1};
}

static void limits(struct verdict *v, const struct curves *cv)
{
    v->lim = xcalloc(2 * cv->nc + 1, sizeof *v->lim);
    for (size_t i = 0; i < cv->nc; i++) {
        struct limit_curve lc;
        evidence_curve(&v->ev, cv, i, &lc);
        v->nlim += limit_find(&lc, (int)i, v->lim + v->nlim);
    }
}

static void pairs(struct verdict *v, const struct curves *cv)
{
    v->pairs = xcalloc(cv->nc + 1, sizeof *v->pairs);
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        if (c->dir == 0)
            continue;
        int m = curves_match(cv, i);
        if (m < 0) {
            v->one_side += c->k;
            if (!v->one_side_eg[0])
                snprintf(v->one_side_eg, sizeof v->one_side_eg,
                         "%s: %s %s on %d CPU%s has no match in %s", cv->dirs[c->dir].name,
                         c->workload, c->variant, c->cpus, c->cpus == 1 ? "" : "s",
                         cv->dirs[0].name);
            continue;
        }
        struct verdict_pair *p = &v->pairs[v->npairs++];
        p->da = 0, p->db = c->dir, p->ca = m, p->cb = (int)i;
    }
    /* curves of the first directory no later one has */
    for (size_t j = 0; j < cv->nc && cv->ndirs > 1; j++) {
        int used = cv->c[j].dir != 0;
        for (size_t k = 0; k < v->npairs && !used; k++)
            used = v->pairs[k].ca == (int)j;
        if (!used)
            v->one_side += cv->c[j].k;
    }
}

static void gate(struct verdict *v, const struct curves *cv)
{
    size_t worse = 0, undecided = 0, shared = 0;
    for (size_t i = 0; i < v->npairs; i++) {
        worse += v->pairs[i].worse;
        undecided += v->pairs[i].undecided;
        shared += v->pairs[i].n;
    }
    if (cv->ndirs < 2) {
        v->gate = VG_NONE;
        snprintf(v->gate_why, sizeof v->gate_why, "one results directory: nothing compared");
    } else if (!shared) {
        v->gate = VG_INCOMPARABLE;
        snprintf(v->gate_why, sizeof v->gate_why,
                 "no point measured on both sides (%s): nothing to compare",
                 v->one_side_eg[0] ? v->one_side_eg : "different workloads or CPU counts");
    } else if (worse) {
        v->gate = VG_REGRESSION;
        snprintf(v->gate_why, sizeof v->gate_why, "%zu point%s worse beyond %.0f%%", worse,
                 worse == 1 ? "" : "s", 100 * v->opt.delta);
    } else if (undecided || v->one_side || v->dropped) {
        v->gate = VG_INCONCLUSIVE;
        snprintf(v->gate_why, sizeof v->gate_why,
                 "nothing worse, but %zu point%s undecided, %zu measured on one side only and "
                 "%zu level%s left out (disturbed or empty)",
                 undecided, undecided == 1 ? "" : "s", v->one_side, v->dropped,
                 v->dropped == 1 ? "" : "s");
    } else {
        v->gate = VG_PASS;
        snprintf(v->gate_why, sizeof v->gate_why,
                 "every shared point the same or better (%zu tests, FDR %.0f%%)", v->tested,
                 100 * v->opt.fdr);
    }
}

static void kernels(struct verdict *v, const struct curves *cv)
{
    struct verdict_kernels *k = &v->k;
    kvariants_load(cv, &k->kv);
    size_t hosted = 0;
    for (size_t d = 0; d < k->kv.n; d++)
        hosted += k->kv.v[d].host != NULL;
    k->on = k->kv.with || hosted;
    if (k->on && k->kv.n >= 2) {
        ktable_build(cv, &k->kv, KTABLE_DB, &k->db);
        ktable_build(cv, &k->kv, KTABLE_KERNEL, &k->kt);
        kverdict_build(&k->kv, &k->db, &k->kt, &k->smp);
    }
}

void verdict_build(const struct curves *cv, const struct verdict_opt *o, struct verdict *v)
{
    memset(v, 0, sizeof *v);
    if (o)
        v->opt = *o;
    else
        verdict_opt_default(&v->opt);
    evidence_load(&v->ev, cv);
    limits(v, cv);
    if (cv->ndirs > 1) {
        pairs(v, cv);
        verdict_points(v, cv);
    }
    verdict_curves(v, cv);
    verdict_explain(v, cv);
    kernels(v, cv);
    gate(v, cv);
}

void verdict_free(struct verdict *v)
{
    evidence_free(&v->ev);
    kvariants_free(&v->k.kv);
    ktable_free(&v->k.db);
    ktable_free(&v->k.kt);
    free(v->lim);
    free(v->sc);
    free(v->pairs);
    free(v->pts);
    free(v->ex);
    memset(v, 0, sizeof *v);
}
