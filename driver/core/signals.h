/*
 * signals.h - SIGINT and SIGTERM, caught once for the whole program.
 *
 * A verb calls signals_install() before it starts work; loops that can be
 * interrupted poll signals_caught() (or hand signals_flag() to code that
 * takes a flag); a room that must be woken (the pool's pool_stop) registers
 * an async-signal-safe stop action. The verb returns signals_exit_code():
 * 128 + the signal, the shell's convention (130 for SIGINT, 143 for SIGTERM).
 */
#ifndef DBSCALE_SIGNALS_H
#define DBSCALE_SIGNALS_H

#include <signal.h>

/* Catch SIGINT and SIGTERM (idempotent; the first call installs). 0 or -1. */
int signals_install(void);
/* The first stop signal that came, 0 if none. */
int signals_caught(void);
/* The same, as a flag a polling loop reads (nonzero once a signal came). */
volatile sig_atomic_t *signals_flag(void);
/* 128 + the signal that came, or 0. */
int signals_exit_code(void);

/* Call fn(arg) from the handler when a stop signal comes (fn must be
 * async-signal-safe). A slot id, or -1 when all slots are taken. */
int signals_on_stop(void (*fn)(void *), void *arg);
/* Forget the action in slot id (no-op for -1). */
void signals_off(int id);

/* Forget the signal that came: only for tests that interrupt twice. */
void signals_reset(void);

#endif
