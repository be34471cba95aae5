/*
 * study.c - running a kernels study's boots and recording them.
 *
 * The one idea: a guest is to a study what a throwaway server is to a
 * sweep. Each boot gets a shell script in its own OUT/.vm/RUN, shared in
 * read-only, that the guest's /init runs chrooted into the host's root: it
 * runs this same dbscale with the study's command, its --out the variant's
 * directory (the one share a guest may write). The host decides how a boot
 * ended from what guest.c read on the console (the kernel's lines and the
 * guest's /init's, never the command's), cleans the variant's directory of
 * anything a guest must not leave on the host, and rewrites kernels.json
 * after every boot so an interrupted study keeps what finished.
 *
 * Never write into a directory a guest has had writable, and never name a
 * path under OUT: everything goes through OUT's descriptor (studyfd.h).
 */
#include "vm/study.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "study/record.h"
#include "vm/guest.h"
#include "vm/studyfd.h"
#include "core/signals.h"
#include "core/util.h"

void study_plan(struct study *s)
{
    /* the engine's planner, over the two axes a kernels study has */
    struct study_value *kv = xcalloc((size_t)s->nk, sizeof *kv);
    struct study_value *bv = xcalloc((size_t)s->nb, sizeof *bv);
    for (int k = 0; k < s->nk; k++) {
        snprintf(kv[k].label, sizeof kv[k].label, "%s", s->k[k].label);
        kv[k].index = k;
    }
    for (int b = 0; b < s->nb; b++) {
        snprintf(bv[b].label, sizeof bv[b].label, "%s", s->b[b].label);
        bv[b].index = b;
    }
    struct study_axis axes[2] = {{"kernel", kv, s->nk}, {"boot", bv, s->nb}};
    char err[200];
    int nv = 0;
    struct study_variant *v = study_plan_variants(axes, 2, &nv, err, sizeof err);
    s->runs = v ? study_plan_rounds(axes, 2, v, nv, s->repeats, &s->nruns) : NULL;
    if (!v)
        s->nruns = 0;
    free(v);
    free(kv);
    free(bv);
}

/* s as a word a POSIX shell reads back verbatim. */
static void sh_quote(struct sbuf *b, const char *s)
{
    sbuf_printf(b, "'");
    for (; *s; s++)
        if (*s == '\'')
            sbuf_printf(b, "'\\''");
        else
            sbuf_add(b, s, 1);
    sbuf_printf(b, "'");
}

/* A host path as the guest sees it: its /tmp and /var/tmp are the guest's
 * own, the host's are under /run/host (guest_init.sh). */
static void guest_path(struct sbuf *b, const char *p)
{
    int hidden = !strncmp(p, "/tmp/", 5) || !strcmp(p, "/tmp") || !strncmp(p, "/var/tmp/", 9) ||
                 !strcmp(p, "/var/tmp");
    char g[PATH_MAX + 16];
    snprintf(g, sizeof g, "%s%s", hidden ? "/run/host" : "", p);
    sh_quote(b, g);
}

/* The boot's script, as OUT/.vm/RUN/run.sh: words run, the command's lines
 * prefixed "| " (guest.h: they decide nothing), its exit code what the
 * script exits. */
static int write_script(const struct study *s, const struct study_run *u, char *const *words,
                        int nwords, int append, int dirfd, char *err, size_t errlen)
{
    struct sbuf b = {0};
    sbuf_printf(&b,
                "# dbscale kernels: boot %s (kernel %s, boot %s, repeat %d), run in the guest\n"
                "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
                "export HOME=/tmp TMPDIR=/tmp TZ=UTC LC_ALL=C\n"
                "cd ",
                u->id, s->k[u->kernel].label, s->b[u->boot].label, u->repeat + 1);
    guest_path(&b, s->cwd);
    sbuf_printf(&b, " 2>/dev/null || cd /tmp\n");
    /* the host's server templates (DBSCALE_SERVER_CACHE, server_template.c),
     * read-only: a guest under TCG spends 10 s or more in initdb otherwise */
    const char *cache = getenv("DBSCALE_SERVER_CACHE");
    if (cache && cache[0] == '/') {
        sbuf_printf(&b, "c=");
        guest_path(&b, cache);
        sbuf_printf(&b, "\n[ -d \"$c\" ] && export DBSCALE_SERVER_CACHE=\"$c\"\n");
    }
    sbuf_printf(&b, "{ ");
    guest_path(&b, s->exe);
    for (int i = 0; i < nwords; i++) {
        sbuf_printf(&b, " ");
        sh_quote(&b, words[i]);
    }
    sbuf_printf(&b, " --out /run/dbscale/out");
    /* a sweep's later boots add their levels, numbered on (micro adds anyway) */
    if (append && nwords > 0 && !strcmp(words[0], "sweep"))
        sbuf_printf(&b, " --append");
    /* through a pipe, not the console's tty: the command prints the plain
     * line-per-level progress a log wants, not a line redrawn in place */
    sbuf_printf(&b, " </dev/null; echo $? >/run/dbscale/exit; } 2>&1 | sed -u 's/^/| /'\n"
                    "read rc </run/dbscale/exit 2>/dev/null\n"
                    "exit \"${rc:-127}\"\n");
    int rc = studyfd_write(dirfd, "run.sh", b.s, b.len);
    sbuf_free(&b);
    if (rc < 0)
        snprintf(err, errlen, "%s/.vm/%s/run.sh: %s", s->out, u->id, strerror(-rc));
    return rc < 0 ? -1 : 0;
}

