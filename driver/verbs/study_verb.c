/*
 * verbs/study_verb.c - `dbscale study [axes] [options] -- COMMAND` and
 * `dbscale kernels`, its special case: one engine (study/engine.h) runs
 * COMMAND (a sweep, micro or fs) for every variant of the axes given
 * (--server-bin builds, --settings sets of server settings, --kernel and
 * --boot in qemu guests, or their product), interleaved by round, each
 * variant into OUT/VARIANT, then one page over all of them. kernels is a
 * study whose runs always boot a guest, with its defaults of old (one
 * boot per variant, the command as given).
 *
 * Everything a user can get wrong is checked before the first run and
 * exits 2 naming it: an axis value (a build that is no installation of the
 * command's engine, a link farm, the other engine's; a setting the server
 * refuses; a kernel or boot of study_guest.c's), a command a study does
 * not run, an --out that is not new or empty. After that a failed run is
 * recorded and the study goes on; the exit code is 1 at the end if any
 * failed, 130 / 143 after SIGINT / SIGTERM with what finished kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/options.h"
#include "core/signals.h"
#include "core/util.h"
#include "results/resdir.h"
#include "results/studyrec.h"
#include "study/engine.h"
#include "study/host.h"
#include "verbs/study_axes.h"
#include "verbs/study_guest.h"
#include "verbs/study_page.h"
#include "verbs/verbs.h"
#include "vm/study.h"
#include "vm/studyfd.h"

#define MAX_WORDS  256
#define MAX_VALUES 26

/* clang-format off */
static const struct optdef study_opts[] = {
    {"config", OPT_STR, NULL, "read options from this INI file first (server-bin=, settings=, kernel=, boot= lines repeat)"},
    {"server-bin", OPT_LIST, NULL, "a server build, [LABEL=]DIR: a PostgreSQL bin directory (initdb, pg_ctl, postgres) or a MariaDB basedir (mariadbd, mariadb-install-db); repeat for each (LABEL defaults to its version)"},
    {"settings", OPT_LIST, NULL, "a line of a settings variant, LABEL=KEY=VALUE (a --server-conf line); repeat, the same LABEL adding lines; LABEL= alone is the defaults"},
    {"kernel", OPT_LIST, NULL, "a kernel image to boot, PATH or LABEL=PATH; repeat for each kernel (kernels: default the newest /boot/vmlinuz-*)"},
    {"boot", OPT_LIST, NULL, "a boot variant, LABEL=PARAMS (up=nr_cpus=1, smp=); repeat for each (default: one, as is)"},
    {"repeats", OPT_INT, "3", "rounds: every variant runs once a round, interleaved (A B C, A B C)", NULL, 1, 1000},
    {"target-ci", OPT_NUM, "0", "repeats until the answer is clear: add interleaved repeats to the points whose 95% interval of the median is wider than +-this % (0: off; sweeps only)", NULL, 0, 100},
    {"max-repeats", OPT_INT, "10", "--target-ci's budget: the most repeats a point gets", NULL, 1, 1000},
    {"max-time", OPT_NUM, "0", "--target-ci's budget: start no round that would end past this many seconds of the study (0: none)", NULL, 0, 1e9},
    {"vm-cpus", OPT_INT, "0", "vCPUs of each guest (0: the host CPUs dbscale may use, less a core for qemu with 4 or more)", NULL, 0, STUDY_MAXPIN},
    {"vm-mem", OPT_INT, "2048", "memory of each guest, MB", NULL, 128, 1 << 20},
    {"vm-timeout", OPT_INT, "600", "give a guest up after this many seconds without console output", NULL, 5, 7 * 86400},
    {"vm-overcommit", OPT_BOOL, "off", "allow more vCPUs than host CPUs (then none is pinned)"},
    {"accel", OPT_CHOICE, "auto", "kvm, tcg (emulation), or kvm when /dev/kvm is usable", "auto|kvm|tcg"},
    {"command", OPT_STR, NULL, "the command each run runs when none follows -- (config files)"},
    {"out", OPT_STR, NULL, "the study directory (default: results/study-TIMESTAMP, results/kernels-TIMESTAMP)"},
    {"quiet", OPT_BOOL, "off", "do not echo the runs' output"},
};
/* clang-format on */
#define NOPTS (sizeof study_opts / sizeof study_opts[0])

