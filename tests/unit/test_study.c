/*
 * test_study.c - the study engine's plan and its target: which variant
 * runs when (the axes' product, named in order, rounds interleaved A B C,
 * A B C), what each run's command holds (the variant's words, a study's
 * common words, an added run's --cpus and --threads), how added runs are
 * grouped, and the target's rounds over a backend that writes known
 * throughput: a noisy point gets repeats until the budget and is marked,
 * quiet points stop at three, a time budget stops a round before it
 * starts; study.json read back says so.
 *
 * The backend here is a writer of synthetic rows with known spread, as the
 * statistics are tested on synthetic data: the engine's decisions are the
 * subject, and a real sweep's timing would make them untestable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/parse.h"
#include "results/results.h"
#include "results/studyrec.h"
#include "study/engine.h"
#include "study/plan.h"
#include "study/target.h"

static struct study_value bv[2], sv[2];
static char *bwords[2][1] = {{"--server-bin=/opt/pg-a/bin"}, {"--server-bin=/opt/pg-b/bin"}};
static char *swords[2][2] = {{"--server-conf=synchronous_commit=on"},
                             {"--server-conf=synchronous_commit=off", "--server-conf=fsync=off"}};

static void two_axes(struct study_axis *ax)
{
    memset(bv, 0, sizeof bv);
    memset(sv, 0, sizeof sv);
    snprintf(bv[0].label, sizeof bv[0].label, "a");
    snprintf(bv[1].label, sizeof bv[1].label, "b");
    snprintf(sv[0].label, sizeof sv[0].label, "on");
    snprintf(sv[1].label, sizeof sv[1].label, "off");
    bv[0].words = bwords[0], bv[0].nwords = 1;
    bv[1].words = bwords[1], bv[1].nwords = 1;
    sv[0].words = swords[0], sv[0].nwords = 1;
    sv[1].words = swords[1], sv[1].nwords = 2;
    ax[0] = (struct study_axis){"build", bv, 2};
    ax[1] = (struct study_axis){"settings", sv, 2};
}

static void plan_interleaves(void **state)
{
    (void)state;
    struct study_axis ax[2];
    two_axes(ax);
    char err[200];
    int nv, nr;
    struct study_variant *v = study_plan_variants(ax, 2, &nv, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(nv, 4);
    const char *names[] = {"a.on", "a.off", "b.on", "b.off"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(v[i].name, names[i]);
    struct study_run *r = study_plan_rounds(ax, 2, v, nv, 3, &nr);
    assert_int_equal(nr, 12);
    for (int i = 0; i < 12; i++) { /* A B C D, A B C D, A B C D */
        assert_int_equal(r[i].vi, i % 4);
        assert_int_equal(r[i].repeat, i / 4);
        assert_int_equal(r[i].kernel, -1);
        char id[96];
        snprintf(id, sizeof id, "%s.r%d", names[i % 4], i / 4 + 1);
        assert_string_equal(r[i].id, id);
    }
    free(r);
    /* an axis of one unnamed value adds nothing to a name; none named: base */
    struct study_value one = {.label = ""};
    struct study_axis solo[2] = {{"settings", &one, 1}, {"build", bv, 2}};
    struct study_variant *w = study_plan_variants(solo, 2, &nv, err, sizeof err);
    assert_string_equal(w[1].name, "b");
    free(w);
    w = study_plan_variants(solo, 1, &nv, err, sizeof err);
    assert_string_equal(w[0].name, "base");
    free(w);
    /* more than the page letters: refused, said */
    struct study_value many[27];
    memset(many, 0, sizeof many);
    for (int i = 0; i < 27; i++)
        snprintf(many[i].label, sizeof many[i].label, "s%d", i);
    struct study_axis big = {"settings", many, 27};
    assert_null(study_plan_variants(&big, 1, &nv, err, sizeof err));
    assert_non_null(strstr(err, "at most 26"));
    /* a variant named as OUT's own directories: refused */
    struct study_value lg = {.label = "log"};
    struct study_axis logs = {"settings", &lg, 1};
    assert_null(study_plan_variants(&logs, 1, &nv, err, sizeof err));
    assert_non_null(strstr(err, "own log/"));
    free(v);
}

static void labels(void **state)
{
    (void)state;
    assert_true(study_label_ok("6.9.0-rc1+", 10));
    assert_false(study_label_ok("..", 2));
    assert_false(study_label_ok("-x", 2));
    assert_false(study_label_ok("a/b", 3));
    assert_false(study_label_ok("", 0));
}

