/*
 * verbs/kernels_verb.c - `dbscale kernels [options] -- COMMAND`: a study
 * that boots each kernel x boot variant under qemu and runs COMMAND (a
 * sweep, micro or fs) inside each guest, then writes one page over all of
 * them.
 *
 * Everything a user can get wrong is checked before the first boot and
 * exits 2 naming it: an image that is missing or not a kernel, a malformed
 * --boot, more vCPUs than host CPUs unasked, no qemu, no static busybox, a
 * kernel whose 9p modules cannot be found, a COMMAND that is not one a guest
 * runs. After that a failed boot is recorded and the study goes on; the exit
 * code is 1 at the end if any failed, 130 / 143 after SIGINT / SIGTERM with
 * what finished kept.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/options.h"
#include "verbs/study_page.h"
#include "results/resdir.h"
#include "results/studydir.h"
#include "core/signals.h"
#include "core/util.h"
#include "verbs/verbs.h"
#include "vm/guest.h"
#include "vm/initramfs.h"
#include "vm/study.h"
#include "vm/studyfd.h"
#include "vm/vmlinux.h"
#include "vm/vmpin.h"

#define MAX_WORDS 256

static const struct optdef kernels_opts[] = {
    {"config", OPT_STR, NULL,
     "read options from this INI file first (kernel=, boot= lines repeat)"},
    {"kernel", OPT_LIST, NULL,
     "a kernel image to boot, PATH or LABEL=PATH; repeat for each kernel (default: the newest "
     "/boot/vmlinuz-*)"},
    {"boot", OPT_LIST, NULL,
     "a boot variant, LABEL=PARAMS (up=nr_cpus=1, smp=); repeat for each (default: one, as is)"},
    {"vm-cpus", OPT_INT, "0",
     "vCPUs of each guest (0: the host CPUs dbscale may use, less a core for qemu with 4 or more)",
     NULL, 0, STUDY_MAXPIN},
    {"vm-mem", OPT_INT, "2048", "memory of each guest, MB", NULL, 128, 1 << 20},
    {"vm-timeout", OPT_INT, "600", "give a guest up after this many seconds without console output",
     NULL, 5, 7 * 86400},
    {"vm-overcommit", OPT_BOOL, "off", "allow more vCPUs than host CPUs (then none is pinned)"},
    {"accel", OPT_CHOICE, "auto", "kvm, tcg (emulation), or kvm when /dev/kvm is usable",
     "auto|kvm|tcg"},
    {"repeats", OPT_INT, "1", "boots of each variant, interleaved", NULL, 1, 1000},
    {"command", OPT_STR, NULL, "the command each guest runs when none follows -- (config files)"},
    {"out", OPT_STR, NULL, "the study directory (default: results/kernels-TIMESTAMP)"},
    {"quiet", OPT_BOOL, "off", "do not echo the guests' output"},
};

const struct optdef *kernels_verb_optdefs(size_t *n)
{
    *n = sizeof kernels_opts / sizeof kernels_opts[0];
    return kernels_opts;
}

static void usage(FILE *f, const struct opts *o)
{
    fputs("usage: dbscale kernels [--kernel [LABEL=]IMAGE]... [--boot LABEL=PARAMS]... [options]\n"
          "                       -- sweep|micro|fs ARGS...\n\n"
          "Boots each kernel x boot variant under qemu (KVM when /dev/kvm is usable, else TCG\n"
          "emulation) with this machine's root shared in read-only, runs the same dbscale\n"
          "command inside each, and writes OUT/kernels.json, one results directory per\n"
          "variant and OUT/report.html comparing them.\n\n",
          f);
    opts_help(o, f);
}

/* A label names directories and files of the study (VARIANT/, console/
 * RUN.log): 1-31 of A-Za-z0-9._+-, never '.', '..' or a hidden or
 * option-like name. */
static int label_ok(const char *s, size_t n)
{
    if (n == 0 || n >= STUDY_LABEL || s[0] == '.' || s[0] == '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("._+-", s[i]))
            return 0;
    return 1;
}

/* A boot variant's parameters: words of [A-Za-z0-9._,:=+/-], none of ours. */
static int params_ok(const char *p, char *why, size_t len)
{
    for (const char *c = p; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("._,:=+/- ", *c)) {
            snprintf(why, len, "'%c' cannot be in a kernel parameter here", *c);
            return 0;
        }
    char copy[512];
    snprintf(copy, sizeof copy, "%s", p);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (w[0] == '=') {
            snprintf(why, len, "'%s' has no parameter name", w);
            return 0;
        }
        if (!strncmp(w, "dbscale.", 8)) {
            snprintf(why, len, "'%s': dbscale.* parameters are the study's own", w);
            return 0;
        }
    }
    return 1;
}

