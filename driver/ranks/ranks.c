/*
 * ranks.c - the shares and the exact reduction of a run over many ranks.
 *
 * The one idea: a level result reduces exactly when every figure is a sum
 * (counters, CPU seconds, histogram buckets) or an extreme (window length,
 * min, max); fairness is pooled from each rank's count, mean and spread.
 * No figure is an average of per-rank percentiles. This file knows no MPI
 * (ranks/mpi_*.c move the parts) and never prints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranks/ranks.h"

#include "results/intervals.h"
#include "core/util.h"

long long ranks_share(long long total, int nranks, int rank)
{
    if (nranks <= 0 || rank < 0 || rank >= nranks || total <= 0)
        return 0;
    return total / nranks + (rank < total % nranks ? 1 : 0);
}

double ranks_rate_share(double rate, int nranks, int rank)
{
    if (rate <= 0 || nranks <= 0)
        return 0;
    double whole = floor(rate);
    return (double)ranks_share((long long)whole, nranks, rank) + (rate - whole) / nranks;
}

uint64_t ranks_seed(uint64_t seed, int rank)
{
    if (rank == 0)
        return seed;
    /* splitmix64 of (seed, rank): streams far apart for neighbouring ranks */
    uint64_t z = seed + 0x9e3779b97f4a7c15ull * (uint64_t)rank;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z ? z : 1;
}

int ranks_check_split(long long threads, double rate, int nranks, char *err, size_t errlen)
{
    if (threads < nranks) {
        snprintf(err, errlen,
                 "--threads=%lld over %d ranks: every rank needs at least one connection "
                 "(use fewer ranks or more threads)",
                 threads, nranks);
        return -1;
    }
    if (rate > 0 && rate < nranks) {
        snprintf(err, errlen,
                 "--rate=%g over %d ranks: every rank needs at least 1 transaction/s "
                 "(a rank with rate 0 would run unlimited)",
                 rate, nranks);
        return -1;
    }
    return 0;
}

void ranks_pack(struct rank_part *part, const struct level_result *r, int rank, const char *host,
                int status)
{
    memset(part, 0, sizeof *part);
    part->rank = rank;
    part->status = status;
    snprintf(part->host, sizeof part->host, "%s", host ? host : "");
    part->threads = r->threads;
    part->loops = r->loops;
    part->interrupted = r->interrupted;
    part->disturbed = r->disturbed;
    part->time_s = r->time_s;
    part->setup_s = r->setup_s;
    part->client_user_s = r->client_user_s;
    part->client_sys_s = r->client_sys_s;
    part->client_csw = r->client_csw;
    part->fair_events_avg = r->fair_events_avg;
    part->fair_events_sd = r->fair_events_sd;
    part->fair_time_avg = r->fair_time_avg;
    part->fair_time_sd = r->fair_time_sd;
    part->txns = r->txns;
    part->reads = r->reads;
    part->writes = r->writes;
    part->others = r->others;
    part->errors = r->errors;
    part->reconnects = r->reconnects;
    part->lost = r->lost;
    part->unfinished = r->unfinished;
    part->ncodes = r->ncodes < WORKER_MAX_CODES ? r->ncodes : WORKER_MAX_CODES;
    memcpy(part->codes, r->codes, sizeof part->codes);
    snprintf(part->disturbed_why, sizeof part->disturbed_why, "%s", r->disturbed_why);
    snprintf(part->fatal_msg, sizeof part->fatal_msg, "%s", r->fatal_msg);
    if (r->lat) {
        part->hcount = hist_count(r->lat);
        part->hsum = atomic_load_explicit(&r->lat->sum, memory_order_relaxed);
        part->hmin = atomic_load_explicit(&r->lat->min, memory_order_relaxed);
        part->hmax = atomic_load_explicit(&r->lat->max, memory_order_relaxed);
        for (unsigned i = 0; i < HIST_BUCKETS; i++)
            part->hb[i] = atomic_load_explicit(&r->lat->b[i], memory_order_relaxed);
    } else {
        struct hist *empty = xmalloc(sizeof *empty);
        hist_init(empty);
        part->hmin = atomic_load_explicit(&empty->min, memory_order_relaxed);
        part->hmax = atomic_load_explicit(&empty->max, memory_order_relaxed);
        free(empty);
    }
}

