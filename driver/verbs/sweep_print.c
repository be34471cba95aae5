/*
 * sweep_print.c - what `dbscale sweep` says on the terminal while it runs:
 * the progress line of each level (a disturbed level on a line of its own),
 * the kernel baseline's and the collectors' notes, and the list of disturbed
 * levels after the summary.
 */
#include "verbs/sweep_print.h"

#include <stdio.h>
#include <unistd.h>

#include "sweep/baseline.h"
#include "core/cpulist.h"
#include "verbs/study_page.h"
#include "page/page_study.h"
#include "report/report_sweep.h"

void sweep_print_baseline(const struct sweep *w, int k, void *arg)
{
    (void)arg;
    char cl[1024] = "?";
    struct cpulist set;
    if (cpulist_init(&set) == 0) {
        for (int i = 0; i < k; i++)
            cpulist_add(&set, w->plan.online[i]);
        cpulist_format(&set, cl, sizeof cl);
    }
    cpulist_free(&set);
    if (isatty(2))
        fputc('\n', stderr);
    fprintf(stderr, "dbscale sweep: kernel baseline on CPUs %s (%s)\n", cl,
            baseline_list(w->cfg.baseline));
}

/* A collector's sentence (a missing grant, perf not permitted, ...). */
void sweep_print_why_note(const char *msg, void *arg)
{
    (void)arg;
    if (isatty(2))
        fputc('\n', stderr);
    fprintf(stderr, "dbscale sweep: why: %s\n", msg);
}

void sweep_print_progress(const struct sweep *w, int i, const char *variant, double eta, void *arg)
{
    (void)arg;
    const struct sweep_level *lv = &w->plan.levels[i];
    const struct result_row *r = &w->rows[w->nrows - 1];
    int tty = isatty(2);
    /* a disturbed level says so where the user looks, on a line of its own
     * that the next level's does not overwrite */
    char why[160] = "";
    if (r->disturbed)
        snprintf(why, sizeof why, "  DISTURBED: %s", r->disturbed_why[0] ? r->disturbed_why : "?");
    fprintf(stderr, "%s[%d/%d] %s cpus=%d threads=%d repeat %d/%d: %.1f tps%s  (ETA %dm%02ds)%s",
            tty ? "\r\033[K" : "", i + 1, w->plan.nlevels, variant, w->plan.kcpus[lv->k],
            lv->threads, lv->repeat, w->plan.repeats, r->tps, why, (int)eta / 60, (int)eta % 60,
            tty && !r->disturbed ? "" : "\n");
    fflush(stderr);
}

/* The summary's figures include disturbed levels; say which they are. */
void sweep_print_disturbed(const struct result_row *rows, int n)
{
    int nd = 0;
    for (int i = 0; i < n; i++)
        nd += rows[i].disturbed != 0;
    if (!nd)
        return;
    printf("\n%d disturbed level%s (marked in results.csv, column disturbed):\n", nd,
           nd == 1 ? "" : "s");
    for (int i = 0, shown = 0; i < n && shown < 10; i++)
        if (rows[i].disturbed) {
            printf("  %s cpus=%d threads=%d repeat %d: %s\n", rows[i].variant, rows[i].cpus,
                   rows[i].threads, rows[i].repeat,
                   rows[i].disturbed_why[0] ? rows[i].disturbed_why : "disturbed");
            shown++;
        }
    if (nd > 10)
        printf("  ... and %d more\n", nd - 10);
}

int sweep_print_end(struct sweep *w, int saved, int meta_ok)
{
    report_sweep_summary(stdout, w->rows + w->nold, (size_t)saved);
    sweep_print_disturbed(w->rows + w->nold, saved);
    printf("\nresults: %s/results.csv (%d level%s%s)%s%s/meta.json\n", w->out, saved,
           saved == 1 ? "" : "s", w->nold ? " added" : "",
           meta_ok ? ", " : "; not written: ", w->out);
    if (!opts_bool(&w->o, "report"))
        return 0;
    char page[1200], perr[600];
    page_known_options(w->o.defs, w->o.n); /* the reproduce line's names */
    if (study_page_write_dir(w->out, page, sizeof page, perr, sizeof perr) < 0) {
        fprintf(stderr, "dbscale sweep: report page: %s\n", perr);
        return -1;
    }
    printf("report: %s\n", page);
    return 0;
}
