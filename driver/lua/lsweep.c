/*
 * lsweep.c - a Lua script as a sweep's workload.
 *
 * The one idea: a sweep level is one lscript_run with the level's thread
 * count, and its struct level_result is the same one a built-in level hands
 * back, so sweep.c fills the row, the intervals and the histogram the same
 * way. The script is found before the options are parsed (its options join
 * the sweep's table), which is why the command line and the config file are
 * scanned here by hand. Never prints.
 */
#include <ini.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/cpulist.h"
#include "machine/placement.h"
#include "lua/lfind.h"
#include "lua/lsweep.h"
#include "core/safefile.h"
#include "client/workload.h"

static int builtin(const char *name)
{
    for (int i = 0; workload_names[i]; i++)
        if (!strcmp(name, workload_names[i]))
            return 1;
    return 0;
}

static int script_of(const char *arg, const char *lua_path, char *path, size_t len)
{
    size_t l = strlen(arg);
    if (!(l > 4 && !strcmp(arg + l - 4, ".lua")) && builtin(arg))
        return 0;
    return lfind_script(arg, lua_path, path, len);
}

struct ini_pick {
    char value[1024];
};

static int pick_workload(void *user, const char *section, const char *name, const char *value)
{
    (void)section;
    struct ini_pick *p = user;
    if (!strcmp(name, "workload"))
        snprintf(p->value, sizeof p->value, "%s", value);
    return 1;
}

/* --NAME=V or --NAME V ('_' or '-' in NAME) */
static const char *arg_value(int argc, char **argv, const char *name)
{
    const char *v = NULL;
    size_t n = strlen(name);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || strlen(a) < n + 2)
            continue;
        int same = 1;
        for (size_t k = 0; k < n && same; k++)
            same = a[2 + k] == name[k] || (name[k] == '-' && a[2 + k] == '_');
        if (!same)
            continue;
        if (a[2 + n] == '=')
            v = a + 3 + n;
        else if (a[2 + n] == '\0' && i + 1 < argc)
            v = argv[++i];
    }
    return v;
}

int lsweep_find_workload(int argc, char **argv, char *path, size_t len)
{
    const char *lp = lfind_lua_path_arg(argc, argv);
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-') {
            if (!strchr(argv[i], '=') && i + 1 < argc && argv[i + 1][0] != '-' &&
                (!strcmp(argv[i], "--lua-path") || !strcmp(argv[i], "--lua_path") ||
                 !strcmp(argv[i], "--config") || !strcmp(argv[i], "--out") ||
                 !strcmp(argv[i], "--workload")))
                i++; /* a value, not the positional workload */
            continue;
        }
        if (script_of(argv[i], lp, path, len))
            return 1;
    }
    const char *wl = arg_value(argc, argv, "workload");
    if (wl)
        return script_of(wl, lp, path, len);
    const char *cfg = arg_value(argc, argv, "config");
    struct ini_pick p = {""};
    struct stat st; /* a config that is no small regular file is the options' to refuse */
    FILE *f = cfg ? fopen_regular(cfg) : NULL;
    int found = f && fstat(fileno(f), &st) == 0 && st.st_size < (1 << 20) &&
                ini_parse_file(f, pick_workload, &p) >= 0 && p.value[0];
    if (f)
        fclose(f);
    return found ? script_of(p.value, lp, path, len) : 0;
}

void lsweep_init(struct lsweep *x)
{
    memset(x, 0, sizeof *x);
    lerrors_init(&x->errors);
    x->ls.errors = &x->errors;
}

void lsweep_free(struct lsweep *x)
{
    lerrors_destroy(&x->errors);
}

int lsweep_prepare(struct lsweep *x, char *err, size_t errlen)
{
    struct lapi_script ls = x->ls;
    ls.command = "prepare";
    ls.threads = 1;
    int has = lscript_has_command(&ls, "prepare", err, errlen);
    if (has <= 0)
        return has < 0 ? -1 : 1;
    return lscript_command(&ls, err, errlen) < 0 ? -1 : 0;
}

int lsweep_level(void *arg, int threads, const char *client_cpus,
                 void (*on_interval)(const struct interval_stats *st, void *a),
                 void (*on_window)(int begin, void *a), void *cb_arg, struct level_result *out)
{
    struct lsweep *x = arg;
    struct lapi_script ls = x->ls;
    ls.command = "run";
    ls.threads = threads;
    struct worker_cfg cfg = x->cfg;
    cfg.rep.on_interval = on_interval;
    cfg.rep.on_interval_arg = cb_arg;
    cfg.on_window = on_window;
    cfg.on_window_arg = cb_arg;
    cfg.client_cpus = client_cpus; /* the loops pin themselves */
    char err[sizeof out->fatal_msg];
    struct cpulist old; /* the runner's threads inherit the pin */
    int pinned = placement_pin_self(client_cpus, &old);
    int r = lscript_run(&ls, &cfg, out, err, sizeof err);
    if (pinned)
        placement_unpin_self(&old);
    lerrors_take(&x->errors, out); /* this level's codes only */
    if (r < 0) {
        snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
        return -1;
    }
    return out->interrupted ? 1 : 0;
}
