/*
 * lapi_hist.c - sysbench's bounded histograms for scripts
 * (sysbench.histogram.new, declared by lapi_sbdecl.h): a fixed number of
 * buckets spread logarithmically over [range_min, range_max], values
 * outside it counted in the end buckets, printed in sysbench's layout (the
 * one --histogram prints).
 *
 * The one idea: bucket i stands for the value range_min * (range_max /
 * range_min)^(i / (size - 1)), and a value goes to the nearest bucket in
 * log space, as sysbench's do, so a script's histogram reads the same under
 * both. Updates are relaxed atomics: a histogram may be shared by the
 * states of one script's connections through a C pointer, as sysbench's can.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct histogram {
    size_t size;
    double log_min, per_log; /* bucket = (log(v) - log_min) * per_log, rounded */
    double lo, hi;
    uint64_t *count;
};

__attribute__((visibility("default"))) struct histogram *
sb_histogram_new(size_t size, double range_min, double range_max)
{
    if (size < 2 || size > (1u << 24) || !(range_min > 0) || !(range_max > range_min) ||
        !isfinite(range_max))
        return NULL;
    struct histogram *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->count = calloc(size, sizeof *h->count);
    if (!h->count) {
        free(h);
        return NULL;
    }
    h->size = size;
    h->lo = range_min;
    h->hi = range_max;
    h->log_min = log(range_min);
    h->per_log = (double)(size - 1) / (log(range_max) - h->log_min);
    return h;
}

__attribute__((visibility("default"))) void sb_histogram_delete(struct histogram *h)
{
    if (h) {
        free(h->count);
        free(h);
    }
}

__attribute__((visibility("default"))) void sb_histogram_update(struct histogram *h, double v)
{
    if (!h || isnan(v))
        return;
    size_t i = 0;
    if (v >= h->hi)
        i = h->size - 1;
    else if (v > h->lo) {
        double x = floor((log(v) - h->log_min) * h->per_log + 0.5);
        i = x < 0 ? 0 : x >= (double)h->size ? h->size - 1 : (size_t)x;
    }
    __atomic_fetch_add(&h->count[i], 1, __ATOMIC_RELAXED);
}

/* The value bucket i stands for. */
static double bucket_value(const struct histogram *h, size_t i)
{
    return exp((double)i / h->per_log + h->log_min);
}

__attribute__((visibility("default"))) void sb_histogram_print(struct histogram *h)
{
    if (!h)
        return;
    uint64_t top = 0;
    for (size_t i = 0; i < h->size; i++) {
        uint64_t c = __atomic_load_n(&h->count[i], __ATOMIC_RELAXED);
        top = c > top ? c : top;
    }
    static const char stars[] = "****************************************";
    printf("       value  ------------- distribution ------------- count\n");
    for (size_t i = 0; i < h->size && top; i++) {
        uint64_t c = __atomic_load_n(&h->count[i], __ATOMIC_RELAXED);
        if (!c)
            continue;
        int w = (int)floor((double)c * 40.0 / (double)top + 0.5);
        printf("%12.3f |%-40.*s %llu\n", bucket_value(h, i), w, stars, (unsigned long long)c);
    }
    fflush(stdout);
}
