/*
 * main.c - verb dispatch only. Everything else lives in the room the verb
 * names (see verbs.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_verb.h"
#include "redact.h"

#include "util.h"
#include "verbs.h"

static void usage(FILE *f)
{
    fputs("dbscale " DBSCALE_VERSION " - how well a database server scales across client\n"
          "concurrency and CPU count\n\n"
          "usage: dbscale VERB [options]    (dbscale VERB --help lists every option)\n\n"
          "  prepare  WORKLOAD      create and load sbtest tables\n"
          "  run      WORKLOAD      one concurrency level, sysbench-style report\n"
          "  cleanup  WORKLOAD      drop what prepare made\n"
          "  sweep    [WORKLOAD]    threads x CPU count x variant x repeats -> results dir\n"
          "  micro    [TEST...]     syscall microbenchmarks (kernel baseline)\n"
          "  fs                     file create/remove benchmark\n"
          "  plot     RESULTS...    gnuplot scaling graphs\n"
          "  compare  A B [C...]    relative-% table with significance marks\n"
          "  report   RESULTS...    one self-contained HTML page per study\n"
          "  server   start|stop ENGINE   throwaway local PostgreSQL or MariaDB\n\n"
          "workloads: oltp_read_only oltp_read_write oltp_write_only oltp_point_select\n"
          "  oltp_update_index oltp_update_non_index oltp_insert oltp_delete\n"
          "  select_random_points select_random_ranges\n"
          "  or a sysbench Lua script: dbscale ./x.lua [options] COMMAND\n",
          f);
}

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

int main(int argc, char **argv)
{
    hide_passwords(argc, argv);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *v = argv[1];
    if (!strcmp(v, "--help") || !strcmp(v, "-h") || !strcmp(v, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(v, "--version") || !strcmp(v, "version")) {
        printf("dbscale %s (%s)\n", DBSCALE_VERSION, DBSCALE_GIT);
        return 0;
    }
    if (!strcmp(v, "prepare") || !strcmp(v, "run") || !strcmp(v, "cleanup")) {
        /* a .lua file (or NAME.lua here) runs the script; built-in names the C mixes */
        if (lua_verb_find_script(argc - 2, argv + 2) >= 0)
            return lua_main(v, argc - 2, argv + 2);
        return oltp_main(v, argc - 1, argv + 1);
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
    /* sysbench's order: dbscale oltp_read_only --threads=4 run */
    for (int i = 2; i < argc; i++) {
        const char *w = argv[i];
        if (strcmp(w, "prepare") && strcmp(w, "run") && strcmp(w, "cleanup"))
            continue;
        for (int j = i; j > 1; j--)
            argv[j] = argv[j - 1];
        argv[1] = (char *)w;
        return oltp_main(w, argc - 1, argv + 1);
    }
    fprintf(stderr, "dbscale: unknown verb '%s' (try: dbscale --help)\n", v);
    return EXIT_USAGE;
}
