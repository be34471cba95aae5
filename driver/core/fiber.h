/*
 * fiber.h - stacks of their own that code runs on until it switches away
 * (fiber.c). A run's event loops carry each scripted connection on one, so
 * a database call can wait for its reply inside an ffi call or a C function
 * without unwinding the Lua code above it.
 *
 * A fiber runs on the thread that switches to it; it is never shared
 * between threads. Its function must not return: it switches away for the
 * last time instead.
 */
#ifndef DBSCALE_FIBER_H
#define DBSCALE_FIBER_H

#include <stddef.h>

struct fiber {
    void *sp;       /* saved stack pointer while switched away */
    void *map;      /* the mapping (guard page first); NULL for a thread's own */
    size_t map_len; /* the mapping's length */
    void *bottom;   /* the usable stack (sanitizers, valgrind) */
    size_t size;
    void (*fn)(void *);
    void *arg;
    void *tsan;     /* ThreadSanitizer's context for it */
    unsigned vg_id; /* valgrind's stack id */
};

/* self becomes the calling thread's own stack, to switch from and back to. */
void fiber_self(struct fiber *self);
/* A new fiber of stack bytes (a guard page below them) that runs fn(arg)
 * the first time it is switched to: 0, or -1 with errno. */
int fiber_create(struct fiber *f, size_t stack, void (*fn)(void *), void *arg);
/* Save the running code into from and run to: returns when something
 * switches back to from. */
void fiber_switch(struct fiber *from, struct fiber *to);
/* Free a fiber that is not running (its stack is simply dropped). */
void fiber_destroy(struct fiber *f);

#endif
