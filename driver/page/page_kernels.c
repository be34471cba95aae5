/*
 * page_kernels.c - the kernel variants of a page, side by side.
 *
 * The one idea: everything here is rendered from analysis/'s values: the
 * variants and their facts (kvariants.h: the host's record where there is
 * one, the guest's kernel.json otherwise), the tables of points with boots
 * as the unit (ktable.h: every relative % is floor((a / b - 1) x 100), as the
 * reference will-it-scale table's FvD / FvN / DvN columns are, and every
 * mark holds at a 5% false-discovery rate over its table), and the SMP
 * write-up's two sentences (kverdict.h), each with its pooled change, its
 * 95% interval and the unit it was computed over, or the word that it is
 * not established.
 *
 * Never compute a figure here, never write a change without its interval
 * or its reason for having none, and never let a string from a file reach
 * the page but through page_esc().
 */
#include "page/page_kernels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/ktable.h"
#include "analysis/kvariants.h"
#include "analysis/kverdict.h"
#include "page/page_html.h"

static int is_guest(const struct kvariant *v)
{
    return !strcmp(v->accel, "tcg") || !strcmp(v->accel, "kvm");
}

/* ---- the banner ---- */

void page_kernels_banner(const struct verdict *v, struct sbuf *b)
{
    if (!v)
        return;
    const struct kvariants *kv = &v->k.kv;
    int tcg = 0;
    struct sbuf unpinned = {0}, failed = {0};
    for (size_t d = 0; d < kv->n; d++) {
        const struct kvariant *v = &kv->v[d];
        tcg |= !strcmp(v->accel, "tcg");
        if (is_guest(v) && v->pinned == 0) /* the host's word, never a guest's silence */
            sbuf_printf(&unpinned, "%s%c", unpinned.len ? ", " : "", kverdict_letter(d));
        if (v->boots_unpinned)
            sbuf_printf(&failed, "%s%c (%zu)", failed.len ? ", " : "", kverdict_letter(d),
                        v->boots_unpinned);
    }
    if (tcg)
        sbuf_printf(b, "<p class=\"warn\" id=\"emulated\"><b>Emulated:</b> these figures were "
                       "measured in qemu guests under TCG, a CPU emulator (no KVM on the host). "
                       "They compare the kernels as an emulator runs them, not as the hardware "
                       "does: emulated atomics, locks and context switches cost other amounts, so "
                       "read the relative figures as a sketch and repeat the study on a KVM host "
                       "or on bare metal before drawing conclusions.</p>\n");
    if (unpinned.len)
        sbuf_printf(b,
                    "<p class=\"warn\" id=\"unpinned\">The study's record (kernels.json) "
                    "says the vCPUs of variants %s were not pinned: they shared host CPUs "
                    "with each other and with qemu's own threads.</p>\n",
                    unpinned.s);
    if (failed.len)
        sbuf_printf(b,
                    "<p class=\"warn\" id=\"pin-failed\">Pinning the vCPUs failed in boots "
                    "of variants %s (kernels.json): those boots' vCPUs shared host "
                    "CPUs.</p>\n",
                    failed.s);
    sbuf_free(&unpinned);
    sbuf_free(&failed);
}

/* ---- the variants ---- */

/* How UP was reached, for each CPU count the variant's database curves
 * held the server to. */
static void up_modes(const struct curves *cv, size_t d, const struct kernel_facts *f,
                     struct sbuf *o)
{
    int one = 0, more = 0;
    for (size_t i = 0; i < cv->nc; i++)
        if ((size_t)cv->c[i].dir == d)
            one |= cv->c[i].cpus == 1, more |= cv->c[i].cpus > 1;
    const char *m1 = kernelinfo_up_mode(f, 1);
    if (!strcmp(m1, "booted"))
        sbuf_printf(o, "booted with one CPU (%s)", f->boot_why);
    else if (!strcmp(m1, "built"))
        sbuf_printf(o, "no SMP build (%s)", f->boot_why);
    else if (one && more)
        sbuf_printf(o, "SMP; held to 1 CPU at its 1-CPU points");
    else if (one)
        sbuf_printf(o, "SMP, held to 1 CPU");
    else
        sbuf_printf(o, "SMP");
}

