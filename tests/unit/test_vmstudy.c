/*
 * test_vmstudy.c - what keeps a kernels study to its own directory and
 * honest about what it did: a bzImage refused before any boot when it is
 * cut short or its release names paths; the cache trusted only when
 * private; the study directory by descriptor, and a guest's results cleaned
 * of links, devices and setuid files; console lines told apart (the
 * command's never decide an outcome); the kernel command line built whole
 * or refused (256 vCPUs' pinning and the user's parameters never cut);
 * vCPUs pinned to whole cores on one node with housekeeping CPUs left, on
 * made-up topologies; kernels.json read back whole; and the boot column of
 * results.csv and micro.csv, with an older micro.csv taken up.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/util.h"
#include "machine/kernelinfo.h"
#include "results/benchcsv.h"
#include "results/results.h"
#include "results/studyjson.h"
#include "vm/guest.h"
#include "vm/kimage.h"
#include "vm/study.h"
#include "vm/studyfd.h"
#include "vm/vmcache.h"
#include "vm/vmpin.h"

static char root[256];

static void sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/dbscale-vmstudy-test.%d", (int)getpid());
    sh("rm -rf '%s' && mkdir -m 0700 '%s'", root, root);
    return 0;
}

static int cleanup(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", root, root);
    return system(cmd) == 0 ? 0 : -1;
}

/* A bzImage of len bytes whose header says setup sectors + syssize units. */
static void image(const char *name, const char *version, size_t len, int sects, uint32_t sys)
{
    unsigned char *img = calloc(1, len);
    img[0x1f1] = (unsigned char)sects;
    memcpy(img + 0x1f4, &sys, 4); /* x86: little-endian */
    img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
    memcpy(img + 0x202, "HdrS", 4);
    img[0x20e] = 0x00, img[0x20f] = 0x01;
    memcpy(img + 0x300, version, strlen(version) + 1);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(img, 1, len, f), len);
    fclose(f);
    free(img);
}