/* Append " WORD" to buf (n used of len) only if it fits whole with reserve
 * bytes still free after it. */
static void add_whole(char *buf, size_t len, size_t *n, const char *word, size_t reserve)
{
    size_t w = strlen(word);
    if (*n + 1 + w + reserve >= len)
        return;
    buf[(*n)++] = ' ';
    memcpy(buf + *n, word, w + 1);
    *n += w;
}

static int cmdline_of(const struct study *s, const struct study_run *u, char *buf, size_t len,
                      char *err, size_t errlen)
{
    const struct study_kernel *k = &s->k[u->kernel];
    const char *params = s->b[u->boot].params;
    if (len > STUDY_CMDLINE)
        len = STUDY_CMDLINE;
    int n0 = snprintf(buf, len, "console=ttyS0 panic=-1 quiet dbscale.accel=%s dbscale.sha256=%s",
                      s->accel, k->img.sha256);
    size_t n = n0 < 0 ? len : (size_t)n0, user = params[0] ? strlen(params) + 1 : 0;
    if (n + user >= len) {
        snprintf(err, errlen,
                 "boot %s: the kernel command line would be %zu bytes, more than the kernel's "
                 "%d: shorten the boot's parameters",
                 u->id, n + user, STUDY_CMDLINE - 1);
        return -1;
    }
    /* the host's facts a guest's kernel.json may echo, each whole or not at
     * all, before the user's words (which may override ours: the kernel
     * takes the last of a repeated parameter) */
    struct sbuf w = {0};
    if (!strpbrk(k->img.path, " \t\"'\\")) {
        sbuf_printf(&w, "dbscale.image=%s", k->img.path);
        add_whole(buf, len, &n, w.s, user);
        w.len = 0;
    }
    for (int c = 0; s->pinned && c < s->vcpus; c++)
        sbuf_printf(&w, "%s%d:%d", c ? "," : "dbscale.pin=", c, s->pin[c]);
    /* a guest's kernel.json keeps 127 bytes of it: more is kernels.json's alone */
    if (w.len && w.len - strlen("dbscale.pin=") < 128)
        add_whole(buf, len, &n, w.s, user);
    sbuf_free(&w);
    if (params[0])
        add_whole(buf, len, &n, params, 0);
    return 0;
}

int study_cmdline(const struct study *s, int i, char *buf, size_t len, char *err, size_t errlen)
{
    return cmdline_of(s, &s->runs[i], buf, len, err, errlen);
}

/* The boot's directories: its script's (shared read-only), its variant's
 * (shared writable) and its console log, all opened under OUT's fd. */
struct boot_dirs {
    int vm, out, console;
};

static void close_dirs(struct boot_dirs *d)
{
    if (d->vm >= 0)
        close(d->vm);
    if (d->out >= 0)
        close(d->out);
    if (d->console >= 0)
        close(d->console);
}