const struct optdef *study_verb_optdefs(size_t *n)
{
    *n = NOPTS;
    return study_opts;
}

/* kernels: the same table, one boot per variant by default. */
const struct optdef *kernels_verb_optdefs(size_t *n)
{
    static struct optdef k[NOPTS];
    if (!k[0].name) {
        memcpy(k, study_opts, sizeof k);
        for (size_t i = 0; i < NOPTS; i++)
            if (!strcmp(k[i].name, "repeats")) {
                k[i].def = "1";
                k[i].help = "boots of each variant, interleaved";
            }
    }
    *n = NOPTS;
    return k;
}

/* One verb's run: the options, the guest, the axes' values, the engine. */
struct sv {
    const char *verb; /* "study" or "kernels" */
    struct opts o;
    int guest;      /* runs boot a guest */
    struct study g; /* the guest (vm/study.h) */
    struct study_host h;
    struct study_engine e;
    char *words[MAX_WORDS]; /* --command split */
    char cmdbuf[8192];
    int db_engine;                           /* the command's server engine, -1 none */
    struct study_value gvals[2][MAX_VALUES]; /* the guest's kernels and boots */
    struct study_axis builds, settings;      /* study_axes.c's, owned */
    struct study_value none;                 /* the one variant of a study of nothing */
    const char *common[4];
    char err[2048];
};

static void usage(FILE *f, const struct sv *v)
{
    if (!strcmp(v->verb, "kernels"))
        fputs("usage: dbscale kernels [--kernel [LABEL=]IMAGE]... [--boot LABEL=PARAMS]... "
              "[options]\n                       -- sweep|micro|fs ARGS...\n\n"
              "Boots each kernel x boot variant under qemu (KVM when /dev/kvm is usable, else TCG\n"
              "emulation) with this machine's root shared in read-only, runs the same dbscale\n"
              "command inside each, and writes OUT/kernels.json, one results directory per\n"
              "variant and OUT/report.html comparing them (dbscale study with a guest always).\n\n",
              f);
    else
        fputs("usage: dbscale study [--server-bin [LABEL=]DIR]... [--settings LABEL=K=V]...\n"
              "                     [--kernel [LABEL=]IMAGE]... [--boot LABEL=PARAMS]... "
              "[options]\n                     -- sweep|micro|fs ARGS...\n\n"
              "Runs the same dbscale command for every variant (the product of the server\n"
              "builds, settings, kernels and boot variants given; kernels and boots in qemu\n"
              "guests), interleaved by round (A B C, A B C), each into OUT/VARIANT; with\n"
              "--target-ci adds rounds where a point's interval is still wide; writes\n"
              "OUT/study.json and OUT/report.html comparing the variants.\n\n",
              f);
    opts_help(&v->o, f);
}