static void test_kimage_refusals(void **state)
{
    (void)state;
    char path[512], err[1200];
    struct kimage k;
    /* a local build's '+' is a release like any other */
    image("plus", "6.9.0-rc1+ (me@box) #1 SMP", 0x1000, 1, 0xc0);
    snprintf(path, sizeof path, "%s/plus", root);
    assert_int_equal(kimage_inspect(path, &k, err, sizeof err), 0);
    assert_string_equal(k.release, "6.9.0-rc1+");
    /* cut short: the header says 2 sectors + 0xc0 x 16 bytes = 0x1000 */
    image("cut", "6.9.0 (me@box) #1 SMP", 0xfff, 1, 0xc0);
    snprintf(path, sizeof path, "%s/cut", root);
    assert_int_equal(kimage_inspect(path, &k, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
    /* setup_sects 0 means 4: 5 sectors */
    image("four", "6.9.0 (me@box) #1 SMP", 0x800, 0, 0);
    snprintf(path, sizeof path, "%s/four", root);
    assert_int_equal(kimage_inspect(path, &k, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
    /* a signed image is longer than its header says: fine */
    image("signed", "6.9.0 (me@box) #1 SMP", 0x1400, 1, 0xc0);
    snprintf(path, sizeof path, "%s/signed", root);
    assert_int_equal(kimage_inspect(path, &k, err, sizeof err), 0);
    /* a release that would name a path */
    const char *bad[] = {"../../etc", "6.1/x", ".hidden", "-rf", "6.1;reboot", "6.1\t"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char v[128];
        snprintf(v, sizeof v, "%s (me@box) #1 SMP", bad[i]);
        image("bad", v, 0x1000, 1, 0xc0);
        snprintf(path, sizeof path, "%s/bad", root);
        assert_int_equal(kimage_inspect(path, &k, err, sizeof err), -1);
        assert_non_null(strstr(err, "release"));
    }
    assert_true(kimage_release_ok("6.1.0-57-amd64"));
    assert_false(kimage_release_ok(".."));
    assert_false(kimage_release_ok(""));
}

static void test_cache_private(void **state)
{
    (void)state;
    char dir[600], why[1200];
    /* made under a private parent: 0700, trusted */
    sh("mkdir -m 0700 '%s/home'", root);
    char env[600];
    snprintf(env, sizeof env, "%s/home/cache", root);
    setenv("XDG_CACHE_HOME", env, 1);
    assert_int_equal(vmcache_dir(dir, sizeof dir, why, sizeof why), 0);
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0700);
    /* a world-writable XDG_CACHE_HOME: refused, naming it */
    sh("mkdir -m 0777 '%s/open' && chmod 0777 '%s/open'", root, root);
    snprintf(env, sizeof env, "%s/open", root);
    setenv("XDG_CACHE_HOME", env, 1);
    assert_int_equal(vmcache_dir(dir, sizeof dir, why, sizeof why), -1);
    assert_non_null(strstr(why, "writable by others"));
    assert_non_null(strstr(why, "/open"));
    /* sticky, as /tmp: fine */
    sh("chmod 1777 '%s/open'", root);
    assert_int_equal(vmcache_dir(dir, sizeof dir, why, sizeof why), 0);
    /* the cache itself writable by others, or a link */
    sh("chmod 0777 '%s/open/dbscale'", root);
    assert_int_equal(vmcache_dir(dir, sizeof dir, why, sizeof why), -1);
    sh("rm -rf '%s/open/dbscale' && ln -s '%s/home/cache/dbscale' '%s/open/dbscale'", root, root,
       root);
    assert_int_equal(vmcache_dir(dir, sizeof dir, why, sizeof why), -1);
    assert_non_null(strstr(why, "symbolic link"));
    if (geteuid() == 0) { /* another user's: root can make one to test */
        sh("rm -f '%s/open/dbscale' && mkdir -m 0700 '%s/open/dbscale' && chown 65534 "
           "'%s/open/dbscale'",
           root, root, root);
        assert_int_equal(vmcache_dir(dir, sizeof dir, why, sizeof why), -1);
        assert_non_null(strstr(why, "owned by uid 65534"));
    }
    /* a relative XDG_CACHE_HOME is ignored (XDG), HOME used */
    setenv("XDG_CACHE_HOME", "relative", 1);
    snprintf(env, sizeof env, "%s/home", root);
    setenv("HOME", env, 1);
    assert_int_equal(vmcache_dir(dir, sizeof dir, why, sizeof why), 0);
    assert_non_null(strstr(dir, "/home/.cache/dbscale"));
    unsetenv("XDG_CACHE_HOME");
}

static void test_studyfd(void **state)
{
    (void)state;
    char err[600], path[600];
    snprintf(path, sizeof path, "%s/out", root);
    sh("mkdir -m 0755 '%s'", path);
    int fd = studyfd_open(path, err, sizeof err);
    assert_true(fd >= 0);
    /* a link where a directory is wanted is not followed */
    sh("mkdir '%s/elsewhere' && ln -s '%s/elsewhere' '%s/console'", root, root, path);
    assert_int_equal(studyfd_sub(fd, "console", err, sizeof err), -1);
    int sub = studyfd_sub(fd, "v", err, sizeof err);
    assert_true(sub >= 0);
    /* a file written by descriptor replaces a link, never writes through it */
    sh("ln -s '%s/elsewhere/victim' '%s/kernels.json'", root, path);
    assert_int_equal(studyfd_write(fd, "kernels.json", "{}\n", 3), 0);
    struct stat st;
    assert_int_equal(lstat(strcat(strcpy((char[700]){0}, path), "/kernels.json"), &st), 0);
    assert_true(S_ISREG(st.st_mode));
    snprintf(err, sizeof err, "%s/elsewhere/victim", root);
    assert_int_equal(access(err, F_OK), -1);
    /* what a guest must not leave: removed, named, counted; plain files stay */
    sh("cd '%s/out/v' && touch plain && mkdir -p sub/deeper && ln -s /etc/passwd link && "
       "ln -s /etc sub/deeper/dirlink && mkfifo fifo && touch suid && chmod 4644 suid && "
       "touch exe && chmod 0755 exe && touch sub/ok",
       root);
    char why[600];
    assert_int_equal(studyfd_clean(sub, why, sizeof why), 5);
    assert_non_null(strchr(why, '(')); /* "what (where)" */
    sh("cd '%s/out/v' && test -f plain && test -f sub/ok && test ! -e link && test ! -L link && "
       "test ! -L sub/deeper/dirlink && test ! -e fifo && test ! -e suid && test ! -e exe",
       root);
    assert_int_equal(studyfd_clean(sub, why, sizeof why), 0);
    /* the share model follows the file system's user xattrs */
    const char *m = studyfd_share_model(sub);
    assert_true(!strcmp(m, "mapped-xattr") || !strcmp(m, "mapped-file"));
    close(sub);
    close(fd);
    /* OUT itself: a link, writable by others, another user's: refused */
    snprintf(path, sizeof path, "%s/link", root);
    sh("ln -s '%s/out' '%s'", root, path);
    assert_int_equal(studyfd_open(path, err, sizeof err), -1);
    assert_non_null(strstr(err, "symbolic link"));
    snprintf(path, sizeof path, "%s/open", root);
    sh("mkdir -m 0777 '%s' && chmod 0777 '%s'", path, path);
    assert_int_equal(studyfd_open(path, err, sizeof err), -1);
    assert_non_null(strstr(err, "writable by others"));
    if (geteuid() == 0) {
        sh("chmod 0755 '%s' && chown 65534 '%s'", path, path);
        assert_int_equal(studyfd_open(path, err, sizeof err), -1);
        assert_non_null(strstr(err, "owned by uid 65534"));
    }
}

static void test_console_lines(void **state)
{
    (void)state;
    assert_int_equal(guest_line_kind("[    2.345678] Kernel panic - not syncing: VFS"), GL_PANIC);
    assert_int_equal(guest_line_kind("Kernel panic - not syncing: Attempted to kill init!"),
                     GL_PANIC);
    assert_int_equal(guest_line_kind("[   12.5] Out of memory: Killed process 42 (postgres)"),
                     GL_OOM);
    assert_int_equal(guest_line_kind("[ 3.1] postgres invoked oom-killer: gfp_mask=0x0"), GL_OOM);
    assert_int_equal(guest_line_kind("dbscale-guest: exit 0 at 4.2 s"), GL_INIT);
    /* the command's lines, whatever they say, decide nothing */
    assert_int_equal(guest_line_kind("| LOG:  Kernel panic in the test table"), GL_COMMAND);
    assert_int_equal(guest_line_kind("| Out of memory"), GL_COMMAND);
    assert_int_equal(guest_line_kind("|"), GL_COMMAND);
    /* nor does a kernel line merely mentioning one */
    assert_int_equal(guest_line_kind("[ 1.0] audit: comm=\"Kernel panic\""), GL_OTHER);
    assert_int_equal(guest_line_kind("[oops] Kernel panic"), GL_OTHER);
}

/* A study of one kernel and boot, planned; vcpus pinned to CPU i. */
static void one_study(struct study *s, struct study_kernel *k, struct study_boot *b, int vcpus,
                      const char *params)
{
    memset(s, 0, sizeof *s);
    memset(k, 0, sizeof *k);
    memset(b, 0, sizeof *b);
    snprintf(k->label, sizeof k->label, "k");
    snprintf(k->img.path, sizeof k->img.path, "/boot/vmlinuz-6.1.0-57-amd64");
    memset(k->img.sha256, 'a', 64);
    snprintf(b->label, sizeof b->label, "b");
    snprintf(b->params, sizeof b->params, "%s", params);
    s->k = k, s->nk = 1, s->b = b, s->nb = 1, s->repeats = 2;
    snprintf(s->accel, sizeof s->accel, "tcg");
    s->vcpus = vcpus;
    s->pinned = 1;
    for (int i = 0; i < vcpus; i++)
        s->pin[i] = i;
    s->outfd = -1;
    study_plan(s);
}

static void test_cmdline(void **state)
{
    (void)state;
    struct study s;
    struct study_kernel k;
    struct study_boot b;
    char line[STUDY_CMDLINE], err[300];
    /* every boot of a variant gets the same line: nothing per boot on it */
    one_study(&s, &k, &b, 2, "nr_cpus=1");
    assert_int_equal(study_cmdline(&s, 0, line, sizeof line, err, sizeof err), 0);
    char first[STUDY_CMDLINE];
    snprintf(first, sizeof first, "%s", line);
    assert_int_equal(study_cmdline(&s, 1, line, sizeof line, err, sizeof err), 0);
    assert_string_equal(line, first);
    assert_non_null(strstr(line, " dbscale.pin=0:0,1:1 "));
    assert_non_null(strstr(line, "dbscale.image=/boot/vmlinuz-6.1.0-57-amd64"));
    assert_int_equal(strcmp(line + strlen(line) - 10, " nr_cpus=1"), 0);
    free(s.runs);
    /* 256 vCPUs and 500 bytes of the user's parameters: the parameters whole
     * and last, the pinning whole or not there (kernels.json keeps it),
     * never cut, and the line within the kernel's 2047 bytes */
    char params[512];
    memset(params, 0, sizeof params);
    for (int i = 0; strlen(params) < 480; i++)
        snprintf(params + strlen(params), sizeof params - strlen(params), "%sp%d=%d", i ? " " : "",
                 i, i);
    one_study(&s, &k, &b, 256, params);
    assert_int_equal(study_cmdline(&s, 0, line, sizeof line, err, sizeof err), 0);
    assert_true(strlen(line) < STUDY_CMDLINE);
    assert_string_equal(line + strlen(line) - strlen(params), params);
    char *pin = strstr(line, "dbscale.pin=");
    if (pin) /* whole: every vCPU's pair */
        assert_non_null(strstr(pin, ",255:255 "));
    free(s.runs);
    /* parameters that cannot fit: refused, not cut */
    char huge[STUDY_CMDLINE];
    memset(huge, 'x', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    struct study_boot big;
    one_study(&s, &k, &b, 2, "");
    memset(&big, 0, sizeof big);
    s.b = &big;
    /* params[] holds 511: the check is the line's, so shrink the room */
    snprintf(big.params, sizeof big.params, "%.500s", huge);
    assert_int_equal(study_cmdline(&s, 0, line, 400, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than the kernel's"));
    free(s.runs);
}

static void cpus_of(struct vmpin_cpu *c, int n, int smt, int per_node)
{
    /* CPU i's core: siblings are i and i + n/smt (Linux's usual numbering) */
    for (int i = 0; i < n; i++) {
        c[i].cpu = i;
        c[i].core = i % (n / smt);
        c[i].node = per_node ? (i % (n / smt)) / per_node : 0;
    }
}

static void test_pin_plan(void **state)
{
    (void)state;
    struct vmpin_cpu c[64];
    static struct vmpin p;
    /* this machine: 2 CPUs, no SMT, one node */
    cpus_of(c, 2, 1, 0);
    assert_int_equal(vmpin_default_vcpus(c, 2), 2);
    assert_int_equal(vmpin_plan(c, 2, 2, &p), 0);
    assert_int_equal(p.pin[0], 0);
    assert_int_equal(p.pin[1], 1);
    assert_int_equal(p.nhouse, 0); /* none left: said by the verb */
    assert_int_equal(vmpin_plan(c, 2, 1, &p), 0);
    assert_int_equal(p.nhouse, 1);
    assert_int_equal(p.house[0], 1);
    assert_int_equal(vmpin_plan(c, 2, 3, &p), -1);
    /* 8 CPUs as 4 cores x 2 threads (siblings i, i+4): 4 vCPUs take two
     * whole cores, the guest told 2 threads per core; the other two cores
     * are qemu's */
    cpus_of(c, 8, 2, 0);
    assert_int_equal(vmpin_default_vcpus(c, 8), 6);
    assert_int_equal(vmpin_plan(c, 8, 4, &p), 0);
    int want[] = {0, 4, 1, 5};
    for (int i = 0; i < 4; i++)
        assert_int_equal(p.pin[i], want[i]);
    assert_int_equal(p.threads, 2);
    assert_int_equal(p.cores, 2);
    assert_int_equal(p.sockets, 1);
    assert_int_equal(p.nhouse, 4);
    int house[] = {2, 6, 3, 7};
    for (int i = 0; i < 4; i++)
        assert_int_equal(p.house[i], house[i]);
    /* 3 vCPUs over 2-thread cores: two whole cores, one thread per core told */
    assert_int_equal(vmpin_plan(c, 8, 3, &p), 0);
    assert_int_equal(p.threads, 1);
    assert_int_equal(p.cores, 3);
    assert_non_null(strstr(p.note, "not whole"));
    assert_int_equal(p.nhouse, 4);
    /* 16 CPUs: 2 nodes x 4 cores x 2 threads. 4 vCPUs fit one node; 12 do
     * not (6 cores): 3 cores on each node, the guest told 2 sockets/nodes */
    cpus_of(c, 16, 2, 4);
    assert_int_equal(vmpin_plan(c, 16, 4, &p), 0);
    assert_int_equal(p.nodes, 1);
    for (int i = 0; i < 4; i++)
        assert_int_equal(c[p.pin[i]].node, 0);
    assert_int_equal(p.nhouse, 12);
    assert_int_equal(vmpin_plan(c, 16, 12, &p), 0);
    assert_int_equal(p.nodes, 2);
    assert_int_equal(p.sockets, 2);
    assert_int_equal(p.cores, 3);
    assert_int_equal(p.threads, 2);
    for (int i = 0; i < 12; i++) /* vCPUs 0-5 on node 0, 6-11 on node 1 */
        assert_int_equal(c[p.pin[i]].node, i / 6);
    assert_int_equal(p.nhouse, 4); /* one whole core left on each node */
    for (int i = 0; i < 12; i++)
        for (int h = 0; h < p.nhouse; h++)
            assert_int_not_equal(p.pin[i], p.house[h]);
}

static void test_topology(void **state)
{
    (void)state;
    /* cpu0/cpu1 siblings on node0, cpu2 alone on node1 */
    sh("cd '%s' && for c in 0 1 2; do mkdir -p sys/devices/system/cpu/cpu$c/topology; done && "
       "echo 0-1 >sys/devices/system/cpu/cpu0/topology/thread_siblings_list && "
       "echo 0-1 >sys/devices/system/cpu/cpu1/topology/thread_siblings_list && "
       "echo 2 >sys/devices/system/cpu/cpu2/topology/thread_siblings_list && "
       "mkdir sys/devices/system/cpu/cpu0/node0 sys/devices/system/cpu/cpu1/node0 "
       "sys/devices/system/cpu/cpu2/node1",
       root);
    struct vmpin_cpu c[3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    vmpin_topology(root, c, 3);
    assert_int_equal(c[0].core, 0);
    assert_int_equal(c[1].core, 0);
    assert_int_equal(c[2].core, 2);
    assert_int_equal(c[2].node, 1);
    /* uneven cores: each CPU its own, one thread per core told */
    static struct vmpin p;
    assert_int_equal(vmpin_plan(c, 3, 2, &p), 0);
    assert_int_equal(p.threads, 1);
}

static void test_study_json(void **state)
{
    (void)state;
    struct study s;
    struct study_kernel k;
    struct study_boot b;
    one_study(&s, &k, &b, 256, "nr_cpus=1");
    snprintf(k.img.release, sizeof k.img.release, "6.9.0-rc1+");
    snprintf(k.label, sizeof k.label, "6.9.0-rc1+");
    free(s.runs); /* planned again under the new label */
    study_plan(&s);
    s.nhouse = 2, s.house[0] = 300, s.house[1] = 301;
    s.sockets = 1, s.cores = 256, s.threads = 1, s.nodes = 1;
    snprintf(s.share_model, sizeof s.share_model, "mapped-xattr");
    snprintf(s.runs[1].boot_id, sizeof s.runs[1].boot_id, "1131c339-7e5e-4304-b840-e43159c9cfb7");
    s.runs[1].status = RUN_OK;
    char out[600], err[600];
    snprintf(out, sizeof out, "%s/study", root);
    sh("mkdir -m 0755 '%s'", out);
    snprintf(s.out, sizeof s.out, "%s", out);
    s.outfd = studyfd_open(out, err, sizeof err);
    assert_true(s.outfd >= 0);
    assert_int_equal(study_write(&s, err, sizeof err), 0);
    struct studyjson j;
    assert_int_equal(studyjson_read(out, &j, err, sizeof err), 1);
    /* the host's record keeps every vCPU's pair */
    assert_non_null(strstr(j.pinning, ",255:255"));
    assert_int_equal(strncmp(j.pinning, "0:0,1:1,", 8), 0);
    assert_string_equal(j.housekeeping, "300,301");
    assert_int_equal(j.vcpus, 256);
    assert_string_equal(j.share, "mapped-xattr");
    assert_int_equal((int)j.nvariants, 1);
    assert_string_equal(j.variants[0].name, "6.9.0-rc1+.b");
    assert_string_equal(j.variants[0].release, "6.9.0-rc1+");
    assert_string_equal(j.variants[0].params, "nr_cpus=1");
    assert_int_equal((int)j.nruns, 2);
    const struct studyjson_run *r =
        studyjson_run_of_boot(&j, "1131c339-7e5e-4304-b840-e43159c9cfb7");
    assert_non_null(r);
    assert_int_equal(r->repeat, 2);
    assert_string_equal(r->status, "ok");
    assert_null(studyjson_run_of_boot(&j, ""));
    studyjson_free(&j);
    close(s.outfd);
    free(s.runs);
    /* a variant that names a path outside: an error, not a directory */
    sh("printf '{\"variants\": [\"..\"]}' >'%s/kernels.json'", out);
    assert_int_equal(studyjson_read(out, &j, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a directory name"));
    assert_false(studyjson_name_ok("a/b"));
    assert_true(studyjson_name_ok("6.1.0-57-amd6+.smp"));
}

static void test_boot_column(void **state)
{
    (void)state;
    char dir[600], err[600];
    snprintf(dir, sizeof dir, "%s/res", root);
    sh("mkdir '%s'", dir);
    struct result_row rows[2];
    memset(rows, 0, sizeof rows);
    for (int i = 0; i < 2; i++) {
        snprintf(rows[i].engine, sizeof rows[i].engine, "pgsql");
        snprintf(rows[i].variant, sizeof rows[i].variant, "up");
        rows[i].cpus = 1, rows[i].threads = 1, rows[i].repeat = i + 1, rows[i].tps = 100 + i;
        snprintf(rows[i].boot, sizeof rows[i].boot, "boot-%d", i);
    }
    assert_int_equal(results_write_csv(dir, rows, 2), 0);
    struct result_set rs;
    assert_int_equal(results_read(dir, &rs, err, sizeof err), 0);
    assert_string_equal(rs.rows[1].boot, "boot-1");
    results_free(&rs);
    /* a micro.csv from before the column: its rows taken up, boot empty */
    sh("printf 'test,mode,tasks,cpus,ops_per_s,min,max,cv,samples,fs_type,error,variant,idle\\n"
       "getppid1,p,1,1,5.0,4.0,6.0,1.00,5.0,ext4,,,50.0\\n' >'%s/micro.csv'",
       dir);
    struct microcsv_row m;
    memset(&m, 0, sizeof m);
    snprintf(m.test, sizeof m.test, "pipe1");
    m.mode[0] = 't';
    m.tasks = 1, m.cpus = 1, m.ops = 7;
    snprintf(m.boot, sizeof m.boot, "%s", kernelinfo_boot_id());
    struct sbuf b = {0};
    microcsv_format(&b, &m);
    assert_int_equal(microcsv_append(dir, &b, err, sizeof err), 0);
    sbuf_free(&b);
    struct microcsv_row *got;
    size_t n;
    assert_int_equal(microcsv_read(dir, &got, &n, err, sizeof err), 0);
    assert_int_equal((int)n, 2);
    assert_string_equal(got[0].test, "getppid1");
    assert_string_equal(got[0].boot, "");
    assert_true(got[0].idle == 50.0);
    assert_string_equal(got[1].boot, kernelinfo_boot_id());
    free(got);
    /* a header that is not an older one of ours is still refused */
    sh("printf 'test,mode,something\\n' >'%s/micro.csv'", dir);
    b = (struct sbuf){0};
    microcsv_format(&b, &m);
    assert_int_equal(microcsv_append(dir, &b, err, sizeof err), -1);
    assert_non_null(strstr(err, "header differs"));
    sbuf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_kimage_refusals, setup, cleanup),
        cmocka_unit_test_setup_teardown(test_cache_private, setup, cleanup),
        cmocka_unit_test_setup_teardown(test_studyfd, setup, cleanup),
        cmocka_unit_test(test_console_lines),
        cmocka_unit_test(test_cmdline),
        cmocka_unit_test(test_pin_plan),
        cmocka_unit_test_setup_teardown(test_topology, setup, cleanup),
        cmocka_unit_test_setup_teardown(test_study_json, setup, cleanup),
        cmocka_unit_test_setup_teardown(test_boot_column, setup, cleanup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
