/*
 * test_kpage.c - the kernels page as a kernel developer reads it, on
 * synthetic studies with known answers: boots are the unit of its marks and
 * sentences (two boots of three tight repeats are two values a side, not
 * six), three disagreeing points are "not established" with their interval,
 * a 27th variant is left out in words, a study's host facts come from its
 * kernels.json even where a guest's kernel.json lacks them, and kernel
 * tests are compared at the same tasks on each kernel's whole machine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis/ktable.h"
#include "analysis/kvariants.h"
#include "analysis/kverdict.h"
#include "machine/kernelinfo.h"
#include "analysis/verdict.h"
#include "page/page.h"
#include "results/kerneljson.h"
#include "results/studydir.h"
#include "stats/stats.h"

static char root[256];

static void put(const char *rel, const char *text)
{
    char path[600], cmd[700];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/dbscale-kpage-test.%d", (int)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", root, root);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* A guest's facts: an SMP kernel on 2 CPUs, or one booted with one. */
static void facts(struct kernel_facts *f, int up)
{
    memset(f, 0, sizeof *f);
    snprintf(f->release, sizeof f->release, "6.1.0-test");
    snprintf(f->version, sizeof f->version, "#1 SMP x");
    f->config_smp = 1;
    snprintf(f->smp_from, sizeof f->smp_from, "version string");
    snprintf(f->possible, sizeof f->possible, up ? "0" : "0-1");
    snprintf(f->present, sizeof f->present, up ? "0" : "0-1");
    snprintf(f->online, sizeof f->online, up ? "0" : "0-1");
    f->npossible = f->npresent = f->nonline = up ? 1 : 2;
    snprintf(f->boot, sizeof f->boot, up ? "booted" : "smp");
    snprintf(f->boot_why, sizeof f->boot_why, up ? "nr_cpus=1" : "");
    snprintf(f->cmdline, sizeof f->cmdline, up ? "console=ttyS0 nr_cpus=1" : "console=ttyS0");
    snprintf(f->virt, sizeof f->virt, "none");
}

/* A variant's directory: kernel.json and results.csv rows (with boots). */
static void variant(const char *name, int up, const char *rows)
{
    char rel[300], csv[8192], dir[600], err[600];
    snprintf(rel, sizeof rel, "%s/results.csv", name);
    snprintf(csv, sizeof csv, "engine,workload,variant,cpus,threads,repeat,tps,boot\n%s", rows);
    put(rel, csv);
    struct kernel_facts f;
    facts(&f, up);
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    assert_int_equal(kernel_json_write(dir, &f, err, sizeof err), 0);
}

/* The page over the given directories (under root), rendered whole. */
static char *page_of(const char *const *names, size_t n)
{
    char **paths = calloc(n, sizeof *paths);
    for (size_t i = 0; i < n; i++) {
        paths[i] = malloc(600);
        snprintf(paths[i], 600, "%s/%s", root, names[i]);
    }
    struct curves_log log = {0};
    struct curves cv = {.log = &log};
    assert_int_equal(page_load(&cv, paths, n), 0);
    struct sbuf b = {0};
    struct verdict vd;
    verdict_build(&cv, NULL, &vd); /* the page renders the verdict's kernels part */
    page_render(&cv, &vd, &b);
    verdict_free(&vd);
    curves_free(&cv);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    if (getenv("KDEBUG"))
        fprintf(stderr, "%s\n", strstr(b.s, "id=\"kernels\"") ? strstr(b.s, "id=\"kernels\"") : "");
    return b.s;
}

/* The SMP sentences of a page, a copy (free it). */
static char *sentences_of(const char *html)
{
    const char *a = strstr(html, "id=\"smp-sentences\"");
    assert_non_null(a);
    const char *e = strstr(a, "</ul>");
    assert_non_null(e);
    return strndup(a, (size_t)(e - a));
}

