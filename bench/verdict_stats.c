/*
 * verdict_stats.c - what the verdict statistics cost over a synthetic study:
 * variants A and B x CPU counts x thread counts x repeats, three figures a
 * point (TPS, a latency percentile, CPU per transaction). Times, apart: the
 * per-point effects, BH over every point and figure, the classes, the
 * moderation per figure, the curve bootstrap (peak, knee, USL, efficiency)
 * of every (variant, CPU count) curve, and the peak ratio B/A per CPU count.
 * Built and run by bench/verdict_stats.sh; prints wall and CPU seconds.
 * usage: verdict_stats CPUS THREADS REPEATS BOOT_REPS
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "stats/boot.h"
#include "stats/classify.h"
#include "stats/curveboot.h"
#include "stats/effect.h"
#include "stats/fdr.h"
#include "stats/moderate.h"
#include "stats/prng.h"

enum { FIGS = 3 };

static double now(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct lap {
    double wall, cpu;
};

static struct lap lap_start(void)
{
    return (struct lap){now(CLOCK_MONOTONIC), now(CLOCK_PROCESS_CPUTIME_ID)};
}

static void lap_print(const char *what, struct lap *l, struct lap *total)
{
    double w = now(CLOCK_MONOTONIC) - l->wall, c = now(CLOCK_PROCESS_CPUTIME_ID) - l->cpu;
    printf("  %-34s %8.3f s wall %8.3f s cpu\n", what, w, c);
    total->wall += w, total->cpu += c;
    *l = lap_start();
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s CPUS THREADS REPEATS BOOT_REPS\n", argv[0]);
        return 2;
    }
    size_t C = strtoul(argv[1], NULL, 10), T = strtoul(argv[2], NULL, 10);
    size_t R = strtoul(argv[3], NULL, 10), B = strtoul(argv[4], NULL, 10);
    if (!C || !T || R < 2 || !B) {
        fprintf(stderr, "verdict_stats: CPUS, THREADS, BOOT_REPS >= 1, REPEATS >= 2\n");
        return 2;
    }
    size_t P = C * T; /* compared points */
    /* x[((v * C + c) * T + t) * FIGS + f][r] */
    double *x = malloc(2 * P * FIGS * R * sizeof *x), *thr = malloc(T * sizeof *thr);
    struct stats_effect *e = malloc(P * FIGS * sizeof *e);
    double *p = malloc(P * FIGS * sizeof *p), *q = malloc(P * FIGS * sizeof *q);
    if (!x || !thr || !e || !p || !q)
        return 1;
    struct stats_rng rng;
    stats_rng_seed(&rng, 1);
    for (size_t t = 0; t < T; t++)
        thr[t] = (double)(t + 1);
    for (size_t v = 0; v < 2; v++)
        for (size_t c = 0; c < C; c++)
            for (size_t t = 0; t < T; t++) {
                double n = thr[t], sigma = 0.02, kappa = 0.0005 / (double)(c + 1);
                double tps = 1000 * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
                double fig[FIGS] = {tps * (v && t % 7 == 0 ? 1.1 : 1), n / tps * 1e6, 150};
                for (size_t f = 0; f < FIGS; f++)
                    for (size_t r = 0; r < R; r++)
                        x[(((v * C + c) * T + t) * FIGS + f) * R + r] =
                            fig[f] * exp(0.03 * stats_rng_normal(&rng));
            }
    printf("study: 2 variants x %zu CPU counts x %zu thread counts x %zu repeats x %d figures "
           "= %zu values; %zu points compared, %zu curves bootstrapped %zu times\n",
           C, T, R, FIGS, 2 * P * FIGS * R, P * FIGS, 2 * C, B);
    struct lap l = lap_start(), total = {0, 0};
    for (size_t i = 0; i < P; i++)
        for (size_t f = 0; f < FIGS; f++) {
            const double *a = &x[(i * FIGS + f) * R], *b = &x[((P + i) * FIGS + f) * R];
            stats_effect(a, R, b, R, NULL, &e[i * FIGS + f]);
            p[i * FIGS + f] = e[i * FIGS + f].p;
        }
    lap_print("effects (Welch on the logs)", &l, &total);
    stats_bh(p, P * FIGS, q);
    lap_print("Benjamini-Hochberg, all figures", &l, &total);
    size_t cls[4] = {0};
    for (size_t i = 0; i < P * FIGS; i++) {
        struct stats_class_opt o = {.dir = i % FIGS ? STATS_LOWER_BETTER : STATS_HIGHER_BETTER};
        struct stats_verdict v;
        stats_classify(&e[i], q[i], &o, &v);
        cls[v.cls]++;
    }
    lap_print("classes", &l, &total);
    /* Moderation per figure: gather, moderate, scatter back. */
    struct stats_effect *fam = malloc(P * sizeof *fam);
    for (size_t f = 0; f < FIGS && fam; f++) {
        struct stats_moderation m;
        for (size_t i = 0; i < P; i++)
            fam[i] = e[i * FIGS + f];
        stats_moderate(fam, P, 0, &m);
        for (size_t i = 0; i < P; i++)
            e[i * FIGS + f] = fam[i];
    }
    free(fam);
    lap_print("moderation per figure", &l, &total);

    const double **rows = malloc(T * sizeof *rows);
    size_t *nx = malloc(T * sizeof *nx);
    double width = 0;
    for (size_t v = 0; v < 2; v++)
        for (size_t c = 0; c < C; c++) {
            for (size_t t = 0; t < T; t++) {
                rows[t] = &x[(((v * C + c) * T + t) * FIGS) * R];
                nx[t] = R;
            }
            struct stats_curve cv = {.k = T, .n = thr, .x = rows, .nx = nx, .cpus = (int)c + 1};
            struct stats_boot_opt o = {.reps = B, .seed = v * C + c};
            struct stats_curve_ci ci;
            stats_curve_boot(&cv, &o, &ci, NULL, NULL);
            width += (ci.peak.hi - ci.peak.lo) / ci.peak.est;
        }
    lap_print("curve bootstrap (peak, knee, USL)", &l, &total);
    const double **rb = malloc(T * sizeof *rb);
    for (size_t c = 0; c < C; c++) {
        for (size_t t = 0; t < T; t++) {
            rows[t] = &x[((c * T + t) * FIGS) * R];
            rb[t] = &x[(((C + c) * T + t) * FIGS) * R];
            nx[t] = R;
        }
        struct stats_curve a = {.k = T, .n = thr, .x = rows, .nx = nx};
        struct stats_curve b = {.k = T, .n = thr, .x = rb, .nx = nx};
        struct stats_boot_opt o = {.reps = B, .seed = c};
        struct stats_interval ci;
        stats_peak_ratio_boot(&a, &b, &o, &ci);
    }
    lap_print("peak ratio B/A per CPU count", &l, &total);
    printf("  %-34s %8.3f s wall %8.3f s cpu\n", "total", total.wall, total.cpu);
    printf("  (classes: %zu same, %zu better, %zu worse, %zu inconclusive; mean peak CI width "
           "%.2f%%)\n",
           cls[STATS_SAME], cls[STATS_BETTER], cls[STATS_WORSE], cls[STATS_INCONCLUSIVE],
           100 * width / (double)(2 * C));
    free(rb);
    free(nx);
    free(rows);
    free(q);
    free(p);
    free(e);
    free(thr);
    free(x);
    return 0;
}