static int parse_boots(struct study *s, const struct opts *o, char *err, size_t errlen)
{
    size_t n;
    const char *const *v = opts_list(o, "boot", &n);
    s->nb = n ? (int)n : 1;
    s->b = xcalloc((size_t)s->nb, sizeof *s->b);
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(v[i], '=');
        char why[160];
        if (!eq || !label_ok(v[i], (size_t)(eq - v[i]))) {
            snprintf(err, errlen,
                     "--boot '%s': LABEL=PARAMS, LABEL 1-31 of A-Za-z0-9._+-, not starting with "
                     "'.' or '-' (up=nr_cpus=1, smp=)",
                     v[i]);
            return -1;
        }
        if (strlen(eq + 1) >= sizeof s->b[i].params || !params_ok(eq + 1, why, sizeof why)) {
            snprintf(err, errlen, "--boot '%s': %s", v[i],
                     strlen(eq + 1) >= 512 ? "too long" : why);
            return -1;
        }
        snprintf(s->b[i].label, sizeof s->b[i].label, "%.*s", (int)(eq - v[i]), v[i]);
        snprintf(s->b[i].params, sizeof s->b[i].params, "%s", eq + 1);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(s->b[j].label, s->b[i].label)) {
                snprintf(err, errlen, "--boot: label '%s' given twice", s->b[i].label);
                return -1;
            }
    }
    return 0;
}

/* The newest /boot/vmlinuz-*, as a default kernel. */
static int newest_boot_kernel(char *path, size_t len)
{
    glob_t g;
    time_t best = 0;
    path[0] = '\0';
    if (glob("/boot/vmlinuz-*", 0, NULL, &g) != 0)
        return -1;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        struct stat st;
        if (stat(g.gl_pathv[i], &st) == 0 && S_ISREG(st.st_mode) && st.st_mtime >= best) {
            best = st.st_mtime;
            snprintf(path, len, "%s", g.gl_pathv[i]);
        }
    }
    globfree(&g);
    return path[0] ? 0 : -1;
}

static int parse_kernels(struct study *s, const struct opts *o, char *err, size_t errlen)
{
    size_t n;
    const char *const *v = opts_list(o, "kernel", &n);
    char def[600];
    const char *one[1] = {def};
    if (!n) {
        if (newest_boot_kernel(def, sizeof def) < 0) {
            snprintf(err, errlen,
                     "no --kernel given and no /boot/vmlinuz-* to default to "
                     "(apt-get install linux-image-amd64)");
            return -1;
        }
        fprintf(stderr, "dbscale kernels: no --kernel given: booting %s\n", def);
        v = one, n = 1;
    }
    s->nk = (int)n;
    s->k = xcalloc(n, sizeof *s->k);
    for (size_t i = 0; i < n; i++) {
        struct study_kernel *k = &s->k[i];
        const char *path = v[i], *eq = strchr(v[i], '=');
        struct stat st;
        if (eq && stat(v[i], &st) < 0) { /* LABEL=PATH (a file named so is a path) */
            if (!label_ok(v[i], (size_t)(eq - v[i]))) {
                snprintf(err, errlen,
                         "--kernel '%s': LABEL=IMAGE, LABEL 1-31 of A-Za-z0-9._+-, not "
                         "starting with '.' or '-'",
                         v[i]);
                return -1;
            }
            snprintf(k->label, sizeof k->label, "%.*s", (int)(eq - v[i]), v[i]);
            path = eq + 1;
        }
        char why[900];
        if (kimage_inspect(path, &k->img, why, sizeof why) < 0) {
            snprintf(err, errlen, "--kernel: %s", why);
            return -1;
        }
        if (!k->label[0]) { /* the release, made unique */
            snprintf(k->label, sizeof k->label, "%.31s", k->img.release);
            for (int t = 2; t < 100; t++) {
                int dup = 0;
                for (size_t j = 0; j < i; j++)
                    dup |= !strcmp(s->k[j].label, k->label);
                if (!dup)
                    break;
                snprintf(k->label, sizeof k->label, "%.27s-%d", k->img.release, t);
            }
        }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(s->k[j].label, k->label)) {
                snprintf(err, errlen, "--kernel: label '%s' given twice", k->label);
                return -1;
            }
        if (initramfs_get(k->img.release, k->img.modules, k->initrd, sizeof k->initrd, why,
                          sizeof why) < 0) {
            snprintf(err, errlen, "--kernel %s (%s): %s", path, k->img.release, why);
            return -1;
        }
        /* under TCG the bzImage would spend half its boot unpacking itself */
        int v =
            vmlinux_get(path, k->img.sha256, k->boot_image, sizeof k->boot_image, why, sizeof why);
        if (v < 0) {
            snprintf(err, errlen, "--kernel %s: %s", path, why);
            return -1;
        }
        if (v > 0)
            snprintf(k->boot_image, sizeof k->boot_image, "%s", k->img.path);
    }
    return 0;
}