/* A study record: two variants, two boots each, run r1 then r2. */
static const char study2[] =
    "{\"guest\": {\"accel\": \"tcg\", \"vcpus\": 2, \"mem_mb\": 1024, \"pinned\": true,"
    " \"pinning\": \"0:0,1:1\", \"housekeeping\": \"2\","
    " \"topology\": {\"sockets\": 1, \"cores\": 2, \"threads\": 1, \"nodes\": 1},"
    " \"share\": \"mapped-xattr\"},"
    " \"kernels\": [{\"label\": \"k\", \"image\": \"/boot/vmlinuz-k\", \"sha256\":"
    " \"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\","
    " \"release\": \"6.1.0-test\", \"config_smp\": 1}],"
    " \"boots\": [{\"label\": \"smp\", \"params\": \"\"}, {\"label\": \"up\", \"params\":"
    " \"nr_cpus=1\"}],"
    " \"variants\": [\"k.smp\", \"k.up\"],"
    " \"runs\": ["
    "  {\"id\": \"k.smp.r1\", \"variant\": \"k.smp\", \"kernel\": \"k\", \"boot\": \"smp\","
    "   \"repeat\": 1, \"status\": \"ok\", \"boot_id\": \"aaaa-1\", \"pinned\": true},"
    "  {\"id\": \"k.up.r1\", \"variant\": \"k.up\", \"kernel\": \"k\", \"boot\": \"up\","
    "   \"repeat\": 1, \"status\": \"ok\", \"boot_id\": \"bbbb-1\", \"pinned\": true},"
    "  {\"id\": \"k.smp.r2\", \"variant\": \"k.smp\", \"kernel\": \"k\", \"boot\": \"smp\","
    "   \"repeat\": 2, \"status\": \"ok\", \"boot_id\": \"aaaa-2\", \"pinned\": true},"
    "  {\"id\": \"k.up.r2\", \"variant\": \"k.up\", \"kernel\": \"k\", \"boot\": \"up\","
    "   \"repeat\": 2, \"status\": \"ok\", \"boot_id\": \"bbbb-2\", \"pinned\": true}]}\n";

/* 2 variants x 2 boots x 3 repeats: the boots differ, the repeats within a
 * boot are tight. Over the six repeats a side the difference would look
 * certain; over the two boots a side it is not proven. */
