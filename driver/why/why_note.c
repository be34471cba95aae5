/*
 * why_note.c - what the collectors tell the user: one sentence naming what
 * could not be collected and its fix (a missing grant, perf not permitted,
 * a sampler that could not keep up), through the sweep's cfg.note.
 *
 * The one idea: a sentence is said once per sweep, however many levels
 * (and sampler threads) run into the same thing, and every sentence said
 * is kept for meta.json's "notes". The collectors (why_pg.c, why_my.c) and
 * their runner (why.c) call down into this file; it calls none of them.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "why/why_internal.h"

static struct why_notes *noting; /* the open collectors', for why_note (one sweep at a time) */

void why_notes_open(struct why_notes *n)
{
    n->list = json_array();
    pthread_mutex_init(&n->mu, NULL);
    noting = n;
}

void why_notes_close(struct why_notes *n)
{
    if (noting == n)
        noting = NULL;
    json_decref(n->list);
    pthread_mutex_destroy(&n->mu);
}

void why_note(const struct why_cfg *cfg, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct why_notes *n = noting;
    if (n) { /* each sentence once: a level after level would repeat it */
        pthread_mutex_lock(&n->mu);
        size_t i;
        json_t *v;
        int seen = 0;
        json_array_foreach(n->list, i, v) seen |= !strcmp(json_string_value(v), msg);
        if (!seen)
            json_array_append_new(n->list, json_string(msg));
        pthread_mutex_unlock(&n->mu);
        if (seen)
            return;
    }
    if (cfg->note)
        cfg->note(msg, cfg->note_arg);
}