/* argv after "--", or --command split on blanks; the verb checked. */
static int parse_command(struct sv *v, int argc, char **argv)
{
    int dd = -1;
    for (int i = 1; i < argc && dd < 0; i++)
        if (!strcmp(argv[i], "--"))
            dd = i;
    struct study_engine *e = &v->e;
    if (dd >= 0) {
        e->cmd = argv + dd + 1;
        e->ncmd = argc - dd - 1;
    } else if (opts_str(&v->o, "command")) {
        snprintf(v->cmdbuf, sizeof v->cmdbuf, "%s", opts_str(&v->o, "command"));
        if (strpbrk(v->cmdbuf, "'\"\\")) {
            snprintf(v->err, sizeof v->err,
                     "--command: quotes and backslashes are not read here; give the command "
                     "after --");
            return -1;
        }
        int n = 0;
        for (char *save = NULL, *w = strtok_r(v->cmdbuf, " \t", &save); w && n < MAX_WORDS - 1;
             w = strtok_r(NULL, " \t", &save))
            v->words[n++] = w;
        e->cmd = v->words;
        e->ncmd = n;
    }
    if (e->ncmd == 0) {
        snprintf(v->err, sizeof v->err,
                 "no command: give one after -- (dbscale %s ... -- micro getppid1)", v->verb);
        return -1;
    }
    const char *verb = e->cmd[0];
    if (strcmp(verb, "sweep") && strcmp(verb, "micro") && strcmp(verb, "fs")) {
        snprintf(v->err, sizeof v->err, "the command a %s runs is sweep, micro or fs (got '%s')",
                 v->guest ? "guest" : "study", verb);
        return -1;
    }
    for (int i = 1; i < e->ncmd; i++)
        if (!strncmp(e->cmd[i], "--out", 5) || !strncmp(e->cmd[i], "--append", 8)) {
            snprintf(v->err, sizeof v->err,
                     "'%s' in the command: the study gives each variant its own results "
                     "directory under --out",
                     e->cmd[i]);
            return -1;
        }
    if (!strcmp(verb, "fs") && e->rounds > 1) {
        snprintf(v->err, sizeof v->err,
                 "fs --out writes one run's fs.csv: --repeats must be 1 with fs");
        return -1;
    }
    return 0;
}

/* The guest's axes from study_guest.c's parse. */
static void guest_axes(struct sv *v, struct study_axis *kx, struct study_axis *bx)
{
    for (int k = 0; k < v->g.nk; k++) {
        snprintf(v->gvals[0][k].label, STUDY_LABEL, "%s", v->g.k[k].label);
        v->gvals[0][k].index = k;
    }
    for (int b = 0; b < v->g.nb; b++) {
        snprintf(v->gvals[1][b].label, STUDY_LABEL, "%s", v->g.b[b].label);
        v->gvals[1][b].index = b;
    }
    *kx = (struct study_axis){"kernel", v->gvals[0], v->g.nk};
    *bx = (struct study_axis){"boot", v->gvals[1], v->g.nb};
}

/* The axes, in the order kernel, boot, build, settings; the variants. */
static int parse_axes(struct sv *v)
{
    struct study_engine *e = &v->e;
    struct study_axis ax[2] = {{"kernel"}, {"boot"}};
    if (v->guest) {
        if (study_guest_parse(&v->g, &v->o, v->verb, v->err, sizeof v->err) < 0)
            return -1;
        if (v->g.nk > MAX_VALUES || v->g.nb > MAX_VALUES) {
            snprintf(v->err, sizeof v->err, "more than %d kernels or boot variants", MAX_VALUES);
            return -1;
        }
        guest_axes(v, &ax[0], &ax[1]);
    }
    if (study_axes_builds(&v->o, e->cmd, e->ncmd, v->db_engine, v->guest, &v->builds, v->err,
                          sizeof v->err) < 0 ||
        study_axes_settings(&v->o, e->cmd, e->ncmd, v->db_engine, &v->builds, &v->settings, v->err,
                            sizeof v->err) < 0)
        return -1;
    const struct study_axis *all[4] = {&ax[0], &ax[1], &v->builds, &v->settings};
    e->naxes = 0;
    for (int a = 0; a < 4; a++)
        if (all[a]->n > 0)
            e->axes[e->naxes++] = *all[a];
    if (!e->naxes) /* nothing to vary: one variant, repeated (a target's study of one) */
        e->axes[e->naxes++] = (struct study_axis){"settings", &v->none, 1};
    e->v = study_plan_variants(e->axes, e->naxes, &e->nv, v->err, sizeof v->err);
    return e->v ? 0 : -1;
}

