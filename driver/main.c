/*
 * main.c - verb dispatch only. Everything else lives in the room the verb
 * names (see verbs.h); what help says is drawn from verb_table.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config_path.h"
#include "verbs/help.h"
#include "verbs/lua_verb.h"
#include "verbs/manpage.h"
#include "client/oltp.h"
#include "core/redact.h"
#include "core/util.h"
#include "verbs/verb_table.h"
#include "verbs/verbs.h"
#include "client/workload.h"

/* A password given on the command line (--pgsql-password=X, --mysql-password
 * X, or inside --pgsql-conninfo, keyword or URI) stays readable in ps and
 * /proc/PID/cmdline for the whole run. The verbs get heap copies; the
 * originals, which the kernel shows, are blanked, as mysql(1) does: a
 * conninfo is overwritten with its redacted form when that fits, else with
 * x's. */
static void blank_conninfo(char *victim)
{
    size_t l = strlen(victim);
    char *shown = xmalloc(l * 3 + 256);
    int r = redact_conninfo(victim, shown, l * 3 + 256);
    if (r == 1 && strlen(shown) <= l) {
        memset(victim, ' ', l);
        memcpy(victim, shown, strlen(shown));
    } else if (r != 0) {
        memset(victim, 'x', l);
    }
    free(shown);
}

static void hide_passwords(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0)
            continue;
        size_t name_len = strcspn(a + 2, "=");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(name_len < 63 ? name_len : 63), a + 2);
        int conninfo = redact_is_conninfo_opt(name);
        if (!conninfo && !strstr(name, "password"))
            continue;
        char *eq = strchr(a, '=');
        char *victim = NULL;
        if (eq) {
            argv[i] = xstrdup(a);
            victim = eq + 1;
        } else if (i + 1 < argc) {
            victim = argv[++i];
            argv[i] = xstrdup(victim);
        }
        if (victim && conninfo)
            blank_conninfo(victim);
        else if (victim)
            memset(victim, 'x', strlen(victim));
    }
}

/* The commands of sysbench's order (dbscale WORKLOAD [options] COMMAND). */
static int is_command(const char *w)
{
    static const char *const cmds[] = {"prepare", "prewarm", "run", "cleanup", "help", NULL};
    for (int i = 0; cmds[i]; i++)
        if (!strcmp(w, cmds[i]))
            return 1;
    return 0;
}

static int is_workload(const char *arg)
{
    char name[128];
    oltp_workload_name(arg, name, sizeof name);
    for (int i = 0; workload_names[i]; i++)
        if (!strcmp(workload_names[i], name))
            return 1;
    return 0;
}

/* --config NAME found from any directory (config_path.c): the argument is
 * replaced by the path found, so the verbs' parser reads it as given. 0, or
 * -1 after saying where it looked. */
static int resolve_configs(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        char **slot = NULL;
        const char *name = NULL;
        if (!strncmp(argv[i], "--config=", 9)) {
            slot = &argv[i];
            name = argv[i] + 9;
        } else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
            slot = &argv[++i];
            name = argv[i];
        }
        if (!name || !*name)
            continue; /* the parser says what is missing */
        char path[4096], err[4096];
        if (config_path_find(name, config_path_dirs(), path, sizeof path, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale: %s\n", err);
            return -1;
        }
        if (!strcmp(path, name))
            continue;
        size_t l = strlen(path) + 16;
        char *a = xmalloc(l);
        snprintf(a, l, "%s%s", slot == &argv[i] && argv[i][8] == '=' ? "--config=" : "", path);
        *slot = a; /* lives as long as the process, as argv does */
    }
    return 0;
}

static int dispatch(int argc, char **argv);

/* prepare, run, cleanup share oltp_verb.c; prewarm has its own */
static int oltp_verb(const char *verb, int argc, char **argv)
{
    return !strcmp(verb, "prewarm") ? prewarm_main(argc, argv) : oltp_main(verb, argc, argv);
}