static void merge_codes(struct level_result *out, const struct rank_part *p)
{
    for (int i = 0; i < p->ncodes; i++) /* as the worker: the first codes seen are kept */
        err_count_add(out->codes, &out->ncodes, p->codes[i].code, p->codes[i].n);
}

int ranks_merge(struct level_result *out, const struct rank_part *parts, int n)
{
    memset(out, 0, sizeof *out);
    out->lat = xmalloc(sizeof *out->lat);
    hist_init(out->lat);
    struct hist *one = xmalloc(sizeof *one);
    double ne = 0, se = 0, se2 = 0, st = 0, st2 = 0;
    int status = 0;
    for (int k = 0; k < n; k++) {
        const struct rank_part *p = &parts[k];
        out->threads += p->threads;
        out->loops += p->loops;
        out->interrupted |= p->interrupted;
        if (p->time_s > out->time_s)
            out->time_s = p->time_s;
        if (p->setup_s > out->setup_s)
            out->setup_s = p->setup_s;
        out->client_user_s += p->client_user_s;
        out->client_sys_s += p->client_sys_s;
        out->client_csw += p->client_csw;
        out->txns += p->txns;
        out->reads += p->reads;
        out->writes += p->writes;
        out->others += p->others;
        out->errors += p->errors;
        out->reconnects += p->reconnects;
        out->lost += p->lost;
        out->unfinished += p->unfinished;
        merge_codes(out, p);
        if (p->disturbed && !out->disturbed) {
            out->disturbed = 1;
            snprintf(out->disturbed_why, sizeof out->disturbed_why, "rank %d: %s", p->rank,
                     p->disturbed_why);
        }
        if (p->status < 0 && status >= 0) {
            snprintf(out->fatal_msg, sizeof out->fatal_msg, "rank %d on %s: %s", p->rank, p->host,
                     p->fatal_msg);
            status = -1;
        } else if (p->status == 1 && status == 0) {
            status = 1;
        }
        /* pooled mean and (population) spread over every connection */
        double t = p->threads;
        ne += t;
        se += t * p->fair_events_avg;
        se2 +=
            t * (p->fair_events_sd * p->fair_events_sd + p->fair_events_avg * p->fair_events_avg);
        st += t * p->fair_time_avg;
        st2 += t * (p->fair_time_sd * p->fair_time_sd + p->fair_time_avg * p->fair_time_avg);
        hist_init(one);
        atomic_store_explicit(&one->count, p->hcount, memory_order_relaxed);
        atomic_store_explicit(&one->sum, p->hsum, memory_order_relaxed);
        atomic_store_explicit(&one->min, p->hmin, memory_order_relaxed);
        atomic_store_explicit(&one->max, p->hmax, memory_order_relaxed);
        for (unsigned i = 0; i < HIST_BUCKETS; i++)
            atomic_store_explicit(&one->b[i], p->hb[i], memory_order_relaxed);
        hist_merge(out->lat, one);
    }
    free(one);
    if (ne > 0) {
        out->fair_events_avg = se / ne;
        out->fair_events_sd = sqrt(fmax(0, se2 / ne - out->fair_events_avg * out->fair_events_avg));
        out->fair_time_avg = st / ne;
        out->fair_time_sd = sqrt(fmax(0, st2 / ne - out->fair_time_avg * out->fair_time_avg));
    }
    return status;
}

void ranks_unpack(struct level_result *out, const struct rank_part *p)
{
    ranks_merge(out, p, 1);
    out->fatal_msg[0] = '\0';
    snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", p->fatal_msg);
    snprintf(out->disturbed_why, sizeof out->disturbed_why, "%s", p->disturbed_why);
}

void ranks_merge_intervals(struct intervals *out, const struct interval_row *const *per,
                           const size_t *n, int nranks)
{
    size_t most = 0;
    for (int r = 0; r < nranks; r++)
        most = n[r] > most ? n[r] : most;
    for (size_t k = 0; k < most; k++) {
        struct interval_row m;
        int first = 1;
        memset(&m, 0, sizeof m);
        for (int r = 0; r < nranks; r++) {
            if (k >= n[r])
                continue;
            const struct interval_row *x = &per[r][k];
            if (first) {
                m = *x;
                first = 0;
                continue;
            }
            m.threads += x->threads;
            m.tps += x->tps;
            m.qps += x->qps;
            m.errors += x->errors;
            m.p95 = x->p95 > m.p95 ? x->p95 : m.p95;
        }
        intervals_add(out, &m);
    }
}
