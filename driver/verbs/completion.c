/*
 * completion.c - the bash completion script, written from verb_table.c and
 * the option tables at build time (`dbscale --bash-completion`).
 *
 * The one idea: the script holds plain word lists per verb, generated, so it
 * needs no dbscale at completion time and cannot offer an option the parser
 * refuses. Choices (--db-driver=pgsql|mysql ...) complete after '='.
 *
 * Only writes text; never parses a command line.
 */
#include <stdlib.h>
#include <string.h>

#include "verbs/help.h"
#include "verbs/manpage.h"
#include "core/options.h"
#include "verbs/verb_table.h"
#include "client/workload.h"

/* "a|b|c" as "a b c" */
static void words(FILE *f, const char *choices)
{
    for (const char *p = choices; *p; p++)
        fputc(*p == '|' ? ' ' : *p, f);
}

int completion_write(FILE *f)
{
    fputs("# bash completion for dbscale(1), generated from its option tables by\n"
          "# `dbscale --bash-completion`: edit the tables, not this file.\n"
          "_dbscale() {\n"
          "    local cur prev verb opt i words\n"
          "    COMPREPLY=()\n"
          "    cur=${COMP_WORDS[COMP_CWORD]}\n"
          "    prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    verb=\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "        case ${COMP_WORDS[i]} in\n"
          "        -*) ;;\n",
          f);
    fputs("        help", f);
    for (size_t i = 0; i < verb_table_n; i++)
        fprintf(f, "|%s", verb_table[i].name);
    fputs(") verb=${COMP_WORDS[i]}; break ;;\n"
          "        *) [ -z \"$verb\" ] && verb=run ;; # sysbench's order: WORKLOAD [options] "
          "COMMAND\n"
          "        esac\n"
          "    done\n"
          "    # --name=<TAB>: bash splits the word at '='\n"
          "    opt=\n"
          "    if [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -ge 2 ]; then\n"
          "        opt=${COMP_WORDS[COMP_CWORD-2]}\n"
          "    elif [ \"$cur\" = = ]; then\n"
          "        opt=$prev\n"
          "        cur=\n"
          "    fi\n"
          "    if [ -n \"$opt\" ]; then\n"
          "        case $verb:$opt in\n",
          f);
    for (size_t i = 0; i < verb_table_n; i++) {
        size_t n;
        struct verb_opt *o = verb_table_opts(verb_table[i].name, &n);
        for (size_t k = 0; k < n; k++) {
            if (o[k].type != OPT_CHOICE && o[k].type != OPT_BOOL)
                continue;
            fprintf(f, "        %s:--%s) words=\"", verb_table[i].name, o[k].name);
            words(f, o[k].type == OPT_BOOL ? "on|off" : o[k].choices);
            fputs("\" ;;\n", f);
        }
        verb_table_opts_free(o, n);
    }
    fputs("        *) words= ;;\n"
          "        esac\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "        return 0\n"
          "    fi\n"
          "    case $verb in\n",
          f);
    for (size_t i = 0; i < verb_table_n; i++) {
        size_t n;
        struct verb_opt *o = verb_table_opts(verb_table[i].name, &n);
        fprintf(f, "    %s) words=\"--help", verb_table[i].name);
        for (size_t k = 0; k < n; k++)
            fprintf(f, " --%s%s", o[k].name, o[k].type == OPT_BOOL ? "" : "=");
        fputs("\" ;;\n", f);
        verb_table_opts_free(o, n);
    }
    fputs("    *) words=\"--help --version\" ;;\n"
          "    esac\n"
          "    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace "
          "2>/dev/null\n"
          "        return 0\n"
          "    fi\n"
          "    case $verb in\n"
          "    '') words=\"help",
          f);
    for (size_t i = 0; i < verb_table_n; i++)
        fprintf(f, " %s", verb_table[i].name);
    for (int i = 0; workload_names[i]; i++)
        fprintf(f, " %s", workload_names[i]);
    fputs("\" ;;\n    help) words=\"", f);
    for (size_t i = 0; i < verb_table_n; i++)
        fprintf(f, "%s ", verb_table[i].name);
    for (int i = 0; workload_names[i]; i++)
        fprintf(f, "%s ", workload_names[i]);
    fputs("\" ;;\n    prepare|prewarm|run|cleanup|sweep) words=\"", f);
    for (int i = 0; workload_names[i]; i++)
        fprintf(f, "%s ", workload_names[i]);
    fputs(HELP_COMMANDS_WORDS "\" ;;\n"
                              "    server) words=\"start stop pgsql mysql\" ;;\n"
                              "    *) COMPREPLY=($(compgen -f -- \"$cur\")); return 0 ;;\n"
                              "    esac\n"
                              "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
                              "    return 0\n"
                              "}\n"
                              "complete -F _dbscale dbscale\n",
          f);
    return ferror(f) ? -1 : 0;
}