/* argv after "--", or --command split on blanks; the verb checked. */
static int parse_command(struct study *s, const struct opts *o, int argc, char **argv, char **words,
                         char *err, size_t errlen)
{
    int dd = -1;
    for (int i = 1; i < argc && dd < 0; i++)
        if (!strcmp(argv[i], "--"))
            dd = i;
    if (dd >= 0) {
        s->cmd = argv + dd + 1;
        s->ncmd = argc - dd - 1;
    } else if (opts_str(o, "command")) {
        static char buf[8192];
        snprintf(buf, sizeof buf, "%s", opts_str(o, "command"));
        if (strpbrk(buf, "'\"\\")) {
            snprintf(err, errlen,
                     "--command: quotes and backslashes are not read here; give the "
                     "command after --");
            return -1;
        }
        int n = 0;
        for (char *save = NULL, *w = strtok_r(buf, " \t", &save); w && n < MAX_WORDS - 1;
             w = strtok_r(NULL, " \t", &save))
            words[n++] = w;
        s->cmd = words;
        s->ncmd = n;
    }
    if (s->ncmd == 0) {
        snprintf(err, errlen,
                 "no command: give one after -- (dbscale kernels ... -- micro "
                 "getppid1)");
        return -1;
    }
    const char *verb = s->cmd[0];
    if (strcmp(verb, "sweep") && strcmp(verb, "micro") && strcmp(verb, "fs")) {
        snprintf(err, errlen, "the command a guest runs is sweep, micro or fs (got '%s')", verb);
        return -1;
    }
    for (int i = 1; i < s->ncmd; i++)
        if (!strncmp(s->cmd[i], "--out", 5) || !strncmp(s->cmd[i], "--append", 8)) {
            snprintf(err, errlen,
                     "'%s' in the command: the study gives each variant its own "
                     "results directory under --out",
                     s->cmd[i]);
            return -1;
        }
    if (!strcmp(verb, "fs") && s->repeats > 1) {
        snprintf(err, errlen, "fs --out writes one run's fs.csv: --repeats must be 1 with fs");
        return -1;
    }
    return 0;
}

static int find_qemu(char *path, size_t len)
{
    const char *env = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s", env ? env : "/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(path, len, "%s/qemu-system-x86_64", d);
        if (access(path, X_OK) == 0)
            return 0;
    }
    return -1;
}

/* accel, vCPUs and pinning. */
static int parse_guest(struct study *s, const struct opts *o, char *err, size_t errlen)
{
    if (find_qemu(s->qemu, sizeof s->qemu) < 0) {
        snprintf(err, errlen,
                 "qemu-system-x86_64 not found on PATH (apt-get install "
                 "qemu-system-x86)");
        return -1;
    }
    int kvm_fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (kvm_fd >= 0)
        close(kvm_fd);
    const char *a = opts_str(o, "accel");
    if (!strcmp(a, "kvm") && kvm_fd < 0) {
        snprintf(err, errlen, "--accel=kvm: /dev/kvm: %s (--accel=tcg emulates instead)",
                 strerror(errno));
        return -1;
    }
    snprintf(s->accel, sizeof s->accel, "%s",
             !strcmp(a, "auto") ? (kvm_fd >= 0 ? "kvm" : "tcg") : a);
    if (!strcmp(a, "auto") && kvm_fd >= 0) { /* /dev/kvm opens: does qemu boot with it? */
        char con[] = "/tmp/dbscale-kvm-probe-XXXXXX", why[600];
        int fd = mkstemp(con);
        if (fd >= 0)
            close(fd);
        if (fd < 0 || !guest_kvm_works(s->qemu, s->k[0].img.path, con, why, sizeof why)) {
            fprintf(stderr,
                    "dbscale kernels: /dev/kvm is there, but qemu did not boot a kernel "
                    "with it (%s): using TCG\n",
                    fd < 0 ? strerror(errno) : why);
            snprintf(s->accel, sizeof s->accel, "tcg");
        }
        if (fd >= 0)
            unlink(con);
    }
    cpu_set_t set;
    static struct vmpin_cpu allowed[VMPIN_MAX];
    int na = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE && na < VMPIN_MAX; c++)
            if (CPU_ISSET(c, &set))
                allowed[na++].cpu = c;
    if (na == 0)
        allowed[na++].cpu = 0;
    vmpin_topology("/", allowed, na);
    s->host_cpus = na;
    s->vcpus = (int)opts_int(o, "vm-cpus");
    if (s->vcpus == 0)
        s->vcpus = vmpin_default_vcpus(allowed, na);
    if (s->vcpus > na && !opts_bool(o, "vm-overcommit")) {
        snprintf(err, errlen,
                 "--vm-cpus=%d: dbscale may use %d host CPU%s here, and each vCPU gets one of its "
                 "own; --vm-overcommit runs them anyway, unpinned",
                 s->vcpus, na, na == 1 ? "" : "s");
        return -1;
    }
    static struct vmpin p;
    s->pinned = vmpin_plan(allowed, na, s->vcpus, &p) == 0;
    if (s->pinned) {
        memcpy(s->pin, p.pin, sizeof p.pin);
        memcpy(s->house, p.house, sizeof p.house);
        s->nhouse = p.nhouse;
        s->sockets = p.sockets, s->cores = p.cores, s->threads = p.threads, s->nodes = p.nodes;
        if (p.note[0])
            fprintf(stderr, "dbscale kernels: %s\n", p.note);
        if (!p.nhouse)
            fprintf(stderr,
                    "dbscale kernels: %d vCPUs on %d host CPUs leave none for qemu's own threads "
                    "(main loop, 9p I/O): they share the vCPUs' CPUs%s\n",
                    s->vcpus, na, na > 1 ? "; fewer --vm-cpus keeps a core for them" : "");
    }
    s->mem_mb = (int)opts_int(o, "vm-mem");
    s->timeout_s = (int)opts_int(o, "vm-timeout");
    return 0;
}

