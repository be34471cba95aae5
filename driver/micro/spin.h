/* micro/spin.h - the spin self-test's work function, shared with the unit
 * test so both time the very same code. */
#ifndef DBSCALE_MICRO_SPIN_H
#define DBSCALE_MICRO_SPIN_H

#include <stdint.h>

#define MICRO_SPIN_WORK 1000

uint64_t micro_spin_work(uint64_t x);

#endif
