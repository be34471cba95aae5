/*
 * csv.c - one line of CSV or TSV at a time: skip comments, split a line into
 * fields, quote a field on the way out. results.c writes and reads
 * results.csv with it, compare_load.c reads micro.csv and wide TSVs.
 *
 * The one idea: a line is split in place, each field a pointer into the line
 * with its quotes undone, so a reader maps fields by header name without
 * allocating, and writer and readers agree on the one quoting rule.
 *
 * Never guess at a malformed line: an unterminated quote is returned as an
 * error for the caller to name with file and line, never half-read.
 */
#include "core/csv.h"

#include <string.h>

ssize_t csv_getline(FILE *f, char **line, size_t *cap, int *lineno)
{
    ssize_t len;
    while ((len = getline(line, cap, f)) >= 0) {
        ++*lineno;
        while (len > 0 && ((*line)[len - 1] == '\n' || (*line)[len - 1] == '\r'))
            (*line)[--len] = '\0';
        if (len > 0 && (*line)[0] != '#')
            return len;
    }
    return -1;
}

int csv_split(char *line, char sep, char **f, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n >= max)
            return max + 1;
        char *out = p;
        f[n++] = out;
        if (sep == ',' && *p == '"') {
            p++;
            for (;;) {
                if (*p == '\0')
                    return -1;
                if (*p == '"' && p[1] == '"') {
                    *out++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *out++ = *p++;
                }
            }
            if (*p != sep && *p != '\0')
                return -1;
        } else {
            while (*p && *p != sep)
                *out++ = *p++;
        }
        int end = *p == '\0';
        *out = '\0';
        if (end)
            return n;
        p++;
    }
}

void csv_put(struct sbuf *b, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        sbuf_add(b, s, strlen(s));
        return;
    }
    sbuf_add(b, "\"", 1);
    for (; *s; s++) {
        if (*s == '"')
            sbuf_add(b, "\"", 1);
        sbuf_add(b, s, 1);
    }
    sbuf_add(b, "\"", 1);
}