static void test_boots_are_the_unit(void **state)
{
    (void)state;
    variant("k.smp", 0,
            "pgsql,ps,smp-k1,1,1,1,100.0,aaaa-1\npgsql,ps,smp-k1,1,1,2,100.1,aaaa-1\n"
            "pgsql,ps,smp-k1,1,1,3,99.9,aaaa-1\npgsql,ps,smp-k1,1,1,1,104.0,aaaa-2\n"
            "pgsql,ps,smp-k1,1,1,2,104.1,aaaa-2\npgsql,ps,smp-k1,1,1,3,103.9,aaaa-2\n");
    variant("k.up", 1,
            "pgsql,ps,up,1,1,1,110.0,bbbb-1\npgsql,ps,up,1,1,2,110.1,bbbb-1\n"
            "pgsql,ps,up,1,1,3,109.9,bbbb-1\npgsql,ps,up,1,1,1,112.0,bbbb-2\n"
            "pgsql,ps,up,1,1,2,112.1,bbbb-2\npgsql,ps,up,1,1,3,111.9,bbbb-2\n");
    put("kernels.json", study2);
    /* the fixture discriminates: the six repeats a side would be "significant" */
    double a6[] = {100, 100.1, 99.9, 104, 104.1, 103.9},
           b6[] = {110, 110.1, 109.9, 112, 112.1, 111.9};
    struct stats_welch w;
    assert_int_equal(stats_welch(a6, 6, b6, 6, &w), 0);
    assert_true(w.p < 0.001);
    /* the analysis: two boots a side, named from the study's runs */
    char *paths[2], p0[600], p1[600];
    snprintf(p0, sizeof p0, "%s/k.smp", root);
    snprintf(p1, sizeof p1, "%s/k.up", root);
    paths[0] = p0, paths[1] = p1;
    struct curves_log log = {0};
    struct curves cv = {.log = &log};
    assert_int_equal(page_load(&cv, paths, 2), 0);
    struct kvariants kv;
    kvariants_load(&cv, &kv);
    assert_non_null(kv.v[0].host);
    assert_int_equal((int)kv.v[0].nboots, 2);
    assert_string_equal(kv.v[0].boots[0].name, "r1");
    assert_string_equal(kv.v[1].boots[1].name, "r2");
    struct ktable db, kt;
    ktable_build(&cv, &kv, KTABLE_DB, &db);
    ktable_build(&cv, &kv, KTABLE_KERNEL, &kt);
    assert_int_equal((int)db.n, 1);
    assert_true(fabs(db.p[0].boot[0][0] - 100.0) < 1e-9); /* a boot's median of its repeats */
    assert_true(fabs(db.p[0].boot[0][1] - 104.0) < 1e-9);
    assert_true(fabs(db.p[0].med[0] - 102.0) < 1e-9); /* the median of the boots' */
    const struct ktable_cell *c = ktable_cell(&db, 0, 0, 1);
    assert_int_equal((int)c->na, 2);
    assert_int_equal((int)c->nb, 2);
    assert_int_equal((int)c->rel, -9); /* floor((102 / 111 - 1) x 100) */
    assert_true(c->p > 0.05);          /* Welch over 2 and 2 boots */
    assert_int_equal(c->mark, KTABLE_SAME);
    struct kverdict v;
    kverdict_build(&kv, &db, &kt, &v);
    assert_int_equal((int)v.n, 2);
    assert_int_equal(v.s[0].kind, KVERDICT_COST);
    assert_int_equal(v.s[0].unit, KVERDICT_BOOTS);
    assert_int_equal((int)v.s[0].pooled.m, 2);
    assert_string_equal(v.s[0].pairs, "r1-r1, r2-r2");
    /* r1: 100/110, r2: 104/112: geometric mean -8.1%, t(1) interval spans 0 */
    assert_true(fabs(v.s[0].pooled.est - (sqrt(100.0 / 110 * 104.0 / 112) - 1)) < 1e-9);
    assert_int_equal(v.s[0].cls, KVERDICT_NOT_ESTABLISHED);
    ktable_free(&db);
    ktable_free(&kt);
    kvariants_free(&kv);
    curves_free(&cv);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    /* the page says the same */
    const char *names[] = {"k.smp", "k.up"};
    char *html = page_of(names, 2);
    assert_non_null(strstr(html, "title=\"Welch over 2 and 2 boots, q="));
    assert_non_null(strstr(html, ">-9~</td>"));
    assert_non_null(strstr(html, "SMP on one CPU against UP: not established (-8%, 95% interval"));
    assert_non_null(strstr(html, "each boot pair one unit (r1-r1, r2-r2; 2 and 2 boots)"));
    assert_non_null(strstr(html, "<td>r1, r2</td>"));
    char *st = sentences_of(html);
    assert_null(strstr(st, "CPU costs"));
    free(st);
    free(html);
    /* boots that agree: the same change, established, with its interval */
    variant("k.up", 1,
            "pgsql,ps,up,1,1,1,110.0,bbbb-1\npgsql,ps,up,1,1,2,110.1,bbbb-1\n"
            "pgsql,ps,up,1,1,1,114.0,bbbb-2\npgsql,ps,up,1,1,2,114.1,bbbb-2\n");
    html = page_of(names, 2);
    assert_non_null(strstr(html, "SMP on one CPU costs 9% (-9%, 95% interval -11% to -7%)"));
    free(html);
}

/* One boot a side, three points at -11%, +43%, +35%: the points are the
 * unit, their disagreement the spread, and the sentence says so. */
static void test_not_established(void **state)
{
    (void)state;
    variant("smp", 0,
            "pgsql,ps,smp-k1,1,1,1,89,s1\npgsql,ps,smp-k1,1,2,1,143,s1\n"
            "pgsql,ps,smp-k1,1,4,1,135,s1\n");
    variant("up", 1,
            "pgsql,ps,up,1,1,1,100,u1\npgsql,ps,up,1,2,1,100,u1\npgsql,ps,up,1,4,1,100,u1\n");
    const char *names[] = {"smp", "up"};
    char *html = page_of(names, 2);
    assert_non_null(strstr(html, "SMP on one CPU against UP: not established (+20%, 95% interval "
                                 "-37% to +128%, which spans 0)"));
    assert_non_null(strstr(html, "over the 3 database points both measured on one CPU; each "
                                 "point one unit (fewer than two boot pairs: 1 and 1 boot)"));
    assert_non_null(strstr(html, "the points ran from -11% to +43%"));
    assert_non_null(strstr(html, "data-class=\"not-established\""));
    char *st = sentences_of(html);
    assert_null(strstr(st, "CPU gains"));
    free(st);
    /* a loose directory's boots are named by their boot_id */
    assert_non_null(strstr(html, "<td>s1</td>"));
    free(html);
}

