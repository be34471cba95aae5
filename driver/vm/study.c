/*
 * study.c - running a kernels study's boots and recording them.
 *
 * The one idea: a guest is to a study what a throwaway server is to a
 * sweep. Each boot gets a shell script in OUT/.vm that the guest's /init
 * runs chrooted into the host's root: it runs this same dbscale with the
 * study's command, its --out the variant's directory (shared writable), and
 * leaves the command's exit code beside the script. The host decides how a
 * boot ended from that file and from what guest.c saw on the console, never
 * from the console alone, and rewrites kernels.json after every boot so an
 * interrupted study keeps what finished.
 */
#include "vm/study.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "vm/guest.h"
#include "core/procfs.h"
#include "core/signals.h"
#include "core/util.h"

void study_plan(struct study *s)
{
    s->nruns = s->repeats * s->nk * s->nb;
    s->runs = xcalloc((size_t)s->nruns, sizeof *s->runs);
    int i = 0;
    for (int r = 0; r < s->repeats; r++)
        for (int k = 0; k < s->nk; k++)
            for (int b = 0; b < s->nb; b++, i++) {
                struct study_run *u = &s->runs[i];
                u->kernel = k, u->boot = b, u->repeat = r;
                u->exit_code = -1;
                u->boot_s = -1;
                if (s->nb == 1 && !s->b[0].label[0])
                    snprintf(u->variant, sizeof u->variant, "%s", s->k[k].label);
                else
                    snprintf(u->variant, sizeof u->variant, "%s.%s", s->k[k].label, s->b[b].label);
                snprintf(u->id, sizeof u->id, "%s.r%d", u->variant, r + 1);
            }
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

static int write_script(const struct study *s, const struct study_run *u, char *err, size_t errlen)
{
    struct sbuf b = {0};
    sbuf_printf(&b,
                "# dbscale kernels: boot %s (kernel %s, boot %s, repeat %d), run in the guest\n"
                "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
                "export HOME=/tmp TMPDIR=/tmp TZ=UTC LC_ALL=C\n"
                "cd ",
                u->id, s->k[u->kernel].label, s->b[u->boot].label, u->repeat + 1);
    guest_path(&b, s->cwd);
    /* through a pipe, not the console's tty: the command prints the plain
     * line-per-level progress a log wants, not a line redrawn in place */
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
    for (int i = 0; i < s->ncmd; i++) {
        sbuf_printf(&b, " ");
        sh_quote(&b, s->cmd[i]);
    }
    sbuf_printf(&b, " --out ");
    char out[256];
    snprintf(out, sizeof out, "/run/dbscale/%s", u->variant);
    sh_quote(&b, out);
    /* a sweep's later boots add their levels, numbered on (micro adds anyway) */
    if (u->repeat > 0 && !strcmp(s->cmd[0], "sweep"))
        sbuf_printf(&b, " --append");
    sbuf_printf(&b, " </dev/null\necho $? >");
    snprintf(out, sizeof out, "/run/dbscale/.vm/%s.exit", u->id);
    sh_quote(&b, out);
    sbuf_printf(&b, "\n} 2>&1 | cat\n");
    char path[1400];
    snprintf(path, sizeof path, "%s/.vm/%s.sh", s->out, u->id);
    int rc = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    if (rc < 0)
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
    return rc < 0 ? -1 : 0;
}

/* The kernel command line of a boot: ours, then the boot variant's, which
 * may override ours (the kernel takes the last of a repeated parameter). */
static void cmdline(const struct study *s, const struct study_run *u, char *buf, size_t len)
{
    const struct study_kernel *k = &s->k[u->kernel];
    int n = snprintf(buf, len,
                     "console=ttyS0 panic=-1 quiet dbscale.run=%s dbscale.accel=%s "
                     "dbscale.sha256=%s",
                     u->id, s->accel, k->img.sha256);
    if (!strpbrk(k->img.path, " \t\"'\\") && n < (int)len)
        n += snprintf(buf + n, len - (size_t)n, " dbscale.image=%s", k->img.path);
    for (int i = 0; s->pinned && i < s->vcpus && n < (int)len; i++)
        n += snprintf(buf + n, len - (size_t)n, "%s%d:%d", i ? "," : " dbscale.pin=", i, s->pin[i]);
    if (s->b[u->boot].params[0] && n < (int)len)
        snprintf(buf + n, len - (size_t)n, " %s", s->b[u->boot].params);
}

/* The exit code the guest's script left, or -1. */
static int read_exit(const struct study *s, const struct study_run *u)
{
    char path[1400], buf[32];
    snprintf(path, sizeof path, "%s/.vm/%s.exit", s->out, u->id);
    if (procfs_read(path, buf, sizeof buf) <= 0)
        return -1;
    char *e;
    long v = strtol(buf, &e, 10);
    return e == buf ? -1 : (int)v;
}

int study_run(struct study *s, int i, int echo)
{
    struct study_run *u = &s->runs[i];
    char dir[1400], console[1400], exitf[1400], append[2048], name[160], prefix[200];
    snprintf(dir, sizeof dir, "%s/.vm", s->out);
    int rc = mkdir_p(dir, 0755);
    snprintf(dir, sizeof dir, "%s/console", s->out);
    if (rc == 0)
        rc = mkdir_p(dir, 0755);
    if (rc < 0) {
        u->status = RUN_FAILED;
        snprintf(u->why, sizeof u->why, "cannot create %s: %s", dir, strerror(-rc));
        return -1;
    }
    snprintf(exitf, sizeof exitf, "%s/.vm/%s.exit", s->out, u->id);
    unlink(exitf);
    if (write_script(s, u, u->why, sizeof u->why) < 0) {
        u->status = RUN_FAILED;
        return -1;
    }
    snprintf(console, sizeof console, "%s/console/%s.log", s->out, u->id);
    cmdline(s, u, append, sizeof append);
    snprintf(name, sizeof name, "dbscale-%s", u->id);
    snprintf(prefix, sizeof prefix, "%s", u->id);
    struct guest_spec g = {
        .qemu = s->qemu,
        .name = name,
        .kernel = s->k[u->kernel].boot_image,
        .initrd = s->k[u->kernel].initrd,
        .append = append,
        .accel = s->accel,
        .vcpus = s->vcpus,
        .mem_mb = s->mem_mb,
        .study = s->out,
        .console = console,
        .timeout_s = s->timeout_s,
        .pin = s->pinned ? s->pin : NULL,
        .echo = echo ? prefix : NULL,
    };
    struct guest_result r;
    int gr = guest_run(&g, &r);
    u->seconds = r.seconds;
    u->boot_s = r.boot_s;
    u->pinned = r.pinned;
    u->exit_code = read_exit(s, u);
    if (r.stopped) {
        u->status = RUN_STOPPED;
        snprintf(u->why, sizeof u->why, "%s", r.why);
    } else if (u->exit_code == 0 && gr == 0) {
        u->status = RUN_OK;
    } else if (u->exit_code > 0) {
        u->status = RUN_FAILED;
        snprintf(u->why, sizeof u->why, "the command exited %d in the guest%s%s", u->exit_code,
                 r.why[0] ? "; " : "", r.why);
    } else {
        u->status = RUN_FAILED;
        snprintf(u->why, sizeof u->why, "%s",
                 r.why[0] ? r.why : "the guest powered off before the command finished");
    }
    return u->status == RUN_OK ? 0 : -1;
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
        json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:i, s:f, s:f, s:b, s:s}", "id",
                              u->id, "variant", u->variant, "kernel", s->k[u->kernel].label, "boot",
                              s->b[u->boot].label, "repeat", u->repeat + 1, "status",
                              status_name(u->status), "why", u->why, "exit_code", u->exit_code,
                              "seconds", u->seconds, "boot_seconds", u->boot_s, "pinned", u->pinned,
                              "console", u->status == RUN_PENDING ? "" : con);
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
    struct sbuf pin = {0};
    for (int i = 0; s->pinned && i < s->vcpus; i++)
        sbuf_printf(&pin, "%s%d:%d", i ? "," : "", i, s->pin[i]);
    json_t *g = json_pack("{s:s, s:b, s:i, s:i, s:i, s:s, s:b, s:i, s:s}", "accel", s->accel,
                          "emulated", strcmp(s->accel, "kvm") != 0, "vcpus", s->vcpus, "mem_mb",
                          s->mem_mb, "host_cpus", s->host_cpus, "pinning", pin.s ? pin.s : "",
                          "pinned", s->pinned, "timeout_s", s->timeout_s, "qemu", s->qemu);
    sbuf_free(&pin);
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
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    char path[1400];
    snprintf(path, sizeof path, "%s/kernels.json", s->out);
    int rc = -ENOMEM;
    if (text) {
        struct sbuf b = {0};
        sbuf_printf(&b, "%s\n", text);
        free(text);
        rc = write_file_atomic(path, b.s, b.len);
        sbuf_free(&b);
    }
    if (rc < 0)
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
    return rc < 0 ? -1 : 0;
}
