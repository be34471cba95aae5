/*
 * studydir.h - a `dbscale kernels` study directory read back: its variants'
 * results directories.
 */
#ifndef DBSCALE_STUDYDIR_H
#define DBSCALE_STUDYDIR_H

#include <stddef.h>

/* The most variants a study's page letters (A..Z); later ones are not read,
 * and studydir_variants says how many there were. */
#define STUDYDIR_MAX 26

/* A kernels study directory (it has kernels.json, read through
 * studyjson_read, so every variant name is checked): its variants'
 * directories that hold results, in the study's order, at most
 * STUDYDIR_MAX, malloc'd (free with studydir_free); *beyond (when not NULL)
 * the variants holding results that came after those and were not read.
 * 0 (also when dir is no study: *n = 0), or -1 with err when its
 * kernels.json cannot be read or names a variant no study makes. */
int studydir_variants(const char *dir, char ***dirs, size_t *n, size_t *beyond, char *err,
                      size_t errlen);
void studydir_free(char **dirs, size_t n);

#endif