/* Each study's own record, once: what the host did for all its variants. */
static void host_lines(const struct kvariants *kv, struct sbuf *b)
{
    for (size_t h = 0; h < kv->nhosts; h++) {
        const struct studyjson *s = &kv->hosts[h];
        sbuf_printf(b, "<p class=\"note\" id=\"kernel-host\">The host's record (");
        page_escf(b, "%s/kernels.json", kv->host_dirs[h]);
        if (!s->accel[0]) {
            sbuf_printf(b, ") says nothing of the guest: machine and pinning unknown.</p>\n");
            continue;
        }
        page_escf(b, "): qemu, %s; %d vCPU%s, %d MB; ",
                  !strcmp(s->accel, "tcg")   ? "TCG (emulated)"
                  : !strcmp(s->accel, "kvm") ? "KVM"
                                             : s->accel,
                  s->vcpus, s->vcpus == 1 ? "" : "s", s->mem_mb);
        if (s->pinned && s->pinning[0]) {
            sbuf_printf(b, "vCPU:host CPU ");
            page_esc(b, s->pinning);
        } else
            sbuf_printf(b, "vCPUs not pinned");
        sbuf_printf(b, "; housekeeping CPUs (qemu's own threads) ");
        page_esc(b, s->housekeeping[0] ? s->housekeeping : "none");
        if (s->sockets > 0)
            sbuf_printf(b, "; topology %d socket%s x %d core%s x %d thread%s, %d NUMA node%s",
                        s->sockets, s->sockets == 1 ? "" : "s", s->cores, s->cores == 1 ? "" : "s",
                        s->threads, s->threads == 1 ? "" : "s", s->nodes, s->nodes == 1 ? "" : "s");
        if (s->share[0]) {
            sbuf_printf(b, "; share ");
            page_esc(b, s->share);
        }
        sbuf_printf(b, ".</p>\n");
    }
}

static void pinning_cell(const struct kvariant *v, struct sbuf *b)
{
    if (v->pinned == 1 && strlen(v->pinning) > 48) {
        page_escf(b, "%.40s... ", v->pinning);
        sbuf_printf(b, "(all in %s)", v->host ? "kernels.json" : "kernel.json");
    } else if (v->pinned == 1)
        page_esc(b, v->pinning);
    else if (v->pinned == 0)
        sbuf_printf(b, "not pinned");
    else
        sbuf_printf(b, "%s", is_guest(v) ? "not recorded" : "-");
}

static void boots_cell(const struct kvariant *v, struct sbuf *b)
{
    for (size_t i = 0; i < v->nboots; i++) {
        sbuf_printf(b, "%s", i ? ", " : "");
        page_esc(b, v->boots[i].name);
        if (v->boots[i].status[0] && strcmp(v->boots[i].status, "ok") != 0)
            page_escf(b, " (%s)", v->boots[i].status);
    }
    if (!v->nboots)
        sbuf_printf(b, "-");
}

static void facts_row(const struct curves *cv, const struct kvariant *v, size_t d, struct sbuf *b)
{
    const struct kernel_facts *f = &v->f;
    sbuf_printf(b, "<tr><td>%c</td><td>", kverdict_letter(d));
    page_esc(b, v->name);
    if (!v->has && !v->host) {
        sbuf_printf(b, "</td><td colspan=\"9\">no kernel.json: not recorded</td></tr>\n");
        return;
    }
    sbuf_printf(b, "</td><td>");
    page_esc(b, v->has ? f->release : v->hv->release);
    sbuf_printf(b, "<br><small>");
    page_esc(b, f->version);
    int smp = v->has ? f->config_smp : v->hv->config_smp;
    sbuf_printf(b, "</small></td><td>%s<br><small>", smp < 0 ? "?" : smp ? "y" : "n");
    page_esc(b, v->has ? f->smp_from : "the image");
    sbuf_printf(b, "</small></td><td>");
    page_esc(b, v->params);
    sbuf_printf(b, "</td><td>");
    if (v->has)
        page_escf(b, "%s / %s / %s", f->possible, f->present, f->online);
    sbuf_printf(b, "</td><td>");
    struct sbuf s = {0};
    if (v->has)
        up_modes(cv, d, f, &s);
    page_esc(b, s.s ? s.s : "not recorded");
    sbuf_free(&s);
    sbuf_printf(b, "</td><td>");
    page_esc(b, !strcmp(v->accel, "tcg")   ? "qemu, TCG (emulated)"
                : !strcmp(v->accel, "kvm") ? "qemu, KVM"
                : v->accel[0]              ? v->accel
                                           : "-");
    sbuf_printf(b, "</td><td>");
    pinning_cell(v, b);
    sbuf_printf(b, "</td><td><small>");
    page_escf(b, "%.12s", v->sha256[0] ? v->sha256 : "-");
    sbuf_printf(b, "</small></td><td>");
    boots_cell(v, b);
    sbuf_printf(b, "</td></tr>\n");
}