/* --target-ci and its budget. */
static int parse_target(struct sv *v)
{
    struct study_target *t = &v->e.target;
    t->ci = opts_num(&v->o, "target-ci") / 100;
    t->min_repeats = 3;
    t->max_repeats = (int)opts_int(&v->o, "max-repeats");
    t->max_time_s = opts_num(&v->o, "max-time");
    if (t->ci > 0 && strcmp(v->e.cmd[0], "sweep")) {
        snprintf(v->err, sizeof v->err,
                 "--target-ci judges a sweep's points (results.csv): the command is %s",
                 v->e.cmd[0]);
        return -1;
    }
    if (t->ci > 0 && t->max_repeats < t->min_repeats) {
        snprintf(v->err, sizeof v->err,
                 "--max-repeats=%d: a point is judged from %d repeats, so the budget must "
                 "allow as many",
                 t->max_repeats, t->min_repeats);
        return -1;
    }
    return 0;
}

/* What `study` adds to a sweep's every run: one repeat a run (the rounds
 * are the repeats, interleaved) and no page of its own (the study's is
 * the page), unless the command says otherwise. kernels runs its command
 * as given. */
static void common_words(struct sv *v)
{
    struct study_engine *e = &v->e;
    e->common = v->common;
    e->ncommon = 0;
    if (strcmp(v->verb, "study") || strcmp(e->cmd[0], "sweep"))
        return;
    if (!study_axes_option(e->cmd, e->ncmd, "repeats"))
        v->common[e->ncommon++] = "--repeats=1";
    if (!study_axes_option(e->cmd, e->ncmd, "report"))
        v->common[e->ncommon++] = "--report=off";
}

/* OUT made new (or found empty), then opened once and checked as the
 * study's own (studyfd.h): -2 when it is refused, untouched. */
static int make_out(struct sv *v)
{
    char base[600], ts[32], made[1024];
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
    snprintf(base, sizeof base, "results/%s-%s", v->verb, ts);
    int rc = results_dir_create(opts_str(&v->o, "out"), base, 0, made, sizeof made, v->err,
                                sizeof v->err);
    if (rc < 0)
        return rc;
    struct study_engine *e = &v->e;
    e->outfd = studyfd_open(made, v->err, sizeof v->err);
    if (e->outfd < 0)
        return -2;
    if (!realpath(made, e->out)) {
        snprintf(v->err, sizeof v->err, "%s: %s", made, strerror(errno));
        return -1;
    }
    snprintf(v->g.out, sizeof v->g.out, "%s", e->out);
    v->g.outfd = e->outfd;
    snprintf(v->g.share_model, sizeof v->g.share_model, "%s", studyfd_share_model(e->outfd));
    return 0;
}

static void on_start(const struct study_engine *e, int i, void *arg)
{
    const struct sv *v = arg;
    const struct study_run *u = &e->runs[i];
    char only[400] = "";
    if (u->only_cpus[0])
        snprintf(only, sizeof only, " (only cpus=%s threads=%s)", u->only_cpus, u->only_threads);
    if (v->guest) {
        const struct study_kernel *k = &v->g.k[u->kernel];
        const char *params = v->g.b[u->boot].params;
        fprintf(stderr, "[%d/%d] %s, repeat %d: booting %s%s%s (%s, %d vCPU%s)%s\n", i + 1,
                e->nruns, u->variant, u->repeat + 1, k->img.path, params[0] ? " " : "", params,
                v->g.accel, v->g.vcpus, v->g.vcpus == 1 ? "" : "s", only);
    } else {
        fprintf(stderr, "[%d/%d] %s, repeat %d: running dbscale %s%s\n", i + 1, e->nruns,
                u->variant, u->repeat + 1, e->cmd[0], only);
    }
}

static void on_end(const struct study_engine *e, int i, void *arg)
{
    const struct sv *v = arg;
    const struct study_run *u = &e->runs[i];
    if (u->status == RUN_FAILED)
        fprintf(stderr, "[%d/%d] %s FAILED after %.1f s: %s (%s: %s/%s/%s.log)\n", i + 1, e->nruns,
                u->variant, u->seconds, u->why, v->guest ? "console" : "log", e->out,
                v->guest ? "console" : "log", u->id);
    else if (u->status == RUN_OK && v->guest)
        fprintf(stderr, "[%d/%d] %s done in %.1f s (guest up in %.1f s)\n", i + 1, e->nruns,
                u->variant, u->seconds, u->boot_s);
    else if (u->status == RUN_OK)
        fprintf(stderr, "[%d/%d] %s done in %.1f s\n", i + 1, e->nruns, u->variant, u->seconds);
}

