/*
 * help.c - usage, a verb's options, the environment, and `WORKLOAD help`.
 *
 * The one idea: every line of help is drawn from a table the code itself
 * runs on (verb_table.c for verbs and options, help_env_table for the
 * environment), so help cannot promise what the parser does not take. The
 * man page (manpage.c) reads the same tables.
 *
 * Only prints; never parses a command line nor decides an exit code.
 */
#include "verbs/help.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "client/oltp.h"
#include "core/util.h"
#include "verbs/verb_table.h"
#include "client/workload.h"

#define OLTP_VERBS "prepare prewarm run cleanup sweep"

const struct help_env help_env_table[] = {
    {"PGHOST, PGPORT, PGUSER, PGDATABASE",
     "PostgreSQL host, port, user and database where no --pgsql-* option gives them (in place "
     "of sysbench's defaults)",
     OLTP_VERBS},
    {"PGPASSWORD, PGPASSFILE", "PostgreSQL password, or the password file (default ~/.pgpass)",
     OLTP_VERBS},
    {"PGSERVICE, PGSERVICEFILE", "a connection service of ~/.pg_service.conf (or of PGSERVICEFILE)",
     OLTP_VERBS},
    {"PGSSLMODE, PGCONNECT_TIMEOUT, ...", "the other PG* variables, as libpq reads them",
     OLTP_VERBS},
    {"MYSQL_HOST, MYSQL_TCP_PORT, MYSQL_UNIX_PORT",
     "MariaDB host, port and socket where no --mysql-* option gives them", OLTP_VERBS},
    {"MYSQL_PWD", "MariaDB password (prefer --mysql-defaults-file)", OLTP_VERBS},
    {"DBSCALE_DATADIR",
     "where schemas/, graphs/ and configs/ are (default: beside the binary, "
     "PREFIX/share/dbscale installed)",
     NULL},
    {"DBSCALE_TXN_LOG", "a file to log every transaction's start and end time to (debugging)",
     "run sweep"},
    {"DBSCALE_LUA_MEM_MB",
     "a scripted run is stopped when dbscale's memory reaches this many MB (default: half "
     "the machine's)",
     "run sweep"},
    {"DBSCALE_PGBIN",
     "the PostgreSQL bin directory for throwaway servers (default: the newest "
     "/usr/lib/postgresql/N/bin; --server-bin names another)",
     "server sweep study"},
    {"DBSCALE_SERVER_DIR", "the throwaway server `dbscale server stop` stops", "server"},
    {"DBSCALE_SERVER_CACHE",
     "a directory only you can write, where a throwaway server's freshly made data directory is "
     "kept and copied for the next start in place of initdb or mariadb-install-db (the tests "
     "set it; unset: every start runs the tool)",
     "server sweep study kernels"},
    {"DBSCALE_SYSFS_ROOT", "read the CPU topology from this copy of /sys (tests)",
     "sweep micro fs server"},
    {"DBSCALE_PARSE_ONLY",
     "set: a command line the verb's parser takes exits 0 there, before anything runs (the "
     "docs' commands are checked so)",
     NULL},
    {"TMPDIR", "where a throwaway server's directory is made (default /tmp)", "server sweep study"},
    {"XDG_CACHE_HOME, HOME",
     "where kernels (and a study in guests) keeps the initramfs and unpacked kernels it builds "
     "(XDG_CACHE_HOME/dbscale, else ~/.cache/dbscale)",
     "kernels study"},
    {"PATH", "where kernels (and a study in guests) finds qemu-system-x86_64 and a static busybox",
     "kernels study"},
};
const size_t help_env_n = sizeof help_env_table / sizeof help_env_table[0];

static int word_in(const char *word, const char *list)
{
    size_t l = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += l)
        if ((p == list || p[-1] == ' ') && (p[l] == ' ' || p[l] == '\0'))
            return 1;
    return 0;
}

void help_env_print(FILE *f, const char *verb)
{
    int any = 0;
    for (size_t i = 0; i < help_env_n; i++) {
        const struct help_env *e = &help_env_table[i];
        if (verb && e->verbs && !word_in(verb, e->verbs))
            continue;
        if (!any++)
            fputs("\nenvironment (an option on the command line or in --config wins):\n", f);
        fprintf(f, "  %s\n      %s\n", e->names, e->what);
    }
}

void help_usage(FILE *f)
{
    fputs("dbscale " DBSCALE_VERSION " - how well a database server scales across client\n"
          "concurrency and CPU count\n\n"
          "usage: dbscale VERB [options]    (dbscale help VERB lists every option)\n\n",
          f);
    for (size_t i = 0; i < verb_table_n; i++) {
        const struct verb_info *v = &verb_table[i];
        char left[64];
        snprintf(left, sizeof left, "%s %s", v->name, v->args);
        fprintf(f, "  %-36s %s\n", left, v->summary);
    }
    fputs("\nworkloads:", f);
    for (int i = 0, col = 10; workload_names[i]; i++) {
        size_t l = strlen(workload_names[i]);
        if (col + l + 1 > 78) {
            fputs("\n ", f);
            col = 1;
        }
        fprintf(f, " %s", workload_names[i]);
        col += (int)l + 1;
    }
    fputs("\n  bulk_insert (every script sysbench ships runs by name, from /usr/share/sysbench)\n"
          "  or a sysbench Lua script: dbscale ./x.lua [options] COMMAND\n"
          "sysbench's order works too: dbscale WORKLOAD [options] COMMAND, COMMAND one of\n"
          "  " HELP_COMMANDS " (help: the workload's options, as sysbench's)\n",
          f);
    help_env_print(f, NULL);
}