/* OUT made new (or found empty), then opened once and checked as the
 * study's own (studyfd.h): -2 when it is refused, untouched. */
static int make_out(struct study *s, const struct opts *o, char *err, size_t errlen)
{
    char base[600], ts[32], made[1024];
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
    snprintf(base, sizeof base, "results/kernels-%s", ts);
    int rc = results_dir_create(opts_str(o, "out"), base, 0, made, sizeof made, err, errlen);
    if (rc < 0)
        return rc;
    s->outfd = studyfd_open(made, err, errlen);
    if (s->outfd < 0)
        return -2;
    if (!realpath(made, s->out)) {
        snprintf(err, errlen, "%s: %s", made, strerror(errno));
        return -1;
    }
    snprintf(s->share_model, sizeof s->share_model, "%s", studyfd_share_model(s->outfd));
    return 0;
}

/* Every boot's kernel command line fits, before anything boots. */
static int check_cmdlines(const struct study *s, char *err, size_t errlen)
{
    char line[STUDY_CMDLINE];
    for (int i = 0; i < s->nruns && s->runs[i].repeat == 0; i++)
        if (study_cmdline(s, i, line, sizeof line, err, errlen) < 0)
            return -1;
    return 0;
}

static const char *const status_word[] = {"not run", "ok", "FAILED", "stopped"};

static void summary(const struct study *s)
{
    printf("\n%-36s %6s  %-8s %8s  %s\n", "boot", "repeat", "status", "seconds", "why");
    for (int i = 0; i < s->nruns; i++) {
        const struct study_run *u = &s->runs[i];
        printf("%-36s %6d  %-8s %8.1f  %s\n", u->variant, u->repeat + 1, status_word[u->status],
               u->seconds, u->why);
    }
}

/* The page over every variant that left results. 0, or -1 with err. */
static int write_page(const struct study *s, char *path, size_t len, char *err, size_t errlen)
{
    char **dirs;
    size_t n, beyond;
    if (studydir_variants(s->out, &dirs, &n, &beyond, err, errlen) < 0)
        return -1;
    if (beyond) /* the page says so too */
        warnx_("the page compares the first %d variants; %zu more were left out", STUDYDIR_MAX,
               beyond);
    if (n == 0) {
        snprintf(err, errlen, "no variant left results");
        free(dirs);
        return -1;
    }
    snprintf(path, len, "%s/report.html", s->out);
    int rc = study_page_write_dirs(dirs, n, path, err, errlen);
    studydir_free(dirs, n);
    return rc;
}