/* 27 variants: the page compares 26 and says which one it left out. */
static void test_27_variants(void **state)
{
    (void)state;
    struct sbuf list = {0};
    const char *names[27];
    char name[27][8];
    for (int i = 0; i < 27; i++) {
        snprintf(name[i], sizeof name[i], "v%02d", i + 1);
        names[i] = name[i];
        variant(name[i], i % 2, "pgsql,ps,x,1,1,1,100,b\n");
        sbuf_printf(&list, "%s\"%s\"", i ? ", " : "", name[i]);
    }
    char json[1024];
    snprintf(json, sizeof json, "{\"variants\": [%s]}\n", list.s);
    sbuf_free(&list);
    put("kernels.json", json);
    char **dirs, err[600];
    size_t n, beyond;
    assert_int_equal(studydir_variants(root, &dirs, &n, &beyond, err, sizeof err), 0);
    assert_int_equal((int)n, 26);
    assert_int_equal((int)beyond, 1);
    struct curves_log log = {0};
    struct curves cv = {.log = &log};
    assert_int_equal(page_load(&cv, dirs, n), 0);
    struct sbuf b = {0};
    struct verdict vd;
    verdict_build(&cv, NULL, &vd); /* the page renders the verdict's kernels part */
    page_render(&cv, &vd, &b);
    verdict_free(&vd);
    assert_non_null(strstr(b.s, "id=\"kernels-left-out\">1 variant left out"));
    assert_non_null(strstr(b.s, "has 27 variants with results"));
    assert_non_null(strstr(b.s, "the 1 after v26"));
    sbuf_free(&b);
    curves_free(&cv);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    studydir_free(dirs, n);
    /* 27 loose directories: the same, naming it */
    char path[600];
    snprintf(path, sizeof path, "%s/kernels.json", root);
    assert_int_equal(unlink(path), 0);
    char *html = page_of(names, 27);
    assert_non_null(strstr(html, "1 variant left out"));
    assert_non_null(strstr(html, "27 directories were given"));
    assert_non_null(strstr(html, "not compared: v27"));
    free(html);
}

/* A study's machine, pinning and image come from kernels.json: here the
 * guests' kernel.json say "none" and hold no pinning (as many vCPUs'
 * guests do). Loose, the same directories claim nothing about pinning. */
