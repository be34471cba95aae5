/*
 * kerneljson.h - kernel.json, the kernel a results directory was measured on
 * (machine/kernelinfo.h's facts): written by every verb that fills a results
 * directory (sweep, micro --out, fs --out), read by report and compare to
 * label each directory as a kernel variant. One directory holds one
 * kernel's results: a second kernel is refused, so no row's kernel is ever
 * in doubt.
 */
#ifndef DBSCALE_KERNELJSON_H
#define DBSCALE_KERNELJSON_H

#include <stddef.h>

#include "machine/kernelinfo.h"

/* Write f to DIR/kernel.json atomically. 0, or -1 with err. */
int kernel_json_write(const char *dir, const struct kernel_facts *f, char *err, size_t errlen);
/* Read DIR/kernel.json: 1 read, 0 there is none, -1 unreadable (err). */
int kernel_json_load(const char *dir, struct kernel_facts *f, char *err, size_t errlen);
/* May results of f go into DIR? 0 when DIR has no kernel.json (or an
 * unreadable one) or one naming the same kernel and boot; -2 when it names
 * another (err says which, and what to do). */
int kernel_json_check(const char *dir, const struct kernel_facts *f, char *err, size_t errlen);
/* kernel_json_check, then kernel_json_write: what a verb calls before it
 * adds results to DIR. 0, -2 (another kernel's), -1 (cannot write). */
int kernel_json_record(const char *dir, const struct kernel_facts *f, char *err, size_t errlen);
/* The same for the running kernel (kernelinfo_read), DIR made if missing:
 * what micro --out and fs --out call before they measure. -2 also when DIR
 * is a symbolic link (never followed); nothing is written when refused. */
int kernel_json_record_running(const char *dir, char *err, size_t errlen);

#endif
