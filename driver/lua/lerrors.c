/*
 * lerrors.c - a scripted run's ignored errors, by code.
 *
 * The one idea: the count lives beside the script, not in lscript_run, so
 * the runner stays as it is and the verb (or the sweep) moves the codes
 * into the level's result after the run. A mutex, not per-thread tables:
 * only an ignored error takes it, and an ignored error costs a round trip
 * and a restarted event anyway. Never prints.
 */
#include <stdio.h>
#include <string.h>

#include "lua/lerrors.h"

void lerrors_init(struct lerrors *x)
{
    memset(x, 0, sizeof *x);
    pthread_mutex_init(&x->mu, NULL);
}

void lerrors_destroy(struct lerrors *x)
{
    pthread_mutex_destroy(&x->mu);
}

void lerrors_count(struct lerrors *x, const char *code)
{
    pthread_mutex_lock(&x->mu);
    err_count_add(x->c, &x->n, code, 1);
    pthread_mutex_unlock(&x->mu);
}

void lerrors_take(struct lerrors *x, struct level_result *out)
{
    pthread_mutex_lock(&x->mu);
    if (out->ncodes == 0) { /* a runner that counts codes itself (in its window) wins */
        memcpy(out->codes, x->c, sizeof out->codes);
        out->ncodes = x->n;
    }
    x->n = 0;
    pthread_mutex_unlock(&x->mu);
}
