/*
 * verb_table.c - the list of verbs and the options each one lists.
 *
 * The one idea: one list, read by `dbscale --help`, `dbscale VERB --help`,
 * the man page and the completion, so they agree with each other and with
 * the parsers (which read the same option tables). prepare, cleanup and
 * prewarm parse run's whole table (a sysbench command line stays valid
 * whatever the command word), but say only what they use.
 *
 * Never parse or run anything here: this is a catalogue.
 */
#include "verbs/verb_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/oltp.h"
#include "core/util.h"
#include "verbs/verbs.h"

const struct verb_info verb_table[] = {
    {"prepare", "WORKLOAD [options]", "create and load the sbtest tables"},
    {"prewarm", "WORKLOAD [options]", "load the tables and their indexes into the buffer pool"},
    {"run", "WORKLOAD [options]", "one concurrency level, sysbench-style report"},
    {"cleanup", "WORKLOAD [options]", "drop what prepare made"},
    {"sweep", "[WORKLOAD] [options]", "threads x CPU count x variant x repeats -> results dir"},
    {"micro", "[TEST...] [options]", "syscall microbenchmarks (kernel baseline)"},
    {"fs", "[options]", "file create/remove benchmark"},
    {"plot", "RESULTS... [options]", "gnuplot scaling graphs"},
    {"compare", "A B [C...] [options]", "relative-% table with significance marks"},
    {"report", "RESULTS... [options]", "one self-contained HTML page per study"},
    {"server", "start|stop ENGINE [options]", "throwaway local PostgreSQL or MariaDB"},
    {"study", "[axes] [options] -- sweep|micro|fs ARGS",
     "variants (builds, settings, kernels) interleaved, compared"},
    {"kernels", "[options] -- sweep|micro|fs ARGS", "boot kernel variants in qemu, compare them"},
};
const size_t verb_table_n = sizeof verb_table / sizeof verb_table[0];

const struct verb_info *verb_table_find(const char *name)
{
    for (size_t i = 0; i < verb_table_n; i++)
        if (!strcmp(verb_table[i].name, name))
            return &verb_table[i];
    return NULL;
}

static int in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(name, *list))
            return 1;
    return 0;
}

/* Where and as whom to connect: every command that talks to a server. */
static int conn_opt(const char *name)
{
    return !strcmp(name, "db-driver") || oltp_option_engine(name) != NULL;
}

int verb_table_uses(const char *verb, const char *name)
{
    /* what prepare's load reads: the table shape, and k drawn as sysbench's
     * sb_rand() does, from the --rand-type distribution */
    static const char *const load[] = {"config",
                                       "tables",
                                       "table-size",
                                       "auto-inc",
                                       "secondary",
                                       "create-secondary",
                                       "mysql-storage-engine",
                                       "rand-type",
                                       "rand-seed",
                                       "rand-spec-iter",
                                       "rand-spec-pct",
                                       "rand-spec-res",
                                       "rand-pareto-h",
                                       "rand-zipfian-exp",
                                       NULL};
    static const char *const drop[] = {"config", "tables", NULL};
    static const char *const warm[] = {"config", "tables", "table-size", "threads", NULL};
    if (!strcmp(verb, "prepare"))
        return in(name, load) || conn_opt(name);
    if (!strcmp(verb, "cleanup"))
        return in(name, drop) || conn_opt(name);
    if (!strcmp(verb, "prewarm"))
        return in(name, warm) || conn_opt(name);
    return 1;
}

static struct optdef *copy(const struct optdef *d, size_t n)
{
    struct optdef *c = xcalloc(n ? n : 1, sizeof *c);
    memcpy(c, d, n * sizeof *d);
    return c;
}

struct optdef *verb_table_optdefs(const char *verb, size_t *n)
{
    struct optdef *all = NULL;
    size_t na = 0;
    if (!strcmp(verb, "sweep"))
        return sweep_verb_optdefs(n);
    if (!strcmp(verb, "prepare") || !strcmp(verb, "prewarm") || !strcmp(verb, "run") ||
        !strcmp(verb, "cleanup")) {
        all = copy(oltp_optdefs(), oltp_noptdefs());
        na = oltp_noptdefs();
    } else {
        static const struct {
            const char *verb;
            const struct optdef *(*defs)(size_t *n);
        } others[] = {
            {"micro", micro_verb_optdefs},     {"fs", fs_verb_optdefs},
            {"plot", plot_verb_optdefs},       {"compare", compare_verb_optdefs},
            {"report", report_verb_optdefs},   {"server", server_verb_optdefs},
            {"kernels", kernels_verb_optdefs}, {"study", study_verb_optdefs},
        };
        for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
            if (!strcmp(others[i].verb, verb)) {
                const struct optdef *d = others[i].defs(&na);
                all = copy(d, na);
            }
        if (!all) {
            *n = 0;
            return xcalloc(1, sizeof(struct optdef));
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < na; i++)
        if (verb_table_uses(verb, all[i].name))
            all[k++] = all[i];
    *n = k;
    return all;
}

/* "  --NAME=META   TEXT" as opts_help writes it: 1 and the parts, or 0 */
static int split_line(const char *line, const char *name, char **meta, char **text)
{
    size_t nl = strlen(name);
    if (strncmp(line, "  --", 4) || strncmp(line + 4, name, nl) || line[4 + nl] != '=')
        return 0;
    const char *m = line + 4 + nl + 1, *sp = strchr(m, ' ');
    if (!sp)
        return 0;
    *meta = xstrdup(m);
    (*meta)[sp - m] = '\0';
    *text = xstrdup(sp + strspn(sp, " "));
    return 1;
}

struct verb_opt *verb_table_opts(const char *verb, size_t *n)
{
    size_t nd;
    struct optdef *d = verb_table_optdefs(verb, &nd);
    struct opts o;
    opts_init(&o, d, nd);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        opts_help(&o, f);
        fclose(f);
    }
    opts_free(&o);
    struct verb_opt *v = xcalloc(nd ? nd : 1, sizeof *v);
    *n = 0;
    /* each entry's line, if opts_help wrote one (a refused option has none) */
    for (size_t k = 0; k < nd && buf; k++)
        for (char *line = buf; line && *line;) {
            char *end = strchr(line, '\n');
            if (end)
                *end = '\0';
            char *meta, *text;
            int hit = split_line(line, d[k].name, &meta, &text);
            if (end)
                *end = '\n';
            if (hit) {
                struct verb_opt *e = &v[(*n)++];
                e->name = xstrdup(d[k].name);
                e->type = d[k].type;
                e->choices = d[k].choices;
                e->meta = meta;
                e->text = text;
                size_t tl = strlen(text);
                char *open = tl && text[tl - 1] == ']' ? strrchr(text, '[') : NULL;
                e->def = xstrdup(open ? open + 1 : "");
                if (open)
                    e->def[strlen(e->def) - 1] = '\0';
                break;
            }
            line = end ? end + 1 : NULL;
        }
    free(buf);
    free(d);
    return v;
}

void verb_table_opts_free(struct verb_opt *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].meta);
        free(v[i].text);
        free(v[i].def);
    }
    free(v);
}
