/*
 * level_result.c - the helpers of a level's result (level_result.h): an
 * error code counted, the client's CPU over a window, why it was
 * disturbed, the result freed.
 */
#include "client/level_result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

void err_count_add(struct err_count *codes, int *ncodes, const char *code, uint64_t n)
{
    int i = 0;
    while (i < *ncodes && strcmp(codes[i].code, code) != 0)
        i++;
    if (i == *ncodes) {
        if (*ncodes == WORKER_MAX_CODES)
            return;
        snprintf(codes[i].code, sizeof codes[i].code, "%s", code);
        codes[i].n = 0;
        (*ncodes)++;
    }
    codes[i].n += n;
}

void level_result_free(struct level_result *r)
{
    free(r->lat);
    r->lat = NULL;
}

static double tv_s(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

void level_result_cpu(struct level_result *out, const struct rusage *a, const struct rusage *b)
{
    out->client_user_s = tv_s(&b->ru_utime) - tv_s(&a->ru_utime);
    out->client_sys_s = tv_s(&b->ru_stime) - tv_s(&a->ru_stime);
    out->client_csw = (double)(b->ru_nvcsw - a->ru_nvcsw + b->ru_nivcsw - a->ru_nivcsw);
}

void level_result_disturbance(struct level_result *out, double stall_s)
{
    size_t n = 0, len = sizeof out->disturbed_why;
    char *w = out->disturbed_why;
    w[0] = '\0';
#define WHY(...)                                                                                   \
    do {                                                                                           \
        if (n < len)                                                                               \
            n += (size_t)snprintf(w + n, len - n, "%s", n ? "; " : "");                            \
        if (n < len)                                                                               \
            n += (size_t)snprintf(w + n, len - n, __VA_ARGS__);                                    \
    } while (0)
    if (stall_s > 0)
        WHY("stall %.1fs", stall_s);
    if (out->reconnects)
        WHY("%llu reconnects", (unsigned long long)out->reconnects);
    if (out->lost)
        WHY("%llu lost", (unsigned long long)out->lost);
    if (out->unfinished)
        WHY("%llu unfinished", (unsigned long long)out->unfinished);
    if (out->ramp_missing)
        WHY("%d connection%s without a first transaction after %.1fs", out->ramp_missing,
            out->ramp_missing == 1 ? "" : "s", out->ramp_s);
#undef WHY
    out->disturbed = w[0] != '\0';
}