static void facts_table(const struct curves *cv, const struct kvariants *kv, struct sbuf *b)
{
    sbuf_printf(b, "<table class=\"kv\" id=\"kernel-variants\">\n<tr><th></th><th>variant</th>"
                   "<th>release</th><th>CONFIG_SMP</th><th>boot parameters</th><th>CPUs "
                   "possible / present / online</th><th>UP</th><th>machine</th><th>vCPU pinning"
                   "</th><th>image sha256</th><th>boots</th></tr>\n");
    for (size_t d = 0; d < kv->n; d++)
        facts_row(cv, &kv->v[d], d, b);
    sbuf_printf(b, "</table>\n");
    struct sbuf host = {0}, guest = {0};
    for (size_t d = 0; d < kv->n; d++)
        if (kv->v[d].host)
            sbuf_printf(&host, "%s%c", host.len ? ", " : "", kverdict_letter(d));
        else if (kv->v[d].has)
            sbuf_printf(&guest, "%s%c", guest.len ? ", " : "", kverdict_letter(d));
    sbuf_printf(b, "<p class=\"note\" id=\"kernel-facts-from\">Release, CONFIG_SMP, CPUs and UP: "
                   "each guest's own kernel.json. Machine, pinning, image and boot parameters:");
    if (host.len)
        sbuf_printf(b, " the study's kernels.json, the host's own record, for %s%s", host.s,
                    guest.len ? ";" : ".");
    if (guest.len)
        sbuf_printf(b,
                    " kernel.json for %s, which in a guest only repeats what the host told it "
                    "on the kernel command line (a long pinning list is left off there: \"not "
                    "recorded\" is not \"not pinned\").",
                    guest.s);
    sbuf_printf(b, " Boots: r1, r2 ... are a study's repeated boots; other boots are named by "
                   "their boot_id, \"-\" for rows from before the boot column (one boot per "
                   "directory).</p>\n");
    sbuf_free(&host);
    sbuf_free(&guest);
}

/* ---- the tables ---- */

static void rel_cell(struct sbuf *b, const struct ktable_cell *c)
{
    static const char *const mark[] = {"", "", "~", "*"};
    if (c->mark == KTABLE_NA) {
        sbuf_printf(b, "<td>N/A</td>");
        return;
    }
    sbuf_printf(b, "<td class=\"%s\" title=\"", c->rel < 0 ? "neg" : "pos");
    if (c->mark == KTABLE_NO_TEST)
        sbuf_printf(b, "no test: %zu and %zu boots", c->na, c->nb);
    else
        sbuf_printf(b, "Welch over %zu and %zu boots, q=%.3g", c->na, c->nb, c->q);
    sbuf_printf(b, "\">%+lld%s</td>", c->rel, mark[c->mark]);
}

/* The reference table's layout: keys, a raw column per variant, a relative
 * column per pair (i < j: floor((i / j - 1) x 100)). */
static void pair_table(const struct ktable *t, struct sbuf *b)
{
    int db = t->kind == KTABLE_DB;
    sbuf_printf(b, "<table class=\"kernels\" id=\"%s\">\n<tr>",
                db ? "kernel-relative-db" : "kernel-relative-micro");
    if (db)
        sbuf_printf(b, "<th>engine</th><th>workload</th><th>CPUs</th><th>threads</th>");
    else
        sbuf_printf(b, "<th>test</th><th>mode</th><th>CPUs</th><th>tasks</th>");
    for (size_t v = 0; v < t->nv; v++)
        sbuf_printf(b, "<th>%c</th>", kverdict_letter(v));
    for (size_t i = 0; i < t->nv; i++)
        for (size_t j = i + 1; j < t->nv; j++)
            sbuf_printf(b, "<th>%cv%c</th>", kverdict_letter(i), kverdict_letter(j));
    sbuf_printf(b, "</tr>\n");
    for (size_t r = 0; r < t->n; r++) {
        const struct ktable_point *q = &t->p[r];
        sbuf_printf(b, "<tr><td>");
        page_esc(b, q->k1);
        sbuf_printf(b, "</td><td>");
        page_esc(b, q->k2);
        if (q->cpus > 0)
            sbuf_printf(b, "</td><td>%d", q->cpus);
        else /* kernel tests on every CPU each kernel had online */
            sbuf_printf(b, "</td><td>%s", db ? "-" : "all");
        sbuf_printf(b, "</td><td>%g</td>", q->x);
        for (size_t v = 0; v < t->nv; v++) {
            if (isfinite(q->med[v]))
                sbuf_printf(b,
                            db ? "<td title=\"%zu boot%s\">%.1f</td>"
                               : "<td title=\"%zu boot%s\">%.0f</td>",
                            q->nboot[v], q->nboot[v] == 1 ? "" : "s", q->med[v]);
            else
                sbuf_printf(b, "<td>N/A</td>");
        }
        for (size_t i = 0; i < t->nv; i++)
            for (size_t j = i + 1; j < t->nv; j++)
                rel_cell(b, ktable_cell(t, r, i, j));
        sbuf_printf(b, "</tr>\n");
    }
    sbuf_printf(b, "</table>\n<p class=\"note\">");
    sbuf_printf(b, "%zu of %zu tested cells marked at a 5%% false-discovery rate.</p>\n", t->marked,
                t->tests);
}

