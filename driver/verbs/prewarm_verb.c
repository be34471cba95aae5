/*
 * prewarm_verb.c - the prewarm verb: sysbench's `prewarm` command, its
 * usage, its output and its exit code.
 *
 * The one idea: the same command line as prepare and run (run's whole option
 * table parses, so a sysbench line stays valid), the same set-up, then
 * oltp_prewarm() (client/oltp_prewarm.c) with --threads connections. Only
 * this file prints for prewarm; it never talks to a server itself.
 */
#include <stdio.h>
#include <string.h>

#include "verbs/help.h"
#include "client/oltp.h"
#include "core/util.h"
#include "verbs/verbs.h"

static void usage(const struct opts *o, FILE *f)
{
    fputs("usage: dbscale prewarm WORKLOAD [options]\n"
          "   or: dbscale WORKLOAD [options] prewarm      (sysbench's order)\n\n"
          "Reads every table and its indexes into the server's buffer pool, --threads\n"
          "connections side by side (MySQL: sysbench's statements; PostgreSQL: pg_prewarm()\n"
          "when the extension is installed, else index scans).\n\noptions:\n",
          f);
    help_verb_options(f, "prewarm", o);
}

int prewarm_main(int argc, char **argv)
{
    struct opts o;
    opts_init(&o, oltp_optdefs(), oltp_noptdefs());
    char err[700], *pos[2];
    int npos = 0;
    int r = opts_parse_argv(&o, argc, argv, 1, pos, 2, &npos, err, sizeof err);
    if (r == 1) {
        usage(&o, stdout);
        opts_free(&o);
        return 0;
    }
    if (r < 0 || npos != 1) {
        fprintf(stderr, "dbscale prewarm: %s\n(see: dbscale prewarm --help)\n",
                r < 0  ? err
                : npos ? "give one workload"
                       : "which workload? (e.g. oltp_read_only)");
        opts_free(&o);
        return EXIT_USAGE;
    }
    char name[128];
    oltp_workload_name(pos[0], name, sizeof name);
    struct oltp_setup s;
    int rc = 0;
    if (oltp_setup(&s, &o, name, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale prewarm: %s\n(see: dbscale prewarm --help)\n", err);
        rc = EXIT_USAGE;
    } else {
        /* sysbench's banner, then what its parallel command says */
        printf("dbscale %s (sysbench-compatible)\n\nInitializing worker threads...\n\n",
               DBSCALE_VERSION);
        fflush(stdout);
        if (oltp_prewarm(&s, (int)opts_int(&o, "threads"), stdout, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale prewarm: %s\n", err);
            rc = EXIT_RUNTIME;
        }
    }
    oltp_setup_free(&s);
    opts_free(&o);
    return rc;
}