/* dbscale help [VERB | WORKLOAD] */
static int help_main(int argc, char **argv)
{
    if (argc < 3) {
        help_usage(stdout);
        return 0;
    }
    const char *what = argv[2];
    if (verb_table_find(what)) {
        char *a[] = {argv[0], (char *)what, "--help", NULL};
        return dispatch(3, a);
    }
    if (help_workload(stdout, what) == 0)
        return 0;
    if (lua_verb_is_script(what)) {
        char *a[] = {(char *)what, "help", NULL};
        return lua_main(NULL, 2, a);
    }
    fprintf(stderr, "dbscale help: '%s' is neither a verb nor a workload (try: dbscale --help)\n",
            what);
    return EXIT_USAGE;
}

static int dispatch(int argc, char **argv)
{
    const char *v = argv[1];
    if (!strcmp(v, "--help") || !strcmp(v, "-h")) {
        help_usage(stdout);
        return 0;
    }
    if (!strcmp(v, "help"))
        return help_main(argc, argv);
    if (!strcmp(v, "--version") || !strcmp(v, "version")) {
        printf("dbscale %s (%s)\n", DBSCALE_VERSION, DBSCALE_GIT);
        return 0;
    }
    /* hidden: what the build turns into the man page and the completion */
    if (!strcmp(v, "--man"))
        return manpage_write(stdout) < 0 ? EXIT_RUNTIME : 0;
    if (!strcmp(v, "--bash-completion"))
        return completion_write(stdout) < 0 ? EXIT_RUNTIME : 0;
    if (!strcmp(v, "--dump-options"))
        return manpage_dump_options(stdout) < 0 ? EXIT_RUNTIME : 0;
    if (resolve_configs(argc, argv) < 0)
        return EXIT_USAGE;
    if (!strcmp(v, "prepare") || !strcmp(v, "prewarm") || !strcmp(v, "run") ||
        !strcmp(v, "cleanup")) {
        /* a .lua file (or NAME.lua here) runs the script; built-in names the C mixes */
        if (lua_verb_find_script(argc - 2, argv + 2) >= 0)
            return lua_main(v, argc - 2, argv + 2);
        return oltp_verb(v, argc - 1, argv + 1);
    }
    /* sysbench's order: dbscale ./x.lua [options] COMMAND (NAME also on --lua-path) */
    if (lua_verb_find_script(argc - 1, argv + 1) == 0)
        return lua_main(NULL, argc - 1, argv + 1);
    if (!strcmp(v, "sweep"))
        return sweep_main(argc - 1, argv + 1);
    if (!strcmp(v, "micro"))
        return micro_main(argc - 1, argv + 1);
    if (!strcmp(v, "fs"))
        return fs_main(argc - 1, argv + 1);
    if (!strcmp(v, "plot"))
        return plot_main(argc - 1, argv + 1);
    if (!strcmp(v, "compare"))
        return compare_main(argc - 1, argv + 1);
    if (!strcmp(v, "server"))
        return server_main(argc - 1, argv + 1);
    if (!strcmp(v, "report"))
        return report_main(argc - 1, argv + 1);
    if (!strcmp(v, "kernels"))
        return kernels_main(argc - 1, argv + 1);
    if (!strcmp(v, "study"))
        return study_main(argc - 1, argv + 1);
    /* sysbench's order: dbscale oltp_read_only --threads=4 run */
    for (int i = 2; i < argc; i++) {
        const char *w = argv[i];
        if (!is_command(w))
            continue;
        if (!strcmp(w, "help")) {
            char *a[] = {argv[0], "help", (char *)v, NULL};
            return help_main(3, a);
        }
        for (int j = i; j > 1; j--)
            argv[j] = argv[j - 1];
        argv[1] = (char *)w;
        return oltp_verb(w, argc - 1, argv + 1);
    }
    if (is_workload(v)) {
        for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
            if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                /* --help is an answer anywhere, as in sysbench: run's options */
                char *a[] = {argv[0], "run", "--help", NULL};
                return dispatch(3, a);
            }
        /* sysbench's oltp_common.lua words it so, and exits 1 */
        fprintf(stderr,
                "dbscale: FATAL: Command is required. Supported commands: " HELP_COMMANDS "\n");
        return EXIT_RUNTIME;
    }
    fprintf(stderr, "dbscale: unknown verb '%s' (try: dbscale --help)\n", v);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    hide_passwords(argc, argv);
    if (argc < 2) {
        help_usage(stderr);
        return EXIT_USAGE;
    }
    return dispatch(argc, argv);
}
