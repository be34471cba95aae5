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

int server_setting_known(enum server_engine e, const char *key)
{
    static struct sbuf names[SERVER_MYSQL + 1];
    static int loaded[SERVER_MYSQL + 1];
    if ((int)e < 0 || e > SERVER_MYSQL || !server_engine_ops_of(e)->list_settings)
        return -1;
    const struct server_engine_ops *ops = server_engine_ops_of(e);
    if (!loaded[e])
        loaded[e] = ops->list_settings(&names[e]) == 0 && names[e].len ? 1 : -1;
    if (loaded[e] < 0)
        return -1;
    return listed(&names[e], key);
}