/* ---- the SMP write-up's two sentences ---- */

static void sentences(const struct kvariants *kv, const struct kverdict *v, struct sbuf *b)
{
    sbuf_printf(b, "<ul class=\"headlines\" id=\"smp-sentences\">\n");
    for (size_t i = 0; i < v->n; i++) {
        const struct kverdict_one *o = &v->s[i];
        struct sbuf w = {0};
        kverdict_sentence(kv, o, &w);
        sbuf_printf(b, "<li class=\"%s\" data-class=\"%s\">",
                    o->kind == KVERDICT_COST ? "smp-cost" : "smp-peak",
                    o->cls == KVERDICT_ESTABLISHED       ? "established"
                    : o->cls == KVERDICT_NOT_ESTABLISHED ? "not-established"
                                                         : "inconclusive");
        page_esc(b, w.s);
        sbuf_printf(b, "</li>\n");
        sbuf_free(&w);
    }
    if (v->more)
        sbuf_printf(b,
                    "<li>%zu more pairs of an SMP and an UP variant not weighed here (at most "
                    "%d sentences); the tables below hold their points.</li>\n",
                    v->more, KVERDICT_MAX);
    if (!v->n)
        sbuf_printf(b, "<li>No SMP-against-UP sentence: no variant pairs an SMP kernel with one "
                       "that booted with one CPU or was built without SMP, on points both "
                       "measured.</li>\n");
    sbuf_printf(b, "</ul>\n");
}

void page_kernels(const struct curves *cv, const struct verdict *vd, struct sbuf *b)
{
    if (!vd || !vd->k.on)
        return;
    const struct kvariants *kv = &vd->k.kv;
    sbuf_printf(b, "<h2 id=\"kernels\">Kernels</h2>\n<p class=\"note\">Each results directory "
                   "as a kernel variant. UP is reached three ways: an SMP kernel held to one CPU "
                   "keeps its SMP code; one booted with one CPU patches its SMP alternatives "
                   "(x86 LOCK prefixes) into UP forms; one built without CONFIG_SMP has no SMP "
                   "code.</p>\n");
    if (kv->note[0]) {
        sbuf_printf(b, "<p class=\"warn\">");
        page_esc(b, kv->note);
        sbuf_printf(b, "</p>\n");
    }
    if (kv->left_out) {
        sbuf_printf(b,
                    "<p class=\"warn\" id=\"kernels-left-out\">%zu variant%s left out of this "
                    "comparison: ",
                    kv->left_out, kv->left_out == 1 ? "" : "s");
        page_esc(b, kv->left_why);
        sbuf_printf(b, ".</p>\n");
    }
    host_lines(kv, b);
    facts_table(cv, kv, b);
    if (kv->n >= 2) {
        const struct ktable *db = &vd->k.db, *kt = &vd->k.kt;
        sentences(kv, &vd->k.smp, b);
        if (db->n) {
            sbuf_printf(b, "<h3>Database, relative %% between variants</h3>\n");
            pair_table(db, b);
        }
        if (kt->n) {
            sbuf_printf(b, "<h3>Kernel tests, relative %% between variants</h3>\n");
            pair_table(kt, b);
        }
        if (db->n || kt->n)
            sbuf_printf(b, "<p class=\"note\">A, B ...: the median over a variant's boots of "
                           "each boot's median transactions/s (database) or operations/s (kernel "
                           "tests); AvB is floor((A / B - 1) &times; 100), the reference "
                           "will-it-scale table's FvD. Boots are the unit: * the difference "
                           "holds at a 5%% false-discovery rate over every test in its table "
                           "(Welch's t-test over the boots' values, Benjamini-Hochberg), ~ no "
                           "difference proven at that rate, no mark: fewer than two boots a side "
                           "(repeats within one boot share its level and prove nothing); N/A: "
                           "not measured in both. Kernel tests' CPUs: all, on every CPU each "
                           "kernel had online (UP's one, SMP's all, compared at the same tasks "
                           "as the reference table does), or the count they were held to. The "
                           "SMP sentences pool the ratios of their "
                           "points (geometric mean) with a 95%% t interval over the boot pairs "
                           "where two or more pair up, else over the points, and say \"not "
                           "established\" when it spans 0.</p>\n");
    }
}
