/*
 * sweep_cfg.c - the sweep's own options as typed fields, bound once.
 *
 * The one idea is fio's: a table says which option goes where in struct
 * sweep_cfg (offsetof), and opts_bind fills it when the verb sets up. A
 * level then reads fields, so an option renamed in the table fails at
 * set-up for every sweep, not at run time in the level that first asks.
 * The engine's and the client's settings are bound the same way into
 * struct oltp_setup (client/oltp.c); these are what only a sweep has.
 */
#include <stddef.h>

#include "sweep/sweep.h"

#define B(name, as, field)                                                                         \
    {                                                                                              \
        name, as, offsetof(struct sweep_cfg, field)                                                \
    }
static const struct opt_bind sweep_binds[] = {
    B("client-cpus", OPT_STR, client_cpus),
    B("cpu-method", OPT_STR, cpu_method),
    B("variant", OPT_STR, variant),
    B("baseline", OPT_STR, baseline),
    B("why", OPT_STR, why),
    B("waits", OPT_STR, waits),
    B("profile", OPT_STR, profile),
    B("wait-hz", OPT_INT, wait_hz),
    B("time", OPT_NUM, time_s),
    B("warmup-time", OPT_NUM, warmup_s),
};
#undef B

int sweep_cfg_bind(struct sweep *w, char *err, size_t errlen)
{
    return opts_bind(&w->o, sweep_binds, sizeof sweep_binds / sizeof sweep_binds[0], &w->cfg, err,
                     errlen);
}
