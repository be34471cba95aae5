/*
 * sweep_ranks.c - the sweep's side of sharing its levels over MPI ranks
 * (dbscale-mpi): one level through the sweep_share hooks, and what meta.json
 * says about the ranks.
 *
 * The one idea: the run loop (sweep.c) stays the single-process loop; where
 * it would call pool_run it calls sweep_ranks_level, which runs this
 * process's share and hands back the reduction, so every figure written
 * after it is of all ranks. This file knows no MPI (the hooks do, in
 * ranks/mpi_sweep.c) and never prints.
 */
#include "sweep/sweep.h"

#include <stdlib.h>

#include "core/util.h"

int sweep_ranks_level(struct sweep *w, int threads, struct level_result *res,
                      struct sweep_rank_fig **each)
{
    const struct sweep_share *sh = w->share;
    *each = xcalloc((size_t)sh->nranks, sizeof **each);
    double skew = 0;
    int rc = pool_run(w->pool, sh->level(threads, sh->arg), res);
    rc = sh->reduce(res, rc, *each, &skew, &w->iv_level, sh->arg);
    /* kept in the slot after the measured levels' skews; counted (nskews)
     * only when the level becomes a row */
    w->skews = xrealloc(w->skews, (size_t)(w->nskews + 1) * sizeof *w->skews);
    w->skews[w->nskews] = skew;
    return rc;
}

void sweep_ranks_free(const struct sweep *w, struct sweep_rank_fig *each)
{
    for (int k = 0; each && k < w->share->nranks; k++)
        level_result_free(&each[k].res);
    free(each);
}

json_t *sweep_ranks_meta(const struct sweep *w)
{
    json_t *o = w->share->meta ? w->share->meta(w->share->arg) : json_object();
    json_t *sk = json_array();
    double mx = 0;
    for (int i = 0; i < w->nskews; i++) {
        json_array_append_new(sk, json_real(w->skews[i]));
        mx = w->skews[i] > mx ? w->skews[i] : mx;
    }
    json_object_set_new(o, "start_skew_s", sk);
    json_object_set_new(o, "start_skew_max_s", json_real(mx));
    return o;
}
