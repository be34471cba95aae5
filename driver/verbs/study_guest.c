/*
 * verbs/study_guest.c - what `dbscale study` and `dbscale kernels` read
 * about a guest: the kernels (--kernel [LABEL=]IMAGE, checked, their
 * initramfs and unpacked kernel made), the boot variants (--boot
 * LABEL=PARAMS), qemu, the accelerator, the vCPUs and their pinning; the
 * kernel command line of every boot checked before any boots.
 *
 * Everything a user can get wrong here is bad input: the functions return
 * -1 with the message naming it, and the verb exits 2 before anything
 * boots (a missing or truncated image, a malformed --boot, more vCPUs
 * than host CPUs unasked, no qemu, no static busybox, a kernel whose 9p
 * modules cannot be found).
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
#include "core/util.h"
#include "verbs/study_guest.h"
#include "vm/guest.h"
#include "vm/initramfs.h"
#include "vm/study.h"
#include "vm/studyfd.h"
#include "vm/vmlinux.h"
#include "vm/vmpin.h"

/* The verb's name, for what is said on the way ("dbscale kernels: ..."). */
static const char *verb = "study";

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
        if (!eq || !study_label_ok(v[i], (size_t)(eq - v[i]))) {
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
        fprintf(stderr, "dbscale %s: no --kernel given: booting %s\n", verb, def);
        v = one, n = 1;
    }
    s->nk = (int)n;
    s->k = xcalloc(n, sizeof *s->k);
    for (size_t i = 0; i < n; i++) {
        struct study_kernel *k = &s->k[i];
        const char *path = v[i], *eq = strchr(v[i], '=');
        struct stat st;
        if (eq && stat(v[i], &st) < 0) { /* LABEL=PATH (a file named so is a path) */
            if (!study_label_ok(v[i], (size_t)(eq - v[i]))) {
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
                    "dbscale %s: /dev/kvm is there, but qemu did not boot a kernel "
                    "with it (%s): using TCG\n",
                    verb, fd < 0 ? strerror(errno) : why);
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
            fprintf(stderr, "dbscale %s: %s\n", verb, p.note);
        if (!p.nhouse)
            fprintf(stderr,
                    "dbscale %s: %d vCPUs on %d host CPUs leave none for qemu's own threads "
                    "(main loop, 9p I/O): they share the vCPUs' CPUs%s\n",
                    verb, s->vcpus, na, na > 1 ? "; fewer --vm-cpus keeps a core for them" : "");
    }
    s->mem_mb = (int)opts_int(o, "vm-mem");
    s->timeout_s = (int)opts_int(o, "vm-timeout");
    return 0;
}

int study_guest_parse(struct study *s, const struct opts *o, const char *verb_name, char *err,
                      size_t errlen)
{
    verb = verb_name;
    return parse_boots(s, o, err, errlen) < 0 || parse_kernels(s, o, err, errlen) < 0 ||
                   parse_guest(s, o, err, errlen) < 0
               ? -1
               : 0;
}

int study_guest_check(struct study *s, char *err, size_t errlen)
{
    char line[STUDY_CMDLINE];
    int rc = 0, repeats = s->repeats;
    s->repeats = 1; /* a boot's line is its kernel's and boot variant's alone */
    study_plan(s);
    for (int i = 0; i < s->nruns && rc == 0; i++)
        rc = study_cmdline(s, i, line, sizeof line, err, errlen);
    free(s->runs);
    s->runs = NULL;
    s->nruns = 0;
    s->repeats = repeats;
    return rc;
}

void study_guest_free(struct study *s)
{
    free(s->k);
    free(s->b);
    s->k = NULL;
    s->b = NULL;
}
