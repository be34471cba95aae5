/*
 * manpage.c - the man page, dbscale.1, written from verb_table.c and the
 * option tables.
 *
 * The one idea: the build runs `dbscale --man`, so every verb and every
 * option the parsers take appears with its default, and a new option
 * cannot be forgotten; each option's line is the one --help prints
 * (verb_table_opts), so the two never disagree. Text from the tables is escaped for roff here (a
 * backslash, a line starting with '.' or '\''), nowhere else.
 *
 * Only writes text; never parses a command line.
 */
#include "verbs/manpage.h"

#include <stdlib.h>
#include <string.h>

#include "core/config_path.h"
#include "verbs/help.h"
#include "core/options.h"
#include "core/util.h"
#include "verbs/verb_table.h"
#include "client/workload.h"

/* s as roff text: '\' as \e, '-' as \- (a minus, so options can be
 * searched and pasted) */
static void roff(FILE *f, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else if (*s == '\n')
            fputs("\n.br\n", f);
        else
            fputc(*s, f);
    }
}

static void option(FILE *f, const struct verb_opt *o)
{
    fputs(".TP\n.BI \"", f);
    roff(f, "--");
    roff(f, o->name);
    fputs("=\" \"", f);
    roff(f, o->meta);
    fputs("\"\n", f);
    roff(f, o->text);
    fputs("\n", f);
}

int manpage_write(FILE *f)
{
    fputs(".TH DBSCALE 1 \"\" \"dbscale " DBSCALE_VERSION "\" \"User Commands\"\n"
          ".SH NAME\n"
          "dbscale \\- how well a database server scales across client concurrency and CPU "
          "count\n"
          ".SH SYNOPSIS\n"
          ".B dbscale\n.I VERB\n[\\fIoptions\\fR]\n.br\n"
          ".B dbscale\n.I WORKLOAD\n[\\fIoptions\\fR] \\fICOMMAND\\fR\n"
          ".SH DESCRIPTION\n"
          "dbscale is a sysbench\\-compatible OLTP driver for PostgreSQL and MariaDB: a sysbench "
          "command line works after swapping the program name. It also sweeps client threads "
          "against the server's CPU count, writes the results, and draws them.\n"
          ".PP\n"
          "Every option is \\fB\\-\\-name=value\\fR or \\fB\\-\\-name value\\fR on the command "
          "line, or \\fBname = value\\fR in an INI file given with \\fB\\-\\-config\\fR, which "
          "is looked for in the working directory, then among the installed configs.\n"
          "In sysbench's order, \\fICOMMAND\\fR is one of " HELP_COMMANDS
          "; \\fBdbscale \\fIWORKLOAD\\fB help\\fR lists the workload's options as sysbench's "
          "does.\n"
          ".SH VERBS\n",
          f);
    for (size_t i = 0; i < verb_table_n; i++) {
        const struct verb_info *v = &verb_table[i];
        fprintf(f, ".SS \"%s ", v->name);
        roff(f, v->args);
        fputs("\"\n", f);
        roff(f, v->summary);
        fputs(".\n", f);
        size_t n;
        struct verb_opt *o = verb_table_opts(v->name, &n);
        if (n)
            fputs(".PP\nOptions (the default in brackets):\n", f);
        for (size_t k = 0; k < n; k++)
            option(f, &o[k]);
        verb_table_opts_free(o, n);
    }
    fputs(".SH WORKLOADS\n", f);
    for (int i = 0; workload_names[i]; i++)
        fprintf(f, "%s\\fB%s\\fR", i ? ", " : "", workload_names[i]);
    fputs(
        ", \\fBbulk_insert\\fR (every script sysbench ships runs by its name, from "
        "/usr/share/sysbench), or a sysbench Lua script (\\fBdbscale ./x.lua\\fR [\\fIoptions\\fR] "
        "\\fICOMMAND\\fR).\n.SH ENVIRONMENT\n"
        "An option given on the command line or in a config wins over these.\n",
        f);
    for (size_t i = 0; i < help_env_n; i++) {
        fputs(".TP\n.B ", f);
        roff(f, help_env_table[i].names);
        fputs("\n", f);
        roff(f, help_env_table[i].what);
        fputs("\n", f);
    }
    fputs(".SH FILES\n.TP\n.I ", f);
    roff(f, DBSCALE_CONFIGDIR);
    fputs("\nthe example configs, found by bare name with \\fB\\-\\-config\\fR\n"
          ".SH EXIT STATUS\n"
          "0 success, 1 a failure at run time, 2 a bad command line or input.\n"
          ".SH SEE ALSO\n"
          ".BR sysbench (1),\n.BR pgbench (1),\n.BR mariadb (1)\n",
          f);
    return ferror(f) ? -1 : 0;
}

int manpage_dump_options(FILE *f)
{
    for (size_t i = 0; i < verb_table_n; i++) {
        size_t n;
        struct verb_opt *o = verb_table_opts(verb_table[i].name, &n);
        for (size_t k = 0; k < n; k++)
            fprintf(f, "%s\t--%s\t%s\n", verb_table[i].name, o[k].name, o[k].def);
        verb_table_opts_free(o, n);
    }
    return ferror(f) ? -1 : 0;
}