static void on_note(const struct study_engine *e, const char *msg, void *arg)
{
    (void)e;
    const struct sv *v = arg;
    fprintf(stderr, "dbscale %s: %s\n", v->verb, msg);
}

static const char *const status_word[] = {"not run", "ok", "FAILED", "stopped"};

static void summary(const struct sv *v)
{
    const struct study_engine *e = &v->e;
    printf("\n%-36s %6s  %-8s %8s  %s\n", v->guest ? "boot" : "run", "repeat", "status", "seconds",
           "why");
    for (int i = 0; i < e->nruns; i++) {
        const struct study_run *u = &e->runs[i];
        printf("%-36s %6d  %-8s %8.1f  %s\n", u->variant, u->repeat + 1, status_word[u->status],
               u->seconds, u->why);
    }
    if (e->target.ci <= 0)
        return;
    printf("\ntarget: +-%g%% (95%% interval of the median), %s\n", 100 * e->target.ci,
           e->target_end[0] ? e->target_end : "not judged (the study stopped first)");
    int header = 0;
    for (int p = 0; p < e->npts; p++) {
        const struct study_point *q = &e->pts[p];
        if (q->met)
            continue;
        if (!header++)
            printf("%-24s %-10s %5s %7s %8s %12s %22s\n", "never met: variant", "label", "cpus",
                   "threads", "repeats", "median tps", "95% interval");
        printf("%-24s %-10s %5d %7d %8d %12.1f %10.1f..%-10.1f +-%.1f%%\n", e->v[q->vi].name,
               q->label, q->cpus, q->threads, q->n, q->median, q->lo, q->hi, study_target_pct(q));
    }
}

/* The page over every variant that left results. 0, or -1 with err. */
static int write_page(const struct sv *v, char *path, size_t len, char *err, size_t errlen)
{
    char **dirs;
    size_t n;
    if (studyrec_variants(v->e.out, &dirs, &n, err, errlen) < 0)
        return -1;
    if (n == 0) {
        snprintf(err, errlen, "no variant left results");
        free(dirs);
        return -1;
    }
    snprintf(path, len, "%s/report.html", v->e.out);
    int rc = study_page_write_dirs(dirs, n, path, err, errlen);
    studyrec_free_dirs(dirs, n);
    return rc;
}

/* Everything checked, OUT made: 0, or the exit code. */
static int prepare(struct sv *v, int argc, char **argv)
{
    struct study_engine *e = &v->e;
    e->rounds = (int)opts_int(&v->o, "repeats");
    size_t nk, nb;
    opts_list(&v->o, "kernel", &nk);
    opts_list(&v->o, "boot", &nb);
    v->guest = !strcmp(v->verb, "kernels") || nk || nb;
    if (parse_command(v, argc, argv) < 0)
        return EXIT_USAGE;
    v->db_engine = study_axes_engine(e->cmd, e->ncmd);
    v->g.repeats = e->rounds;
    if (parse_axes(v) < 0 || parse_target(v) < 0)
        return EXIT_USAGE;
    common_words(v);
    if (!realpath("/proc/self/exe", v->g.exe) || !getcwd(v->g.cwd, sizeof v->g.cwd)) {
        snprintf(v->err, sizeof v->err, "cannot find this program or the working directory");
        return EXIT_RUNTIME;
    }
    snprintf(v->h.exe, sizeof v->h.exe, "%s", v->g.exe);
    snprintf(e->cwd, sizeof e->cwd, "%s", v->g.cwd);
    v->g.cmd = e->cmd;
    v->g.ncmd = e->ncmd;
    e->outfd = -1;
    if (v->guest && study_guest_check(&v->g, v->err, sizeof v->err) < 0)
        return EXIT_USAGE;
    int mr = make_out(v);
    if (mr < 0)
        return mr == -2 ? EXIT_USAGE : EXIT_RUNTIME;
    v->h.out = e->out;
    v->h.outfd = e->outfd;
    e->be = v->guest ? study_guest_backend(&v->g) : study_host_backend(&v->h);
    e->echo = !opts_bool(&v->o, "quiet");
    e->verb = v->verb;
    e->on_start = on_start;
    e->on_end = on_end;
    e->on_note = on_note;
    e->cb_arg = v;
    study_engine_plan(e);
    return 0;
}