static void test_host_facts(void **state)
{
    (void)state;
    variant("k.smp", 0, "pgsql,ps,smp-k1,1,1,1,100,aaaa-1\n");
    variant("k.up", 1, "pgsql,ps,up,1,1,1,110,bbbb-1\n");
    put("kernels.json", study2);
    const char *names[] = {"k.smp", "k.up"};
    char *html = page_of(names, 2);
    assert_non_null(strstr(html, "id=\"emulated\"")); /* the host's accel: tcg */
    assert_non_null(strstr(html, "<td>qemu, TCG (emulated)</td>"));
    assert_non_null(strstr(html, "<td>0:0,1:1</td>"));            /* the host's pinning */
    assert_non_null(strstr(html, "<small>0123456789ab</small>")); /* the host's sha256 */
    assert_non_null(strstr(html, "housekeeping CPUs (qemu's own threads) 2"));
    assert_non_null(strstr(html, "topology 1 socket x 2 cores x 1 thread, 1 NUMA node"));
    assert_non_null(strstr(html, "the study's kernels.json, the host's own record, for A, B"));
    assert_null(strstr(html, "id=\"unpinned\""));
    free(html);
    /* a boot the study marked failed is listed so */
    const char *ok = strstr(strstr(study2, "k.up.r2"), "\"ok\"");
    char f2[sizeof study2 + 8];
    snprintf(f2, sizeof f2, "%.*s\"failed\"%s", (int)(ok - study2), study2, ok + 4);
    put("kernels.json", f2);
    html = page_of(names, 2);
    assert_non_null(strstr(html, "<td>r1, r2 (failed)</td>"));
    free(html);
    /* the host says it could not pin: said, once, from its word */
    char *j = strdup(study2);
    char *at = strstr(j, "\"pinned\": true");
    memcpy(at, "\"pinned\":    0", 14);
    put("kernels.json", j);
    free(j);
    html = page_of(names, 2);
    assert_non_null(strstr(html, "id=\"unpinned\""));
    free(html);
    /* loose directories of guests (kvm, no pinning recorded): no claim */
    char path[600], err[600];
    snprintf(path, sizeof path, "%s/kernels.json", root);
    assert_int_equal(unlink(path), 0);
    struct kernel_facts f;
    facts(&f, 0);
    snprintf(f.virt, sizeof f.virt, "kvm");
    snprintf(path, sizeof path, "%s/k.smp", root);
    assert_int_equal(kernel_json_write(path, &f, err, sizeof err), 0);
    html = page_of(names, 2);
    assert_null(strstr(html, "id=\"unpinned\""));
    assert_null(strstr(html, "<td>not pinned</td>"));
    assert_non_null(strstr(html, "<td>not recorded</td>"));
    assert_non_null(strstr(html, "kernel.json for A, B"));
    free(html);
}

/* Kernel tests: compared at the same tasks on each kernel's whole machine
 * (SMP's 2 CPUs against UP's one, as the reference table does), and the
 * SMP cost taken where the SMP kernel was held to one CPU. */
static void test_kernel_tests(void **state)
{
    (void)state;
    const char *hdr = "test,mode,tasks,cpus,ops_per_s,min,max,cv,samples,fs_type,error,variant,"
                      "idle,boot\n";
    char csv[1024], dir[600], err[600];
    struct kernel_facts f;
    snprintf(csv, sizeof csv, "%sgetppid1,p,1,2,1000,,,,,,,,,s1\ngetppid1,p,1,1,900,,,,,,,,,s1\n",
             hdr);
    put("smp/micro.csv", csv);
    facts(&f, 0);
    snprintf(dir, sizeof dir, "%s/smp", root);
    assert_int_equal(kernel_json_write(dir, &f, err, sizeof err), 0);
    snprintf(csv, sizeof csv, "%sgetppid1,p,1,1,1000,,,,,,,,,u1\n", hdr);
    put("up/micro.csv", csv);
    facts(&f, 1);
    snprintf(dir, sizeof dir, "%s/up", root);
    assert_int_equal(kernel_json_write(dir, &f, err, sizeof err), 0);
    const char *names[] = {"smp", "up"};
    char *html = page_of(names, 2);
    assert_non_null(strstr(html, "<td>getppid1</td><td>p</td><td>1</td><td>1</td>"
                                 "<td title=\"1 boot\">900</td><td>N/A</td>"));
    assert_non_null(strstr(html, "<td>getppid1</td><td>p</td><td>all</td><td>1</td>"
                                 "<td title=\"1 boot\">1000</td><td title=\"1 boot\">1000</td>"));
    assert_non_null(strstr(html, "SMP on one CPU against UP: inconclusive (-10%, no interval"));
    assert_non_null(strstr(html, "SMP kernel, 1 task held to 1 CPU)"));
    free(html);
    /* never held to one CPU: said so, and named for what it measured */
    snprintf(csv, sizeof csv, "%sgetppid1,p,1,2,1000,,,,,,,,,s1\n", hdr);
    put("smp/micro.csv", csv);
    html = page_of(names, 2);
    assert_non_null(strstr(html, "SMP at one task against UP: inconclusive (+0%"));
    assert_non_null(strstr(html, "1 task on all its CPUs, never held to one"));
    free(html);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_boots_are_the_unit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_established, setup, teardown),
        cmocka_unit_test_setup_teardown(test_27_variants, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_facts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_tests, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
