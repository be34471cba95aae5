/*
 * verdict_json.c - verdict.json, written through jansson so every string
 * (a variant, a directory's name, a wait event) survives as written.
 *
 * The one idea: the file holds the verdict's own values, never a reading of
 * the page; NAN ("not measured") is null, so a reader cannot take it for 0.
 * The format's version is "dbscale_verdict": 1.
 */
#include "report/verdict_json.h"

#include <math.h>
#include <stdlib.h>

#include <jansson.h>

static json_t *num(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *interval(const struct stats_interval *i)
{
    return json_pack("{s:o,s:o,s:o,s:I,s:I}", "est", num(i->est), "lo", num(i->lo), "hi",
                     num(i->hi), "valid", (json_int_t)i->valid, "resamples", (json_int_t)i->reps);
}

static json_t *curve_id(const struct curves *cv, int ci)
{
    const struct curve *c = &cv->c[ci];
    return json_pack("{s:s,s:s,s:s,s:s,s:i}", "dir", cv->dirs[c->dir].name, "engine", c->engine,
                     "workload", c->workload, "variant", c->variant, "cpus", c->cpus);
}

static json_t *points(const struct verdict *v, const struct curves *cv)
{
    json_t *a = json_array();
    for (size_t i = 0; i < v->npts; i++) {
        const struct verdict_point *p = &v->pts[i];
        json_t *o = curve_id(cv, p->cb);
        json_object_set_new(o, "against", json_string(cv->dirs[cv->c[p->ca].dir].name));
        json_object_set_new(o, "threads", json_real(p->threads));
        json_object_set_new(o, "figure", json_string(verdict_fig_name(p->fig)));
        json_object_set_new(o, "unit", json_string(verdict_fig_unit(p->fig)));
        json_object_set_new(o, "a_median", num(p->a_med));
        json_object_set_new(o, "b_median", num(p->b_med));
        json_object_set_new(o, "change", num(p->e.est));
        json_object_set_new(o, "ci", json_pack("[o,o]", num(p->e.lo), num(p->e.hi)));
        json_object_set_new(o, "p", num(p->e.p));
        json_object_set_new(o, "q", num(p->v.q));
        json_object_set_new(o, "mde", num(p->e.mde));
        json_object_set_new(o, "repeats",
                            json_pack("[I,I]", (json_int_t)p->e.na, (json_int_t)p->e.nb));
        json_object_set_new(o, "class", json_string(stats_class_name(p->v.cls)));
        json_object_set_new(o, "reason", json_string(stats_reason_text(p->v.reason)));
        json_object_set_new(o, "repeats_to_decide",
                            p->v.repeats ? json_integer((json_int_t)p->v.repeats) : json_null());
        json_object_set_new(o, "moderated", json_boolean(p->e.moderated));
        json_object_set_new(o, "levels_left_out", json_integer(p->dropped));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *pairs(const struct verdict *v, const struct curves *cv)
{
    json_t *a = json_array();
    for (size_t i = 0; i < v->npairs; i++) {
        const struct verdict_pair *p = &v->pairs[i];
        json_t *o = curve_id(cv, p->cb);
        json_object_set_new(o, "against", curve_id(cv, p->ca));
        json_object_set_new(o, "peak_a", interval(&p->peak_a));
        json_object_set_new(o, "peak_b", interval(&p->peak_b));
        json_object_set_new(o, "peak_change", interval(&p->peak_ratio));
        json_object_set_new(o, "knee_a", interval(&p->knee_a));
        json_object_set_new(o, "knee_b", interval(&p->knee_b));
        json_object_set_new(o, "better", json_integer((json_int_t)p->better));
        json_object_set_new(o, "worse", json_integer((json_int_t)p->worse));
        json_object_set_new(o, "same", json_integer((json_int_t)p->same));
        json_object_set_new(o, "undecided", json_integer((json_int_t)p->undecided));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *scaling(const struct verdict *v, const struct curves *cv)
{
    json_t *a = json_array();
    for (size_t i = 0; i < v->nsc; i++) {
        const struct verdict_scaling *s = &v->sc[i];
        json_t *o = curve_id(cv, s->c);
        json_object_set_new(o, "base_cpus", json_integer(cv->c[s->base].cpus));
        json_object_set_new(o, "peak_change", interval(&s->ratio));
        json_object_set_new(o, "efficiency",
                            json_pack("{s:o,s:o,s:o}", "est", num(s->eff), "lo", num(s->eff_lo),
                                      "hi", num(s->eff_hi)));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *limits(const struct verdict *v, const struct curves *cv)
{
    static const char *const where[] = {"knee", "fall", "range", "one point"};
    json_t *a = json_array();
    for (size_t i = 0; i < v->nlim; i++) {
        const struct limit *l = &v->lim[i];
        const struct curve *c = &cv->c[l->curve];
        json_t *o = curve_id(cv, l->curve);
        json_object_set_new(o, "where", json_string(where[l->where]));
        json_object_set_new(o, "threads", json_pack("[f,f]", c->n[l->ia], c->n[l->ib]));
        json_object_set_new(o, "class", json_string(limit_kind_name(l->kind)));
        json_object_set_new(o, "also",
                            l->also == LK_N ? json_null() : json_string(limit_kind_name(l->also)));
        json_object_set_new(o, "part", json_string(l->part));
        json_t *figs = json_array();
        for (int f = 0; f < l->nfig; f++)
            json_array_append_new(figs, json_pack("{s:s,s:o,s:o,s:s}", "what", l->fig[f].what, "a",
                                                  num(l->fig[f].a), "b", num(l->fig[f].b), "unit",
                                                  l->fig[f].unit));
        json_object_set_new(o, "figures", figs);
        json_object_set_new(o, "sure", json_string(limit_sure_name(l->sure)));
        json_object_set_new(o, "sure_why", json_string(l->sure_why));
        json_object_set_new(o, "not", json_string(l->not_));
        json_object_set_new(o, "client_shaping",
                            l->shaping[0] ? json_string(l->shaping) : json_null());
        char s[1024];
        limit_sentence(l, c, s, sizeof s);
        json_object_set_new(o, "sentence", json_string(s));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *explanations(const struct verdict *v, const struct curves *cv)
{
    json_t *a = json_array();
    for (size_t i = 0; i < v->nex; i++) {
        const struct verdict_explain *x = &v->ex[i];
        const struct verdict_point *p = &v->pts[x->point];
        json_t *o = curve_id(cv, p->cb);
        json_object_set_new(o, "threads", json_real(p->threads));
        json_t *ch = json_array();
        for (int c = 0; c < x->nch; c++)
            json_array_append_new(ch, json_pack("{s:s,s:o,s:o,s:s}", "what", x->ch[c].what, "a",
                                                num(x->ch[c].a), "b", num(x->ch[c].b), "unit",
                                                x->ch[c].unit));
        json_object_set_new(o, "changes", ch);
        json_object_set_new(o, "profiles", json_boolean(x->profiles));
        json_object_set_new(o, "kernel", x->kernel[0] ? json_string(x->kernel) : json_null());
        json_object_set_new(o, "kernel_explains", json_boolean(x->kernel_explains));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *kernels(const struct verdict *v)
{
    const struct verdict_kernels *k = &v->k;
    if (!k->on)
        return json_null();
    json_t *names = json_array(), *smp = json_array();
    for (size_t i = 0; i < k->kv.n; i++)
        json_array_append_new(names, json_string(k->kv.v[i].name));
    for (size_t i = 0; i < k->smp.n; i++) {
        const struct kverdict_one *o = &k->smp.s[i];
        struct sbuf t = {0};
        kverdict_sentence(&k->kv, o, &t);
        json_array_append_new(
            smp, json_pack("{s:s,s:s,s:s,s:s,s:s,s:I,s:{s:o,s:o,s:o},s:s,s:s}", "kind",
                           o->kind == KVERDICT_COST ? "smp on one cpu against up"
                                                    : "smp peak against up",
                           "smp", k->kv.v[o->s].name, "up", k->kv.v[o->u].name, "over",
                           o->on == KTABLE_DB ? "database points" : "kernel tests", "unit",
                           o->unit == KVERDICT_BOOTS ? "boot pairs" : "points", "units",
                           (json_int_t)o->pooled.m, "change", "est", num(o->pooled.est), "lo",
                           num(o->pooled.lo), "hi", num(o->pooled.hi), "class",
                           o->cls == KVERDICT_ESTABLISHED       ? "established"
                           : o->cls == KVERDICT_NOT_ESTABLISHED ? "not established"
                                                                : "inconclusive",
                           "sentence", t.s ? t.s : ""));
        sbuf_free(&t);
    }
    return json_pack("{s:o,s:o,s:I}", "variants", names, "smp", smp, "left_out",
                     (json_int_t)k->kv.left_out);
}

void verdict_json(const struct verdict *v, const struct curves *cv, struct sbuf *out)
{
    json_t *dirs = json_array();
    for (size_t d = 0; d < cv->ndirs; d++)
        json_array_append_new(dirs, json_string(cv->dirs[d].name));
    json_t *root =
        json_pack("{s:i,s:s,s:s,s:{s:f,s:f,s:f,s:I,s:I,s:b},s:o,s:I,s:I,s:I}", "dbscale_verdict", 1,
                  "gate", verdict_gate_name(v->gate), "gate_why", v->gate_why, "options",
                  "threshold", v->opt.delta, "fdr", v->opt.fdr, "confidence", v->opt.conf,
                  "bootstrap", (json_int_t)v->opt.boot, "seed", (json_int_t)v->opt.seed, "moderate",
                  v->opt.moderate, "directories", dirs, "tested", (json_int_t)v->tested, "one_side",
                  (json_int_t)v->one_side, "levels_left_out", (json_int_t)v->dropped);
    json_object_set_new(root, "points", points(v, cv));
    json_object_set_new(root, "pairs", pairs(v, cv));
    json_object_set_new(root, "scaling", scaling(v, cv));
    json_object_set_new(root, "limits", limits(v, cv));
    json_object_set_new(root, "explanations", explanations(v, cv));
    json_object_set_new(root, "kernels", kernels(v));
    char *s = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
    if (s) {
        sbuf_printf(out, "%s\n", s);
        free(s);
    }
    json_decref(root);
}
