/*
 * test_study_axes.c - a study's command line to its host axes: builds
 * (--server-bin [LABEL=]DIR, labelled by their version when no label is
 * given, each an installation of the command's engine) and settings
 * (--settings LABEL=LINE grouped by label in the order given, LABEL=
 * alone the defaults, each set checked against every build's own server),
 * and what is refused: a second label, a command that is no sweep or runs
 * an external server, a build under /tmp for a guest, a setting the
 * build's server does not know. Installations are made-up bin directories
 * of scripts whose postgres answers --version and --describe-config.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/options.h"
#include "servers/server.h"
#include "verbs/study_axes.h"
#include "verbs/verbs.h"

static char root[128];

static void program(const char *rel, const char *body)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
}

/* A PostgreSQL bin directory whose server is version ver and knows the
 * settings work_mem and synchronous_commit. */
static void pg_bin(const char *dir, const char *ver)
{
    char cmd[700], rel[300], body[300];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s'", root, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(rel, sizeof rel, "%s/postgres", dir);
    snprintf(body, sizeof body,
             "if [ \"$1\" = --describe-config ]; then printf 'work_mem\\tx\\n"
             "synchronous_commit\\tx\\n'; else echo 'postgres (PostgreSQL) %s'; fi",
             ver);
    program(rel, body);
    snprintf(rel, sizeof rel, "%s/initdb", dir);
    program(rel, "exit 0");
    snprintf(rel, sizeof rel, "%s/pg_ctl", dir);
    program(rel, "exit 0");
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/dbscale-test-axes-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    pg_bin("a/bin", "16.4");
    pg_bin("b/bin", "16.4");
    return 0;
}

