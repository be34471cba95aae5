/*
 * study_guest.h - a study's guest, read from the verb's options: the
 * kernels, the boot variants, qemu, the accelerator and the vCPUs.
 */
#ifndef DBSCALE_STUDY_GUEST_H
#define DBSCALE_STUDY_GUEST_H

#include <stddef.h>

#include "core/options.h"
#include "vm/study.h"

/* --boot, --kernel (the newest /boot/vmlinuz-* when none), --accel,
 * --vm-cpus, --vm-mem, --vm-timeout, --vm-overcommit into s: every image
 * checked and its initramfs made. verb names the verb in what is said on
 * the way. 0, or -1 with err naming the option at fault. */
int study_guest_parse(struct study *s, const struct opts *o, const char *verb, char *err,
                      size_t errlen);
/* Every kernel x boot variant's kernel command line fits. 0 or -1 with err. */
int study_guest_check(struct study *s, char *err, size_t errlen);
void study_guest_free(struct study *s);

#endif