static void more_groups(void **state)
{
    (void)state;
    struct study_axis ax[2];
    two_axes(ax);
    char err[200];
    int nv, nr = 0;
    struct study_variant *v = study_plan_variants(ax, 2, &nv, err, sizeof err);
    struct study_run *runs = NULL;
    /* a.off: threads 2 and 8 at both CPU counts (one product); b.on: 1
     * thread at 1 CPU, 4 at 2 (a run each) */
    struct study_want w[] = {{1, 2, 8}, {1, 1, 2}, {1, 2, 2}, {1, 1, 8}, {2, 1, 1}, {2, 2, 4}};
    int added = study_plan_more(ax, 2, v, nv, 5, w, 6, &runs, &nr);
    assert_int_equal(added, 3);
    assert_int_equal(nr, 3);
    assert_string_equal(runs[0].id, "a.off.r6");
    assert_string_equal(runs[0].only_cpus, "1,2");
    assert_string_equal(runs[0].only_threads, "2,8");
    assert_string_equal(runs[1].id, "b.on.r6.1");
    assert_string_equal(runs[1].only_cpus, "1");
    assert_string_equal(runs[1].only_threads, "1");
    assert_string_equal(runs[2].id, "b.on.r6.2");
    assert_string_equal(runs[2].only_cpus, "2");
    assert_string_equal(runs[2].only_threads, "4");
    free(runs);
    free(v);
}

/* ---- the engine over a backend of known rows ---- */

static char root[128];
static int nrun_calls;
static char seen[64][96];

/* The last "--NAME=" value among words, or def. */
static const char *word_of(char *const *words, int n, const char *name, const char *def)
{
    const char *v = def;
    size_t l = strlen(name);
    for (int i = 0; i < n; i++)
        if (!strncmp(words[i], name, l) && words[i][l] == '=')
            v = words[i] + l + 1;
    return v;
}

/* A run: a row per point of its --cpus x --threads, throughput 1000 at
 * every point but variant 1's (2 CPUs, 2 threads), which alternates 800
 * and 1200 repeat by repeat: a 20% spread no count of repeats narrows. */
static int fake_run(void *arg, struct study_run *u, char *const *words, int nwords, int append,
                    int echo)
{
    (void)arg, (void)echo;
    snprintf(seen[nrun_calls++ % 64], sizeof seen[0], "%s%s", u->id, append ? "+" : "");
    char dir[300], err[300];
    snprintf(dir, sizeof dir, "%s/%s", root, u->variant);
    mkdir(dir, 0755);
    struct result_set rs = {0};
    if (append)
        assert_int_equal(results_read(dir, &rs, err, sizeof err), 0);
    long long cpus[8], thr[8];
    int nc = parse_int_list(word_of(words, nwords, "--cpus", "1,2"), cpus, 8);
    int nt = parse_int_list(word_of(words, nwords, "--threads", "1,2"), thr, 8);
    struct result_row *rows = calloc(rs.n + 64, sizeof *rows);
    if (rs.n)
        memcpy(rows, rs.rows, rs.n * sizeof *rows);
    size_t n = rs.n;
    for (int c = 0; c < nc; c++)
        for (int t = 0; t < nt; t++) {
            struct result_row *r = &rows[n++];
            snprintf(r->engine, sizeof r->engine, "pgsql");
            snprintf(r->variant, sizeof r->variant, "smp-k%lld", cpus[c]);
            r->cpus = (int)cpus[c];
            r->threads = (int)thr[t];
            r->repeat = u->repeat + 1;
            int noisy = u->vi == 1 && r->cpus == 2 && r->threads == 2;
            r->tps = noisy ? (u->repeat % 2 ? 1200 : 800) : 1000 + u->repeat % 2;
        }
    assert_int_equal(results_write_csv(dir, rows, n), 0);
    free(rows);
    results_free(&rs);
    u->status = RUN_OK;
    u->exit_code = 0;
    u->seconds = 10;
    return 0;
}

static void engine_of(struct study_engine *e, struct study_axis *ax, char *const *cmd, int ncmd)
{
    memset(e, 0, sizeof *e);
    snprintf(root, sizeof root, "/tmp/dbscale-test-study-XXXXXX");
    assert_non_null(mkdtemp(root));
    snprintf(e->out, sizeof e->out, "%s", root);
    e->outfd = open(root, O_RDONLY | O_DIRECTORY);
    e->axes[0] = ax[1]; /* settings alone: on, off */
    e->naxes = 1;
    char err[200];
    e->v = study_plan_variants(e->axes, 1, &e->nv, err, sizeof err);
    e->rounds = 2;
    e->cmd = cmd;
    e->ncmd = ncmd;
    e->be = (struct study_backend){.name = "test", .run = fake_run};
    e->verb = "study";
    nrun_calls = 0;
    study_engine_plan(e);
}