static int cleanup(void **state)
{
    (void)state;
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* The study's options from argv (argv[0] is the verb). */
static void parse(struct opts *o, int argc, char **argv)
{
    size_t n;
    const struct optdef *d = study_verb_optdefs(&n);
    opts_init(o, d, n);
    char err[600], *pos[1];
    int npos;
    assert_int_equal(opts_parse_argv(o, argc, argv, 1, pos, 0, &npos, err, sizeof err), 0);
}

static void builds_and_settings(void **state)
{
    (void)state;
    char a[300], b[300], la[320];
    snprintf(a, sizeof a, "%s/a/bin", root);
    snprintf(b, sizeof b, "%s/b/bin", root);
    snprintf(la, sizeof la, "old=%s", a);
    char *argv[] = {"study",
                    "--server-bin",
                    la,
                    "--server-bin",
                    b,
                    "--settings",
                    "on=synchronous_commit=on",
                    "--settings",
                    "base=",
                    "--settings",
                    "on=work_mem=64MB"};
    struct opts o;
    parse(&o, 11, argv);
    char *cmd[] = {"sweep", "oltp_write_only", "--db-driver=pgsql"};
    int e = study_axes_engine(cmd, 3);
    assert_int_equal(e, SERVER_PGSQL);
    struct study_axis builds, sets;
    char err[2000] = "";
    assert_int_equal(study_axes_builds(&o, cmd, 3, e, 0, &builds, err, sizeof err), 0);
    assert_int_equal(builds.n, 2);
    assert_string_equal(builds.v[0].label, "old");
    assert_string_equal(builds.v[1].label, "16.4"); /* its version */
    char want[400];
    snprintf(want, sizeof want, "--server-bin=%s", b);
    assert_string_equal(builds.v[1].words[0], want);
    assert_int_equal(study_axes_settings(&o, cmd, 3, e, &builds, &sets, err, sizeof err), 0);
    assert_int_equal(sets.n, 2);
    assert_string_equal(sets.v[0].label, "on");
    assert_int_equal(sets.v[0].nwords, 2);
    assert_string_equal(sets.v[0].words[0], "--server-conf=synchronous_commit=on");
    assert_string_equal(sets.v[0].words[1], "--server-conf=work_mem=64MB");
    assert_string_equal(sets.v[1].label, "base");
    assert_int_equal(sets.v[1].nwords, 0);
    study_axes_free(&builds);
    study_axes_free(&sets);
    /* the same version twice, unlabelled: told apart */
    char *argv2[] = {"study", "--server-bin", a, "--server-bin", b};
    opts_free(&o);
    parse(&o, 5, argv2);
    assert_int_equal(study_axes_builds(&o, cmd, 3, e, 0, &builds, err, sizeof err), 0);
    assert_string_equal(builds.v[0].label, "16.4");
    assert_string_equal(builds.v[1].label, "16.4-2");
    /* a guest has a /tmp of its own: a build there is refused */
    study_axes_free(&builds);
    assert_int_equal(study_axes_builds(&o, cmd, 3, e, 1, &builds, err, sizeof err), -1);
    assert_non_null(strstr(err, "/tmp of its own"));
    study_axes_free(&builds);
    opts_free(&o);
}

/* argv refused for cmd, err holding want. */
static void refused(char **argv, int argc, char **cmd, int ncmd, const char *want)
{
    struct opts o;
    parse(&o, argc, argv);
    struct study_axis builds, sets;
    char err[2000] = "";
    int e = study_axes_engine(cmd, ncmd);
    int rc = study_axes_builds(&o, cmd, ncmd, e, 0, &builds, err, sizeof err);
    if (rc == 0)
        rc = study_axes_settings(&o, cmd, ncmd, e, &builds, &sets, err, sizeof err);
    else
        sets = (struct study_axis){"settings", NULL, 0};
    if (rc != -1 || !strstr(err, want))
        fail_msg("%s: rc %d, '%s' lacks '%s'", argv[1], rc, err, want);
    study_axes_free(&builds);
    study_axes_free(&sets);
    opts_free(&o);
}

static void refusals(void **state)
{
    (void)state;
    char a[300], la[320];
    snprintf(a, sizeof a, "%s/a/bin", root);
    snprintf(la, sizeof la, "x=%s", a);
    char *sweep[] = {"sweep", "oltp_write_only", "--db-driver=pgsql"};
    char *ext[] = {"sweep", "oltp_write_only", "--db-driver=pgsql", "--server=external"};
    char *micro[] = {"micro", "getppid1"};
    char *own[] = {"sweep", "oltp_write_only", "--db-driver=pgsql", "--server-bin", a};
    char *twice[] = {"study", "--server-bin", la, "--server-bin", la};
    refused(twice, 5, sweep, 3, "label 'x' given twice");
    char *one[] = {"study", "--server-bin", a};
    refused(one, 3, ext, 4, "--server=external");
    refused(one, 3, micro, 2, "no sweep");
    refused(one, 3, own, 5, "not --server-bin to the command");
    char *unknown[] = {"study", "--server-bin", a, "--settings", "s=fsync=off"};
    refused(unknown, 5, sweep, 3, "--settings s with build 16.4");
    char *nolabel[] = {"study", "--settings", "synchronous_commit"};
    refused(nolabel, 3, sweep, 3, "LABEL=KEY=VALUE");
    /* the engine from a config file the command names */
    char cfg[300];
    snprintf(cfg, sizeof cfg, "%s/sweep.ini", root);
    FILE *f = fopen(cfg, "w");
    fprintf(f, "[sweep]\ndb-driver = mysql\n");
    fclose(f);
    char *bycfg[] = {"sweep", "oltp_write_only", "--config", cfg};
    assert_int_equal(study_axes_engine(bycfg, 4), SERVER_MYSQL);
    char *none[] = {"sweep", "oltp_write_only"};
    assert_int_equal(study_axes_engine(none, 2), SERVER_MYSQL); /* sysbench's default */
    assert_string_equal(study_axes_option(own, 5, "server-bin"), a);
    assert_null(study_axes_option(sweep, 3, "server"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builds_and_settings),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, setup, cleanup);
}
