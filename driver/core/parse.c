/*
 * parse.c - reading one value out of text: an integer, a number, a yes/no,
 * a list of counts with ranges. Strict: the whole text must be the value
 * (no trailing junk, no overflow, nothing non-finite), so the option table
 * and the verbs can trust what they get and say exactly which text was bad.
 */
#include "core/parse.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int parse_int(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

int parse_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int parse_bool(const char *s, int *out)
{
    static const char *on[] = {"on", "true", "yes", "1"}, *off[] = {"off", "false", "no", "0"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(s, on[i]) == 0)
            return *out = 1, 0;
        if (strcasecmp(s, off[i]) == 0)
            return *out = 0, 0;
    }
    return -1;
}

int parse_int_list(const char *s, long long *out, int max)
{
    int n = 0;
    const char *p = s;
    if (!*s)
        return -1;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t l = comma ? (size_t)(comma - p) : strlen(p);
        char item[64];
        if (l == 0 || l >= sizeof item)
            return -1;
        memcpy(item, p, l);
        item[l] = '\0';
        char *dash = strchr(item + 1, '-');
        if (!dash) {
            long long v;
            if (parse_int(item, &v) < 0 || n >= max)
                return -1;
            out[n++] = v;
        } else {
            *dash = '\0';
            char *step = strchr(dash + 1, ':');
            long long lo, hi, st = 1;
            int mul = 0;
            if (step) {
                *step++ = '\0';
                if (*step == 'x' || *step == '*')
                    mul = 1, step++;
                else if (*step == '+')
                    step++;
                if (parse_int(step, &st) < 0 || st < (mul ? 2 : 1))
                    return -1;
            }
            if (parse_int(item, &lo) < 0 || parse_int(dash + 1, &hi) < 0 || lo > hi || lo < 0 ||
                (mul && lo == 0))
                return -1;
            for (long long v = lo; v <= hi;) {
                if (n >= max)
                    return -1;
                out[n++] = v;
                /* stop before the next step would overflow */
                if (mul ? v > hi / st : v > hi - st)
                    break;
                v = mul ? v * st : v + st;
            }
        }
        p += l + (comma ? 1 : 0);
        if (comma && !*p)
            return -1;
    }
    return n;
}

int parse_size(const char *s, long long *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno)
        return -1;
    static const char units[] = "kmgt";
    if (*end) {
        const char *u = strchr(units, *end | 0x20);
        if (!u || end[1] != '\0')
            return -1;
        for (long n = u - units + 1; n > 0; n--) {
            if (v > LLONG_MAX / 1024)
                return -1;
            v *= 1024;
        }
    }
    *out = v;
    return 0;
}

int parse_list_has_empty(const char *s)
{
    for (const char *p = s;; p++) {
        size_t n = strcspn(p, ",");
        if (strspn(p, " \t") >= n) /* nothing but blanks before the comma or the end */
            return 1;
        p += n;
        if (!*p)
            return 0;
    }
}
