/*
 * test_kernels.c - what a kernels study knows before and after it boots:
 * the running kernel's facts on fake /proc, /sys and /boot trees for the
 * three ways to UP (held, booted with one CPU, built without SMP) and for a
 * dbscale guest; kernel.json's round trip and its one-kernel-per-directory
 * rule; a bzImage's boot header; the 9p modules' load order from a fake
 * modules.dep; the study's interleaved plan; and the page's SMP-against-UP
 * sentences and pairwise relative % from two results directories
 * (test_kpage.c has the page's statistics: boots as the unit).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis/compare.h"
#include "machine/kernelinfo.h"
#include "analysis/verdict.h"
#include "page/page.h"
#include "results/kerneljson.h"
#include "page/page_kernels.h"
#include "results/studydir.h"
#include "vm/initramfs.h"
#include "vm/kimage.h"
#include "vm/study.h"

static char root[256];

static void put(const char *rel, const char *text)
{
    char path[512], dir[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    snprintf(dir, sizeof dir, "mkdir -p '%s'", path);
    *strrchr(dir, '/') = '\0';
    strcat(dir, "'");
    assert_int_equal(system(dir), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A machine: release, version string, command line, CPU lists. */
static void machine(const char *version, const char *cmdline, const char *possible,
                    const char *present, const char *online)
{
    snprintf(root, sizeof root, "/tmp/dbscale-kernels-test.%d", (int)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
    put("proc/sys/kernel/osrelease", "6.1.0-test\n");
    put("proc/sys/kernel/version", version);
    put("proc/cmdline", cmdline);
    put("sys/devices/system/cpu/possible", possible);
    put("sys/devices/system/cpu/present", present);
    put("sys/devices/system/cpu/online", online);
    put("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme sse2\n");
}

static int cleanup(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_smp_held(void **state)
{
    (void)state;
    machine("#1 SMP PREEMPT_DYNAMIC Debian\n", "BOOT_IMAGE=/boot/vmlinuz-6.1.0-test root=/dev/x\n",
            "0-3\n", "0-3\n", "0-3\n");
    put("boot/config-6.1.0-test", "CONFIG_X=y\nCONFIG_SMP=y\n");
    put("boot/vmlinuz-6.1.0-test", "not hashed here");
    struct kernel_facts f;
    kernelinfo_read_at(root, &f, 0);
    assert_string_equal(f.release, "6.1.0-test");
    assert_int_equal(f.config_smp, 1);
    assert_string_equal(f.smp_from, "/boot/config-6.1.0-test");
    assert_int_equal(f.npossible, 4);
    assert_int_equal(f.nonline, 4);
    assert_string_equal(f.boot, "smp");
    assert_string_equal(f.virt, "none");
    assert_string_equal(f.image, "/boot/vmlinuz-6.1.0-test");
    assert_string_equal(kernelinfo_up_mode(&f, 1), "held");
    assert_string_equal(kernelinfo_up_mode(&f, 4), "smp");
}

static void test_booted_one_cpu(void **state)
{
    (void)state;
    machine("#1 SMP PREEMPT_DYNAMIC Debian\n", "console=ttyS0 nr_cpus=1\n", "0\n", "0\n", "0\n");
    put("boot/config-6.1.0-test", "CONFIG_SMP=y\n");
    struct kernel_facts f;
    kernelinfo_read_at(root, &f, 0);
    assert_string_equal(f.boot, "booted");
    assert_string_equal(f.boot_why, "nr_cpus=1");
    assert_string_equal(kernelinfo_up_mode(&f, 1), "booted");
    /* nosmp and maxcpus=0 say the same */
    put("proc/cmdline", "ro nosmp quiet\n");
    kernelinfo_read_at(root, &f, 0);
    assert_string_equal(f.boot, "booted");
    assert_string_equal(f.boot_why, "nosmp");
    /* maxcpus=1, then a second CPU brought online: SMP code again */
    put("proc/cmdline", "maxcpus=1\n");
    put("sys/devices/system/cpu/possible", "0-1\n");
    put("sys/devices/system/cpu/present", "0-1\n");
    put("sys/devices/system/cpu/online", "0-1\n");
    kernelinfo_read_at(root, &f, 0);
    assert_string_equal(f.boot, "smp");
    assert_non_null(strstr(f.boot_why, "but 2 CPUs online"));
    /* one CPU present, nothing on the command line */
    put("proc/cmdline", "ro\n");
    put("sys/devices/system/cpu/present", "0\n");
    put("sys/devices/system/cpu/online", "0\n");
    kernelinfo_read_at(root, &f, 0);
    assert_string_equal(f.boot, "booted");
    assert_string_equal(f.boot_why, "one CPU present");
}

static void test_built_without_smp(void **state)
{
    (void)state;
    /* no config file: the version string, which lacks SMP */
    machine("#1 PREEMPT Debian\n", "ro\n", "0\n", "0\n", "0\n");
    struct kernel_facts f;
    kernelinfo_read_at(root, &f, 0);
    assert_int_equal(f.config_smp, 0);
    assert_string_equal(f.smp_from, "version string");
    assert_string_equal(f.boot, "built");
    assert_string_equal(kernelinfo_up_mode(&f, 1), "built");
    /* /proc/config.gz outranks the version string */
    machine("#1 SMP whatever\n", "ro\n", "0\n", "0\n", "0\n");
    char path[600];
    snprintf(path, sizeof path, "%s/proc/config.gz", root);
    gzFile z = gzopen(path, "wb");
    assert_non_null(z);
    gzputs(z, "CONFIG_A=y\n# CONFIG_SMP is not set\n");
    gzclose(z);
    kernelinfo_read_at(root, &f, 0);
    assert_int_equal(f.config_smp, 0);
    assert_string_equal(f.smp_from, "/proc/config.gz");
    assert_string_equal(f.boot, "built");
}

static void test_guest_and_vm(void **state)
{
    (void)state;
    machine("#1 SMP x\n",
            "console=ttyS0 dbscale.run=a.r1 dbscale.accel=tcg dbscale.sha256=abcdef dbscale.image="
            "/boot/vmlinuz-x dbscale.pin=0:0,1:1 nr_cpus=1\n",
            "0\n", "0\n", "0\n");
    struct kernel_facts f;
    kernelinfo_read_at(root, &f, 0);
    assert_string_equal(f.virt, "tcg");
    assert_string_equal(f.pinning, "0:0,1:1");
    assert_string_equal(f.image_sha256, "abcdef");
    assert_string_equal(f.image, "/boot/vmlinuz-x");
    assert_string_equal(f.boot, "booted");
    /* bare metal in someone's VM: the hypervisor flag and the DMI vendor */
    machine("#1 SMP x\n", "ro\n", "0-1\n", "0-1\n", "0-1\n");
    put("proc/cpuinfo", "flags\t\t: fpu sse2 hypervisor lahf_lm\n");
    put("sys/class/dmi/id/sys_vendor", "QEMU\n");
    kernelinfo_read_at(root, &f, 0);
    assert_string_equal(f.virt, "vm (QEMU)");
}

static void test_kernel_json(void **state)
{
    (void)state;
    machine("#1 SMP x\n", "ro \"quoted\" nr_cpus=1\n", "0\n", "0\n", "0\n");
    struct kernel_facts f, g;
    kernelinfo_read_at(root, &f, 0);
    char err[1024];
    assert_int_equal(kernel_json_load(root, &g, err, sizeof err), 0); /* none yet */
    assert_int_equal(kernel_json_record(root, &f, err, sizeof err), 0);
    assert_int_equal(kernel_json_load(root, &g, err, sizeof err), 1);
    assert_string_equal(g.cmdline, f.cmdline);
    assert_string_equal(g.boot, "booted");
    assert_int_equal(g.config_smp, 1);
    assert_int_equal(g.nonline, 1);
    assert_int_equal(kernel_json_record(root, &f, err, sizeof err), 0); /* same kernel: kept */
    struct kernel_facts other = f;
    snprintf(other.release, sizeof other.release, "6.2.0-other");
    assert_int_equal(kernel_json_record(root, &other, err, sizeof err), -2);
    assert_non_null(strstr(err, "another kernel"));
    assert_non_null(strstr(err, "6.2.0-other"));
}

/* A bzImage's first 0x400 bytes with the version string at 0x300: one
 * setup sector and no kernel after it, so 0x400 bytes is its whole length. */
static void fake_image(const char *path, const char *version)
{
    unsigned char img[0x400];
    memset(img, 0, sizeof img);
    img[0x1f1] = 1;
    img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
    memcpy(img + 0x202, "HdrS", 4);
    img[0x20e] = 0x00, img[0x20f] = 0x01; /* 0x100 + 0x200 */
    memcpy(img + 0x300, version, strlen(version) + 1);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(img, 1, sizeof img, f), sizeof img);
    fclose(f);
}

static void test_kimage(void **state)
{
    (void)state;
    machine("x\n", "x\n", "0\n", "0\n", "0\n");
    char path[600], err[1200];
    snprintf(path, sizeof path, "%s/bzImage", root);
    fake_image(path, "6.9.0-mine (me@box) (gcc 12) #3 SMP PREEMPT Sun Dec 1");
    struct kimage k;
    assert_int_equal(kimage_inspect(path, &k, err, sizeof err), 0);
    assert_string_equal(k.release, "6.9.0-mine");
    assert_string_equal(k.version, "#3 SMP PREEMPT Sun Dec 1");
    assert_int_equal(k.smp, 1); /* no /boot/config-6.9.0-mine: the version string */
    assert_int_equal((int)strlen(k.sha256), 64);
    fake_image(path, "6.9.0-up (me@box) #4 PREEMPT Sun");
    assert_int_equal(kimage_inspect(path, &k, err, sizeof err), 0);
    assert_int_equal(k.smp, 0);
    /* not a kernel, missing, a directory */
    snprintf(path, sizeof path, "%s/proc/cmdline", root);
    assert_int_equal(kimage_inspect(path, &k, err, sizeof err), -1);
    assert_non_null(strstr(err, "too short"));
    put("junk", "");
    char junk[0x400];
    memset(junk, 'x', sizeof junk);
    snprintf(path, sizeof path, "%s/junk", root);
    FILE *f = fopen(path, "wb");
    fwrite(junk, 1, sizeof junk, f);
    fclose(f);
    assert_int_equal(kimage_inspect(path, &k, err, sizeof err), -1);
    assert_non_null(strstr(err, "not an x86 kernel image"));
    snprintf(path, sizeof path, "%s/nonexistent", root);
    assert_int_equal(kimage_inspect(path, &k, err, sizeof err), -1);
    assert_non_null(strstr(err, "No such file"));
    assert_int_equal(kimage_inspect(root, &k, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a regular file"));
    /* sha256 of "abc", the FIPS 180-2 vector */
    put("abc", "abc");
    snprintf(path, sizeof path, "%s/abc", root);
    char h[65];
    assert_int_equal(kernelinfo_sha256(path, h), 0);
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_modules(void **state)
{
    (void)state;
    machine("x\n", "x\n", "0\n", "0\n", "0\n");
    put("mods/modules.dep",
        "kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/fscache/fscache.ko "
        "kernel/fs/netfs/netfs.ko\n"
        "kernel/net/9p/9pnet_virtio.ko: kernel/net/9p/9pnet.ko kernel/drivers/virtio/virtio.ko "
        "kernel/drivers/virtio/virtio_ring.ko\n"
        "kernel/fs/netfs/netfs.ko:\n"
        "kernel/fs/fscache/fscache.ko: kernel/fs/netfs/netfs.ko\n"
        "kernel/net/9p/9pnet.ko:\n"
        "kernel/drivers/virtio/virtio.ko: kernel/drivers/virtio/virtio_ring.ko\n"
        "kernel/drivers/virtio/virtio_ring.ko:\n");
    put("mods/modules.builtin", "kernel/drivers/virtio/virtio_pci.ko\n");
    char dir[600], err[1024], **m;
    snprintf(dir, sizeof dir, "%s/mods", root);
    int n = initramfs_modules(dir, &m, err, sizeof err);
    assert_int_equal(n, 7);
    const char *order[] = {"9pnet", "virtio_ring", "virtio", "9pnet_virtio",
                           "netfs", "fscache",     "9p"};
    for (int i = 0; i < n; i++) {
        char want[64];
        snprintf(want, sizeof want, "/%s.ko", order[i]);
        const char *tail = m[i] + strlen(m[i]) - strlen(want);
        assert_string_equal(tail, want);
    }
    initramfs_free_list(m, n);
    /* virtio_pci neither built in nor a module: named */
    put("mods/modules.builtin", "");
    assert_int_equal(initramfs_modules(dir, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "virtio_pci"));
    /* a compressed module is refused by name */
    put("mods/modules.builtin", "kernel/drivers/virtio/virtio_pci.ko\n");
    put("mods/modules.dep", "kernel/fs/9p/9p.ko.xz:\nkernel/net/9p/9pnet_virtio.ko:\n");
    assert_int_equal(initramfs_modules(dir, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "9p.ko.xz is compressed"));
    /* no modules directory: taken as built in */
    assert_int_equal(initramfs_modules("", &m, err, sizeof err), 0);
    initramfs_free_list(m, 0);
}

static void test_plan(void **state)
{
    (void)state;
    struct study_kernel k[2];
    struct study_boot b[2];
    memset(k, 0, sizeof k);
    memset(b, 0, sizeof b);
    snprintf(k[0].label, sizeof k[0].label, "6.1");
    snprintf(k[1].label, sizeof k[1].label, "6.6");
    snprintf(b[0].label, sizeof b[0].label, "smp");
    snprintf(b[1].label, sizeof b[1].label, "up");
    struct study s;
    memset(&s, 0, sizeof s);
    s.k = k, s.nk = 2, s.b = b, s.nb = 2, s.repeats = 2;
    study_plan(&s);
    assert_int_equal(s.nruns, 8);
    const char *want[] = {"6.1.smp.r1", "6.1.up.r1", "6.6.smp.r1", "6.6.up.r1",
                          "6.1.smp.r2", "6.1.up.r2", "6.6.smp.r2", "6.6.up.r2"};
    for (int i = 0; i < 8; i++)
        assert_string_equal(s.runs[i].id, want[i]);
    assert_string_equal(s.runs[5].variant, "6.1.up");
    free(s.runs);
    /* one unnamed boot: the kernel's label alone */
    memset(b, 0, sizeof b);
    s.nb = 1, s.repeats = 1;
    study_plan(&s);
    assert_string_equal(s.runs[1].variant, "6.6");
    free(s.runs);
}

/* A results directory: kernel.json from facts, and results.csv rows. */
static void variant_dir(const char *name, const struct kernel_facts *f, const char *rows)
{
    char rel[256], err[600], dir[600];
    snprintf(rel, sizeof rel, "%s/results.csv", name);
    char csv[4096];
    snprintf(csv, sizeof csv, "engine,workload,variant,cpus,threads,repeat,tps\n%s", rows);
    put(rel, csv);
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    assert_int_equal(kernel_json_write(dir, f, err, sizeof err), 0);
}

static void test_page_sentences(void **state)
{
    (void)state;
    machine("#1 SMP x\n", "ro\n", "0-1\n", "0-1\n", "0-1\n");
    struct kernel_facts smp, up;
    kernelinfo_read_at(root, &smp, 0);
    up = smp;
    snprintf(up.boot, sizeof up.boot, "booted");
    snprintf(up.boot_why, sizeof up.boot_why, "nr_cpus=1");
    snprintf(up.cmdline, sizeof up.cmdline, "ro nr_cpus=1");
    /* SMP: 90 and 91 on one CPU at 1 thread, 180 on two; UP: 100 and 101 */
    variant_dir("k.smp", &smp,
                "pgsql,oltp_point_select,smp-k1,1,1,0,90\n"
                "pgsql,oltp_point_select,smp-k1,1,1,1,91\n"
                "pgsql,oltp_point_select,smp-k2,2,1,0,180\n");
    variant_dir("k.up", &up,
                "pgsql,oltp_point_select,up,1,1,0,100\n"
                "pgsql,oltp_point_select,up,1,1,1,101\n");
    /* a name no study makes is refused, not passed over */
    put("kernels.json", "{\"variants\": [\"k.smp\", \"k.up\", \"../escape\", \"missing\"]}\n");
    char **dirs, err[600];
    size_t n, beyond;
    assert_int_equal(studydir_variants(root, &dirs, &n, &beyond, err, sizeof err), -1);
    assert_non_null(strstr(err, "../escape"));
    put("kernels.json", "{\"variants\": [\"k.smp\", \"k.up\", \"missing\"]}\n");
    assert_int_equal(studydir_variants(root, &dirs, &n, &beyond, err, sizeof err), 0);
    assert_int_equal((int)n, 2);
    assert_int_equal((int)beyond, 0);
    struct curves_log log = {0};
    struct curves p = {0};
    p.log = &log;
    assert_int_equal(page_load(&p, dirs, n), 0);
    struct sbuf b = {0};
    struct verdict vd;
    verdict_build(&p, NULL, &vd); /* the page renders the verdict's kernels part */
    page_render(&p, &vd, &b);
    verdict_free(&vd);
    /* one boot a side (rows from before the boot column): no interval, no mark */
    assert_non_null(strstr(b.s, "SMP on one CPU against UP: inconclusive (-10%, no interval: "
                                "one point and fewer than two boots a side)"));
    assert_non_null(strstr(b.s, "SMP&#39;s peak against UP&#39;s: inconclusive (+79%"));
    assert_non_null(strstr(b.s, "<th>AvB</th>")); /* the pair column */
    /* floor(90.5 / 100.5 - 1), untested: the two repeats are of one boot */
    assert_non_null(strstr(b.s, "<td class=\"neg\" title=\"no test: 1 and 1 boots\">-10</td>"));
    assert_non_null(strstr(b.s, "booted with one CPU (nr_cpus=1)")); /* how UP was reached */
    assert_null(strstr(b.s, "id=\"emulated\""));                     /* bare metal: no banner */
    sbuf_free(&b);
    curves_free(&p);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    studydir_free(dirs, n);
}

/* compare matches an UP boot's "up" point with an SMP kernel's "smp-k1"
 * one (the sweep's own labels), and keeps a user's label apart */
static void test_compare_kernel_dirs(void **state)
{
    (void)state;
    machine("#1 SMP x\n", "ro\n", "0-1\n", "0-1\n", "0-1\n");
    struct kernel_facts f;
    kernelinfo_read_at(root, &f, 0);
    variant_dir("a", &f,
                "pgsql,oltp_point_select,smp-k1,1,1,0,90\n"
                "pgsql,oltp_point_select,smp-k2,2,1,0,180\n");
    variant_dir("b", &f,
                "pgsql,oltp_point_select,up,1,1,0,100\n"
                "pgsql,oltp_point_select,mine,1,1,0,100\n");
    struct compare_sets ss = {0};
    char err[600], a[600], b[600];
    snprintf(a, sizeof a, "%s/a", root);
    snprintf(b, sizeof b, "%s/b", root);
    assert_int_equal(compare_load(&ss, a, err, sizeof err), 0);
    assert_int_equal(compare_load(&ss, b, err, sizeof err), 0);
    compare_name_sets(&ss);
    struct compare_table t;
    compare_build(&ss, COMPARE_RESULTS, &t);
    assert_int_equal(t.nrows, 3); /* 1 CPU matched, 2 CPUs in a alone, "mine" in b alone */
    size_t rel = 0;
    while (rel < t.ncols && strcmp(t.head[rel], "avb"))
        rel++;
    assert_true(rel < t.ncols);
    assert_string_equal(t.cell[0 * t.ncols + rel], "-10");
    compare_table_free(&t);
    compare_sets_free(&ss);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_smp_held, cleanup),
        cmocka_unit_test_teardown(test_booted_one_cpu, cleanup),
        cmocka_unit_test_teardown(test_built_without_smp, cleanup),
        cmocka_unit_test_teardown(test_guest_and_vm, cleanup),
        cmocka_unit_test_teardown(test_kernel_json, cleanup),
        cmocka_unit_test_teardown(test_kimage, cleanup),
        cmocka_unit_test_teardown(test_modules, cleanup),
        cmocka_unit_test(test_plan),
        cmocka_unit_test_teardown(test_page_sentences, cleanup),
        cmocka_unit_test_teardown(test_compare_kernel_dirs, cleanup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
