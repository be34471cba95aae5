/*
 * csv.h - reading and writing one line of CSV (or TSV) at a time, for the
 * rooms that keep tables on disk: results.csv (results.c) and the files that
 * compare and plot load (compare_load.c).
 */
#ifndef DBSCALE_CSV_H
#define DBSCALE_CSV_H

#include <stdio.h>
#include <sys/types.h>

#include "core/util.h"

/* The next line of f that is neither blank nor a '#' comment, its line end
 * ("\n", "\r\n") cut off; *lineno counts every line read. Its length, or -1
 * at the end of the file. *line and *cap are getline's. */
ssize_t csv_getline(FILE *f, char **line, size_t *cap, int *lineno);
/* Split line in place on sep into at most max fields (f needs max + 1
 * slots). With sep ',' a field may be quoted RFC 4180 style ("a,""b"""), no
 * newlines inside. The field count, max + 1 when there are more, or -1 on an
 * unterminated quote or text after a closing quote. */
int csv_split(char *line, char sep, char **f, int max);
/* Append s as one CSV field, quoted only when it holds a comma, quote or
 * line end. */
void csv_put(struct sbuf *b, const char *s);

#endif