static void engine_done(struct study_engine *e)
{
    close(e->outfd);
    free(e->v);
    study_engine_free(e);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static void words_of_runs(void **state)
{
    (void)state;
    struct study_axis ax[2];
    two_axes(ax);
    char *cmd[] = {"sweep", "oltp_write_only", "--threads=1,2"};
    const char *common[] = {"--repeats=1", "--report=off"};
    struct study_engine e;
    engine_of(&e, ax, cmd, 3);
    e.common = common, e.ncommon = 2;
    char **w;
    int n = study_engine_words(&e, 1, &w); /* off, round 1 */
    const char *want[] = {"sweep",
                          "oltp_write_only",
                          "--threads=1,2",
                          "--repeats=1",
                          "--report=off",
                          "--server-conf=synchronous_commit=off",
                          "--server-conf=fsync=off"};
    assert_int_equal(n, 7);
    for (int i = 0; i < n; i++)
        assert_string_equal(w[i], want[i]);
    /* an added run: its points last, so they are the sweep's */
    snprintf(e.runs[1].only_cpus, sizeof e.runs[1].only_cpus, "2");
    snprintf(e.runs[1].only_threads, sizeof e.runs[1].only_threads, "2,4");
    n = study_engine_words(&e, 1, &w);
    assert_int_equal(n, 9);
    assert_string_equal(w[7], "--cpus=2");
    assert_string_equal(w[8], "--threads=2,4");
    engine_done(&e);
}

static void target_budget(void **state)
{
    (void)state;
    struct study_axis ax[2];
    two_axes(ax);
    char *cmd[] = {"sweep", "oltp_write_only"};
    struct study_engine e;
    engine_of(&e, ax, cmd, 2);
    e.target = (struct study_target){.ci = 0.03, .min_repeats = 3, .max_repeats = 6};
    assert_int_equal(study_engine_run(&e), 0);
    /* planned: on, off, on, off; then round 3 runs every point of both (none
     * has 3 repeats yet); then only off's noisy point, to 6 repeats */
    const char *order[] = {"on.r1",   "off.r1",  "on.r2+",  "off.r2+", "on.r3+",
                           "off.r3+", "off.r4+", "off.r5+", "off.r6+"};
    assert_int_equal(nrun_calls, 9);
    for (int i = 0; i < 9; i++)
        assert_string_equal(seen[i], order[i]);
    assert_string_equal(e.runs[6].only_cpus, "2");
    assert_string_equal(e.runs[6].only_threads, "2");
    assert_string_equal(e.runs[4].only_threads, "1,2"); /* round 3: all of on's points */
    assert_false(e.target_met);
    assert_non_null(strstr(e.target_end, "budget spent: 1 point(s)"));
    assert_non_null(strstr(e.target_end, "--max-repeats"));
    for (int i = 1; i < e.nruns; i++) /* started in order */
        assert_true(e.runs[i].t_start >= e.runs[i - 1].t_start);
    /* the record says which point never met it */
    struct studyrec r;
    char err[300];
    assert_int_equal(studyrec_read(root, &r, err, sizeof err), 1);
    assert_int_equal((int)r.nruns, 9);
    assert_int_equal(r.rounds_added, 4);
    assert_int_equal((int)r.nunmet, 1);
    assert_string_equal(r.unmet[0].variant, "off");
    assert_int_equal(r.unmet[0].cpus, 2);
    assert_int_equal(r.unmet[0].threads, 2);
    assert_int_equal(r.unmet[0].repeats, 6);
    assert_true(r.unmet[0].half_pct > 3);
    assert_string_equal(r.runs[6].only_threads, "2");
    studyrec_free(&r);
    engine_done(&e);
    /* a loose target is met after the planned rounds and round 3: no more */
    engine_of(&e, ax, cmd, 2);
    e.target = (struct study_target){.ci = 0.5, .min_repeats = 3, .max_repeats = 6};
    assert_int_equal(study_engine_run(&e), 0);
    assert_int_equal(nrun_calls, 6);
    assert_true(e.target_met);
    assert_non_null(strstr(e.target_end, "met"));
    engine_done(&e);
    /* a time budget: each run took 10 s, so round 3 (20 s more) would end past 25 s */
    engine_of(&e, ax, cmd, 2);
    e.target =
        (struct study_target){.ci = 0.03, .min_repeats = 3, .max_repeats = 6, .max_time_s = 25};
    assert_int_equal(study_engine_run(&e), 0);
    assert_int_equal(nrun_calls, 4);
    assert_int_equal(e.nruns, 4); /* the round not started is not in the record */
    assert_non_null(strstr(e.target_end, "--max-time"));
    engine_done(&e);
}

static void target_points(void **state)
{
    (void)state;
    struct result_row rows[5];
    memset(rows, 0, sizeof rows);
    double tps[] = {100, 101, 99, 50, 0};
    for (int i = 0; i < 5; i++) {
        snprintf(rows[i].variant, sizeof rows[i].variant, "smp-k2");
        rows[i].cpus = 2;
        rows[i].threads = 1;
        rows[i].tps = tps[i];
    }
    rows[3].disturbed = 1; /* no repeat: left out, as the verdict leaves it */
    struct study_target t = {.ci = 0.03, .min_repeats = 3};
    struct study_point *p = NULL;
    int np = 0;
    study_target_points(rows, 5, 0, &t, &p, &np);
    assert_int_equal(np, 1);
    assert_int_equal(p[0].n, 3);
    assert_true(p[0].median == 100);
    assert_true(p[0].lo >= 99 && p[0].hi <= 101);
    assert_true(p[0].met); /* +-1% */
    free(p);
    /* two values, however close, are not judged */
    p = NULL, np = 0;
    study_target_points(rows, 2, 0, &t, &p, &np);
    assert_false(p[0].met);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_interleaves), cmocka_unit_test(labels),
        cmocka_unit_test(more_groups),      cmocka_unit_test(words_of_runs),
        cmocka_unit_test(target_budget),    cmocka_unit_test(target_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
