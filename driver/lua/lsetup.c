/*
 * lsetup.c - a script's connection side from the options both the script
 * verbs and the sweep parse.
 *
 * The one idea: a script draws from the generators the built-in mixes draw
 * from, so they are built here from the same options (--rand-type and its
 * parameters, --rand-seed as the worker seeds it), once, for every state of
 * the script. Never prints.
 */
#include <string.h>

#include "lua/lsetup.h"

void lsetup_fill(struct lapi_script *ls, const struct opts *o, const struct oltp_setup *st)
{
    ls->o = o;
    ls->ops = st->ops; /* never the dry run: the script verbs refuse it */
    ls->targets = st->targets;
    ls->ntargets = st->ntargets;
    /* a sweep's --threads is a list: its levels set their own count */
    const struct optdef *d = NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->defs[i].name, "threads"))
            d = &o->defs[i];
    ls->threads = d && d->type == OPT_INT ? (int)opts_int(o, "threads") : 1;
    ls->seed = st->wcfg.seed;
    ls->dist = &st->wl.cfg.dist;
    static const char *const kinds[] = {"uniform", "gaussian", "special", "pareto", "zipfian"};
    for (int i = 0; i < 5; i++)
        rng_dist_init(&ls->kinds[i], kinds[i], (unsigned)opts_int(o, "rand-spec-iter"),
                      (unsigned)opts_int(o, "rand-spec-pct"),
                      (unsigned)opts_int(o, "rand-spec-res"), opts_num(o, "rand-pareto-h"),
                      opts_num(o, "rand-zipfian-exp"));
}