void help_verb_options(FILE *f, const char *verb, const struct opts *o)
{
    struct optdef *defs = xcalloc(o->n ? o->n : 1, sizeof *defs);
    size_t n = 0;
    for (size_t i = 0; i < o->n; i++)
        if (verb_table_uses(verb, o->defs[i].name))
            defs[n++] = o->defs[i];
    struct opts shown;
    opts_init(&shown, defs, n);
    opts_help(&shown, f);
    opts_free(&shown);
    free(defs);
    help_env_print(f, verb);
}

/* The options oltp_common.lua declares, which is what sysbench's `help`
 * of every oltp_* script lists; the select_random_* scripts add theirs. */
static const char *const common_opts[] = {"auto-inc",
                                          "create-secondary",
                                          "delete-inserts",
                                          "distinct-ranges",
                                          "index-updates",
                                          "mysql-storage-engine",
                                          "non-index-updates",
                                          "order-ranges",
                                          "pgsql-variant",
                                          "point-selects",
                                          "range-selects",
                                          "range-size",
                                          "secondary",
                                          "simple-ranges",
                                          "skip-trx",
                                          "sum-ranges",
                                          "table-size",
                                          "tables",
                                          NULL};

static const struct {
    const char *workload;
    const char *extra[3];
} workload_extra[] = {
    {"select_random_points", {"random-points", NULL}},
    {"select_random_ranges", {"number-of-ranges", "delta", NULL}},
};

static const struct optdef *find_def(const char *name)
{
    for (size_t i = 0; i < oltp_noptdefs(); i++)
        if (!strcmp(oltp_optdefs()[i].name, name))
            /* what opts_help leaves out (an option dbscale refuses) is no option to offer */
            return oltp_optdefs()[i].help && oltp_optdefs()[i].type != OPT_REFUSED
                       ? &oltp_optdefs()[i]
                       : NULL;
    return NULL;
}

static int by_name(const void *a, const void *b)
{
    const struct optdef *x = *(const struct optdef *const *)a;
    const struct optdef *y = *(const struct optdef *const *)b;
    return strcmp(x->name, y->name);
}

/* sysbench's =STRING; every other kind of value is a number (=N), sizes
 * with a suffix too, as sysbench's help writes --table_size=N */
static int text_type(enum opt_type t)
{
    return t == OPT_STR || t == OPT_CHOICE || t == OPT_LIST || t == OPT_SECRET;
}

/* sysbench's spelling: '_' where dbscale's table has '-' */
static void underscored(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s", name);
    for (char *p = out; *p; p++)
        if (*p == '-')
            *p = '_';
}

int help_workload(FILE *f, const char *workload)
{
    int known = 0;
    for (int i = 0; workload_names[i]; i++)
        known |= !strcmp(workload_names[i], workload);
    if (!known)
        return -1;
    const struct optdef *list[32];
    size_t n = 0;
    for (int i = 0; common_opts[i]; i++)
        if (find_def(common_opts[i]) && n < 32)
            list[n++] = find_def(common_opts[i]);
    for (size_t w = 0; w < sizeof workload_extra / sizeof workload_extra[0]; w++)
        if (!strcmp(workload_extra[w].workload, workload))
            for (int i = 0; workload_extra[w].extra[i]; i++)
                if (find_def(workload_extra[w].extra[i]) && n < 32)
                    list[n++] = find_def(workload_extra[w].extra[i]);
    qsort(list, n, sizeof list[0], by_name); /* '-' and '_' sort alike against letters */
    fprintf(f, "dbscale %s (sysbench-compatible)\n\n%s options:\n", DBSCALE_VERSION, workload);
    for (size_t i = 0; i < n; i++) {
        const struct optdef *d = list[i];
        char name[64], left[96], help[512];
        underscored(name, sizeof name, d->name);
        snprintf(left, sizeof left, "--%s%s", name,
                 d->type == OPT_BOOL  ? "[=on|off]"
                 : text_type(d->type) ? "=STRING"
                                      : "=N");
        /* sysbench's descriptions start with a capital */
        snprintf(help, sizeof help, "%s", d->help);
        help[0] = (char)toupper((unsigned char)help[0]);
        fprintf(f, "  %-29s %s", left, help);
        if (d->def && d->type != OPT_SECRET)
            fprintf(f, " [%s]", d->def);
        fputc('\n', f);
    }
    fputc('\n', f);
    return 0;
}
