/*
 * meta_command.c - the words that reproduce a sweep (meta_command.h).
 *
 * The one idea: what the user set is what reproduces the study. The
 * effective option set (meta.json's "options") also holds every default of
 * both engines, which is no command line anyone gave: written out, it
 * conflicts with itself (--db-driver=pgsql beside --mysql-host). An option
 * counts as set when the parser took a value for it from the command line
 * or a config file. Never prints.
 */
#include <stdlib.h>
#include <string.h>

#include "core/redact.h"
#include "results/meta_command.h"
#include "core/util.h"

int meta_command_skips(const char *name)
{
    static const char *const skip[] = {"workload", "out", "append", "config", NULL};
    for (int i = 0; skip[i]; i++)
        if (!strcmp(name, skip[i]))
            return 1;
    return 0;
}

static void add_word(json_t *a, const char *name, const char *value)
{
    struct sbuf b = {0};
    sbuf_printf(&b, "--%s=%s", name, value);
    json_array_append_new(a, json_string(b.s));
    sbuf_free(&b);
}

json_t *meta_command_words(const struct opts *o, const char *workload)
{
    json_t *a = json_array();
    if (workload)
        json_array_append_new(a, json_string(workload));
    for (size_t i = 0; i < o->n; i++) {
        const struct optdef *d = &o->defs[i];
        if (!o->val[i] || d->type == OPT_SECRET || d->type == OPT_ALIAS || d->type == OPT_REFUSED ||
            meta_command_skips(d->name))
            continue;
        if (d->type == OPT_LIST) {
            for (size_t k = 0; k < o->list[i].n; k++)
                add_word(a, d->name, o->list[i].v[k]);
        } else if (redact_is_conninfo_opt(d->name)) {
            size_t n = strlen(o->val[i]) * 3 + 256;
            char *shown = xmalloc(n);
            if (redact_conninfo(o->val[i], shown, n) >= 0)
                add_word(a, d->name, shown);
            free(shown);
        } else {
            add_word(a, d->name, o->val[i]);
        }
    }
    return a;
}