static void sv_free(struct sv *v)
{
    if (v->e.outfd >= 0)
        close(v->e.outfd);
    study_engine_free(&v->e);
    free(v->e.v);
    study_axes_free(&v->builds);
    study_axes_free(&v->settings);
    study_guest_free(&v->g);
    opts_free(&v->o);
}

static int study_verb(const char *verb, int argc, char **argv)
{
    struct sv *v = xcalloc(1, sizeof *v);
    v->verb = verb;
    v->e.outfd = -1;
    char *pos[1];
    int npos, dd = argc;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--")) {
            dd = i;
            break;
        }
    size_t nd;
    const struct optdef *defs =
        !strcmp(verb, "kernels") ? kernels_verb_optdefs(&nd) : study_verb_optdefs(&nd);
    opts_init(&v->o, defs, nd);
    int r = opts_parse_argv(&v->o, dd, argv, 1, pos, 0, &npos, v->err, sizeof v->err);
    if (r == 1) {
        usage(stdout, v);
        sv_free(v);
        free(v);
        return 0;
    }
    int rc = r < 0 ? EXIT_USAGE : prepare(v, argc, argv);
    if (rc) {
        fprintf(stderr, "dbscale %s: %s\n", verb, v->err);
        if (rc == EXIT_USAGE)
            fprintf(stderr, "(see: dbscale %s --help)\n", verb);
        sv_free(v);
        free(v);
        return rc;
    }
    struct study_engine *e = &v->e;
    if (v->guest && strcmp(v->g.accel, "kvm"))
        fprintf(stderr,
                "dbscale %s: no KVM here: the guests run under TCG emulation, so the "
                "figures are an emulator's, not the hardware's\n",
                verb);
    if (v->guest && !v->g.pinned)
        fprintf(stderr, "dbscale %s: %d vCPUs on %d host CPUs: the vCPUs are not pinned\n", verb,
                v->g.vcpus, v->g.host_cpus);
    signals_install();
    int er = study_engine_run(e);
    rc = er == 1 ? EXIT_RUNTIME : 0;
    if (er == 2) {
        if (v->guest)
            fprintf(stderr,
                    "dbscale %s: the guest's dbscale refused the command (exit 2; its "
                    "message is above): nothing else is booted\n",
                    verb);
        else
            fprintf(stderr,
                    "dbscale %s: the command was refused (exit 2; its message is above and in "
                    "%s/log/%s.log): nothing else is run\n",
                    verb, e->out, e->runs[0].id);
        rc = EXIT_USAGE;
    }
    summary(v);
    char page[1400], err[1024];
    if (rc != EXIT_USAGE && write_page(v, page, sizeof page, err, sizeof err) < 0)
        fprintf(stderr, "dbscale %s: no report: %s\n", verb, err);
    else if (rc != EXIT_USAGE)
        printf("report: %s\n", page);
    printf("study: %s/%s\n", e->out,
           v->guest && !strcmp(verb, "kernels") ? "kernels.json" : "study.json");
    if (signals_caught())
        rc = signals_exit_code();
    sv_free(v);
    free(v);
    return rc;
}

int study_main(int argc, char **argv)
{
    return study_verb("study", argc, argv);
}

int kernels_main(int argc, char **argv)
{
    return study_verb("kernels", argc, argv);
}
