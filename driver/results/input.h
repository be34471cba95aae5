/*
 * input.h - the one way plot, compare and the results reader open a file
 * they were handed: a regular file of sane size, never a FIFO, device or
 * anything that could block or feed without end.
 */
#ifndef DBSCALE_INPUT_H
#define DBSCALE_INPUT_H

#include <stdio.h>

/* The largest results input read (results.csv, micro.csv, a TSV, meta.json). */
#define RESULTS_INPUT_MAX (256LL << 20)

/* Open path for reading: NULL with "PATH: reason" in err when it cannot be
 * opened, is not a regular file (checked on the open descriptor, and opened
 * non-blocking so a FIFO cannot hang the open) or is over RESULTS_INPUT_MAX. */
FILE *results_input_open(const char *path, char *err, size_t errlen);

/* A JSON object file (meta.json, kernel.json, kernels.json) read through
 * results_input_open: the object (json_decref it), or NULL with
 * "PATH:LINE: reason" or "PATH: not a JSON object" in err. */
typedef struct json_t json_t;
json_t *results_input_json(const char *path, char *err, size_t errlen);

#endif