static int open_dirs(const struct study *s, const struct study_run *u, struct boot_dirs *d,
                     char *err, size_t errlen)
{
    d->vm = d->out = d->console = -1;
    int vmroot = studyfd_sub(s->outfd, ".vm", err, errlen);
    if (vmroot < 0)
        return -1;
    d->vm = studyfd_sub(vmroot, u->id, err, errlen);
    close(vmroot);
    int cons = d->vm < 0 ? -1 : studyfd_sub(s->outfd, "console", err, errlen);
    if (cons >= 0) {
        char name[120];
        snprintf(name, sizeof name, "%s.log", u->id);
        d->console =
            openat(cons, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (d->console < 0)
            snprintf(err, errlen, "console/%s: %s", name, strerror(errno));
        close(cons);
    }
    if (d->console >= 0)
        d->out = studyfd_sub(s->outfd, u->variant, err, errlen);
    return d->out < 0 ? -1 : 0;
}

/* How the boot ended, from the guest's result and what it left. */
static void outcome(struct study_run *u, const struct guest_result *r, int gr, int left,
                    const char *what)
{
    if (r->stopped) {
        u->status = RUN_STOPPED;
        snprintf(u->why, sizeof u->why, "%s", r->why);
    } else if (left != 0) {
        u->status = RUN_FAILED;
        if (left < 0)
            snprintf(u->why, sizeof u->why, "cannot check what the guest left: %s", what);
        else
            snprintf(u->why, sizeof u->why,
                     "the guest left %s in %s (%d such, removed): a guest's results are plain "
                     "files",
                     what, u->variant, left);
    } else if (u->exit_code == 0 && gr == 0) {
        u->status = RUN_OK;
    } else if (u->exit_code > 0) {
        u->status = RUN_FAILED;
        snprintf(u->why, sizeof u->why, "the command exited %d in the guest%s%s", u->exit_code,
                 r->why[0] ? "; " : "", r->why);
    } else {
        u->status = RUN_FAILED;
        snprintf(u->why, sizeof u->why, "%s",
                 r->why[0] ? r->why : "the guest powered off before the command finished");
    }
}

/* Boot u and run words in it. */
static int boot_one(struct study *s, struct study_run *u, char *const *words, int nwords, int more,
                    int echo)
{
    char append[STUDY_CMDLINE], name[160];
    struct boot_dirs d;
    if (open_dirs(s, u, &d, u->why, sizeof u->why) < 0 ||
        write_script(s, u, words, nwords, more, d.vm, u->why, sizeof u->why) < 0 ||
        cmdline_of(s, u, append, sizeof append, u->why, sizeof u->why) < 0) {
        close_dirs(&d);
        u->status = RUN_FAILED;
        return -1;
    }
    snprintf(name, sizeof name, "dbscale-%s", u->id);
    struct guest_spec g = {
        .qemu = s->qemu,
        .name = name,
        .kernel = s->k[u->kernel].boot_image,
        .initrd = s->k[u->kernel].initrd,
        .append = append,
        .accel = s->accel,
        .vcpus = s->vcpus,
        .mem_mb = s->mem_mb,
        .sockets = s->sockets,
        .cores = s->cores,
        .threads = s->threads,
        .nodes = s->nodes,
        .share_root = 1,
        .shares = {{"vm", d.vm, 0}, {"out", d.out, 1}},
        .nshares = 2,
        .share_model = s->share_model,
        .console_fd = d.console,
        .timeout_s = s->timeout_s,
        .pin = s->pinned ? s->pin : NULL,
        .house = s->house,
        .nhouse = s->nhouse,
        .echo = echo ? u->id : NULL,
    };
    struct guest_result r;
    int gr = guest_run(&g, &r); /* it closes the console */
    d.console = -1;
    u->seconds = r.seconds;
    u->boot_s = r.boot_s;
    u->pinned = r.pinned;
    u->exit_code = r.exit_code;
    snprintf(u->boot_id, sizeof u->boot_id, "%s", r.boot_id);
    char what[600];
    int left = studyfd_clean(d.out, what, sizeof what);
    close_dirs(&d);
    outcome(u, &r, gr, left, what);
    return u->status == RUN_OK ? 0 : -1;
}

int study_run(struct study *s, int i, int echo)
{
    return boot_one(s, &s->runs[i], s->cmd, s->ncmd, s->runs[i].repeat > 0, echo);
}

static int guest_run_hook(void *arg, struct study_run *u, char *const *words, int nwords,
                          int append, int echo)
{
    return boot_one(arg, u, words, nwords, append, echo);
}

static int guest_record_hook(void *arg, const struct study_engine *e, char *err, size_t errlen)
{
    struct study *s = arg;
    s->runs = e->runs; /* the engine's, as they stand */
    s->nruns = e->nruns;
    snprintf(s->started, sizeof s->started, "%s", e->started);
    snprintf(s->ended, sizeof s->ended, "%s", e->ended);
    return study_write(s, err, errlen);
}

struct study_backend study_guest_backend(struct study *s)
{
    return (struct study_backend){
        .name = "guest", .arg = s, .run = guest_run_hook, .record = guest_record_hook};
}

static const char *status_name(enum study_status st)
{
    static const char *const n[] = {"not run", "ok", "failed", "stopped"};
    return n[st];
}

static json_t *kernels_json(const struct study *s)
{
    json_t *a = json_array();
    for (int i = 0; i < s->nk; i++) {
        const struct study_kernel *k = &s->k[i];
        json_t *o =
            json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:I, s:s, s:s}", "label", k->label,
                      "image", k->img.path, "sha256", k->img.sha256, "release", k->img.release,
                      "version", k->img.version, "config_smp", k->img.smp, "config", k->img.config,
                      "modules", k->img.modules, "size", (json_int_t)k->img.size, "initramfs",
                      k->initrd, "booted_as", k->boot_image);
        json_array_append_new(a, o ? o : json_object());
    }
    return a;
}

