/*
 * parse.h - strict parsers for one value in a text (see parse.c). Each
 * returns 0 (or a count) and -1 on text that is not wholly a value.
 */
#ifndef DBSCALE_PARSE_H
#define DBSCALE_PARSE_H

int parse_int(const char *s, long long *out);
int parse_num(const char *s, double *out);
int parse_bool(const char *s, int *out);
/* A whole number >= 0 with an optional K/M/G/T suffix (either case), each
 * x1024 as sysbench's size options: "10K" = 10240. No fractions, no overflow. */
int parse_size(const char *s, long long *out);
/* Split a comma list of ints and ranges: "1,2,8", "0-3", "1-256:x2", "1-10:+3".
 * Values are >= 0 (a doubling range must start at 1 or more to grow).
 * Returns count (<= max) or -1 on a malformed list. */
int parse_int_list(const char *s, long long *out, int max);
/* 1 when a comma list of names has an empty item (",", "a,,b", "a,", " ,b"):
 * strtok would skip it, and "--baseline=," would mean no list at all. */
int parse_list_has_empty(const char *s);

#endif