static int run_study(struct study *s, int echo)
{
    char err[1024];
    int failed = 0;
    for (int i = 0; i < s->nruns && !signals_caught(); i++) {
        struct study_run *u = &s->runs[i];
        const struct study_kernel *k = &s->k[u->kernel];
        fprintf(stderr, "[%d/%d] %s, repeat %d: booting %s%s%s (%s, %d vCPU%s)\n", i + 1, s->nruns,
                u->variant, u->repeat + 1, k->img.path, s->b[u->boot].params[0] ? " " : "",
                s->b[u->boot].params, s->accel, s->vcpus, s->vcpus == 1 ? "" : "s");
        if (study_run(s, i, echo) < 0 && u->status == RUN_FAILED) {
            failed++;
            fprintf(stderr, "[%d/%d] %s FAILED after %.1f s: %s (console: %s/console/%s.log)\n",
                    i + 1, s->nruns, u->variant, u->seconds, u->why, s->out, u->id);
        } else if (u->status == RUN_OK) {
            fprintf(stderr, "[%d/%d] %s done in %.1f s (guest up in %.1f s)\n", i + 1, s->nruns,
                    u->variant, u->seconds, u->boot_s);
        }
        if (study_write(s, err, sizeof err) < 0)
            warnx_("kernels: %s", err);
        /* a command the guest's dbscale refused is refused in every guest */
        if (i == 0 && u->exit_code == EXIT_USAGE) {
            fprintf(stderr, "dbscale kernels: the guest's dbscale refused the command (exit 2; "
                            "its message is above): nothing else is booted\n");
            return EXIT_USAGE;
        }
    }
    return failed ? EXIT_RUNTIME : 0;
}

int kernels_main(int argc, char **argv)
{
    struct opts o;
    char err[2048], *pos[1], *words[MAX_WORDS];
    int npos, dd = argc;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--")) {
            dd = i;
            break;
        }
    opts_init(&o, kernels_opts, sizeof kernels_opts / sizeof kernels_opts[0]);
    int r = opts_parse_argv(&o, dd, argv, 1, pos, 0, &npos, err, sizeof err);
    if (r == 1) {
        usage(stdout, &o);
        opts_free(&o);
        return 0;
    }
    struct study s;
    memset(&s, 0, sizeof s);
    s.repeats = r == 0 ? (int)opts_int(&o, "repeats") : 1;
    if (r < 0 || parse_command(&s, &o, argc, argv, words, err, sizeof err) < 0 ||
        parse_boots(&s, &o, err, sizeof err) < 0 || parse_kernels(&s, &o, err, sizeof err) < 0 ||
        parse_guest(&s, &o, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale kernels: %s\n(see: dbscale kernels --help)\n", err);
        free(s.k);
        free(s.b);
        opts_free(&o);
        return EXIT_USAGE;
    }
    if (!realpath("/proc/self/exe", s.exe) || !getcwd(s.cwd, sizeof s.cwd)) {
        fprintf(stderr, "dbscale kernels: cannot find this program or the working directory\n");
        free(s.k);
        free(s.b);
        opts_free(&o);
        return EXIT_RUNTIME;
    }
    study_plan(&s);
    s.outfd = -1;
    int mr = check_cmdlines(&s, err, sizeof err) < 0 ? -2 : make_out(&s, &o, err, sizeof err);
    if (mr < 0) {
        fprintf(stderr, "dbscale kernels: %s\n", err);
        if (s.outfd >= 0)
            close(s.outfd);
        free(s.runs);
        free(s.k);
        free(s.b);
        opts_free(&o);
        return mr == -2 ? EXIT_USAGE : EXIT_RUNTIME;
    }
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(s.started, sizeof s.started, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (strcmp(s.accel, "kvm"))
        fprintf(stderr, "dbscale kernels: no KVM here: the guests run under TCG emulation, so the "
                        "figures are an emulator's, not the hardware's\n");
    if (!s.pinned)
        fprintf(stderr, "dbscale kernels: %d vCPUs on %d host CPUs: the vCPUs are not pinned\n",
                s.vcpus, s.host_cpus);
    signals_install();
    int rc = run_study(&s, !opts_bool(&o, "quiet"));
    t = time(NULL);
    gmtime_r(&t, &tm);
    strftime(s.ended, sizeof s.ended, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (study_write(&s, err, sizeof err) < 0) {
        warnx_("kernels: %s", err);
        rc = rc ? rc : EXIT_RUNTIME;
    }
    summary(&s);
    char page[1400];
    if (write_page(&s, page, sizeof page, err, sizeof err) < 0)
        warnx_("kernels: no report: %s", err);
    else
        printf("report: %s\n", page);
    printf("study: %s/kernels.json\n", s.out);
    if (signals_caught())
        rc = signals_exit_code();
    close(s.outfd);
    free(s.runs);
    free(s.k);
    free(s.b);
    opts_free(&o);
    return rc;
}