static json_t *runs_json(const struct study *s)
{
    json_t *a = json_array();
    for (int i = 0; i < s->nruns; i++) {
        const struct study_run *u = &s->runs[i];
        char con[200];
        snprintf(con, sizeof con, "console/%s.log", u->id);
        json_t *o = json_pack(
            "{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:i, s:s, s:f, s:f, s:b, s:s}", "id", u->id,
            "variant", u->variant, "kernel", s->k[u->kernel].label, "boot", s->b[u->boot].label,
            "repeat", u->repeat + 1, "status", status_name(u->status), "why", u->why, "exit_code",
            u->exit_code, "boot_id", u->boot_id, "seconds", u->seconds, "boot_seconds", u->boot_s,
            "pinned", u->pinned, "console", u->status == RUN_PENDING ? "" : con);
        json_array_append_new(a, o ? o : json_object());
    }
    return a;
}

int study_write(const struct study *s, char *err, size_t errlen)
{
    json_t *o = json_object();
    json_object_set_new(o, "dbscale_version", json_string(DBSCALE_VERSION));
    json_object_set_new(o, "git_commit", json_string(DBSCALE_GIT));
    json_object_set_new(o, "started", json_string(s->started));
    json_object_set_new(o, "ended", json_string(s->ended));
    json_t *cmd = json_array();
    for (int i = 0; i < s->ncmd; i++)
        json_array_append_new(cmd, json_string(s->cmd[i]));
    json_object_set_new(o, "command", cmd);
    json_object_set_new(o, "cwd", json_string(s->cwd));
    struct sbuf pin = {0}, house = {0};
    for (int i = 0; s->pinned && i < s->vcpus; i++)
        sbuf_printf(&pin, "%s%d:%d", i ? "," : "", i, s->pin[i]);
    for (int i = 0; i < s->nhouse; i++)
        sbuf_printf(&house, "%s%d", i ? "," : "", s->house[i]);
    json_t *g =
        json_pack("{s:s, s:b, s:i, s:i, s:i, s:s, s:b, s:s, s:{s:i, s:i, s:i, s:i}, s:s, "
                  "s:i, s:s}",
                  "accel", s->accel, "emulated", strcmp(s->accel, "kvm") != 0, "vcpus", s->vcpus,
                  "mem_mb", s->mem_mb, "host_cpus", s->host_cpus, "pinning", pin.s ? pin.s : "",
                  "pinned", s->pinned, "housekeeping", house.s ? house.s : "", "topology",
                  "sockets", s->sockets, "cores", s->cores, "threads", s->threads, "nodes",
                  s->nodes, "share", s->share_model, "timeout_s", s->timeout_s, "qemu", s->qemu);
    sbuf_free(&pin);
    sbuf_free(&house);
    json_object_set_new(o, "guest", g ? g : json_object());
    json_object_set_new(o, "kernels", kernels_json(s));
    json_t *boots = json_array(), *variants = json_array();
    for (int i = 0; i < s->nb; i++)
        json_array_append_new(
            boots, json_pack("{s:s, s:s}", "label", s->b[i].label, "params", s->b[i].params));
    json_object_set_new(o, "boots", boots);
    for (int i = 0; i < s->nruns && s->runs[i].repeat == 0; i++)
        json_array_append_new(variants, json_string(s->runs[i].variant));
    json_object_set_new(o, "variants", variants);
    json_object_set_new(o, "runs", runs_json(s));
    return study_json_write(s->outfd, s->out, "kernels.json", o, err, errlen);
}
