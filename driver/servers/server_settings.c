/*
 * server_settings.c - which settings an engine's server knows, asked of the
 * server binary itself (postgres --describe-config, mariadbd --verbose
 * --help, run by each engine's list_settings through server_capture.c:
 * both answer in a few tens of ms and start nothing), so an extra
 * config line naming a setting the server would refuse at start is bad
 * input (exit 2) before any directory exists, not a failed start (exit 1)
 * after initdb.
 *
 * Never decide without the list: when the binary cannot be run, every name
 * passes and the start says what the server says.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "servers/server_engine.h"
#include "core/util.h"

/* name (lower case, '_' for '-') as a line of its own in list. */
static int listed(const struct sbuf *list, const char *name)
{
    size_t l = strlen(name);
    for (const char *p = list->s; p && (p = strstr(p, name)) != NULL; p += l)
        if ((p == list->s || p[-1] == '\n') && p[l] == '\n')
            return 1;
    return 0;
}

int server_setting_known(enum server_engine e, const char *daemon, const char *key)
{
    /* one list per daemon asked about: a study's builds may differ */
    static struct {
        enum server_engine e;
        char daemon[PATH_MAX];
        struct sbuf names;
        int loaded; /* 1 read, -1 cannot be read */
    } cache[8];
    static int ncache;
    if ((int)e < 0 || e > SERVER_MYSQL || !server_engine_ops_of(e)->list_settings)
        return -1;
    const char *d = daemon && *daemon ? daemon : "";
    int i = 0;
    while (i < ncache && !(cache[i].e == e && !strcmp(cache[i].daemon, d)))
        i++;
    if (i == ncache) {
        if (ncache == (int)(sizeof cache / sizeof cache[0]))
            return -1; /* more installations than a run checks: the start will say */
        cache[i].e = e;
        snprintf(cache[i].daemon, sizeof cache[i].daemon, "%s", d);
        cache[i].loaded =
            server_engine_ops_of(e)->list_settings(*d ? d : NULL, &cache[i].names) == 0 &&
                    cache[i].names.len
                ? 1
                : -1;
        ncache++;
    }
    if (cache[i].loaded < 0)
        return -1;
    return listed(&cache[i].names, key);
}
