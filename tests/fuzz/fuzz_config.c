/*
 * fuzz_config.c - libFuzzer target for the INI config reader
 * (opts_parse_ini in options_ini.c): what users write in configs/NAME.ini.
 *
 * opts_parse_ini takes a path, so the input is written to a memfd made once
 * and read back through /proc/self/fd/N: no file on disk, nothing to clean
 * up. The table is the sweep's own (sweep_verb_optdefs), the one config
 * files are read with.
 *
 * Built with FUZZ_NO_MAIN, this file gives fuzz_config_one() alone, which
 * tests/unit/test_fuzz_regressions.c feeds the saved crash inputs through.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "client/oltp.h"
#include "core/options.h"
#include "core/util.h"
#include "verbs/verbs.h"

/* The sweep's real table: configs/NAME.ini files are sweep configs. */
static const struct optdef *cfg_defs(size_t *n)
{
    static struct optdef *defs;
    static size_t ndefs;
    if (!defs)
        defs = sweep_verb_optdefs(&ndefs);
    *n = ndefs;
    return defs;
}

/* Parses the input as a config file: 0, or -1 with err set. */
int fuzz_config_one(const uint8_t *data, size_t size, char *err, size_t errlen)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("fuzz_config.ini", 0);
        if (fd < 0) {
            perror("memfd_create");
            abort();
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) < 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
        perror("fuzz_config: writing the memfd");
        abort();
    }
    size_t n;
    const struct optdef *defs = cfg_defs(&n);
    struct opts o;
    opts_init(&o, defs, n);
    err[0] = '\0';
    int rc = opts_parse_ini(&o, path, err, errlen);
    if (rc == 0) {
        for (size_t i = 0; i < n; i++)
            (void)opts_str(&o, defs[i].name);
        struct sbuf b = {0};
        opts_json(&o, &b);
        sbuf_free(&b);
    }
    opts_free(&o);
    return rc;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    (void)fuzz_config_one(data, size, err, sizeof err);
    return 0;
}
#endif
