/*
 * test_server_install.c - which installation a throwaway server runs
 * (--server-bin): made-up PostgreSQL bin directories and MariaDB basedirs
 * of small scripts are found, labelled with their daemon's --version line
 * and sha256, and every misuse is refused naming the directory: nothing
 * there, a file, another engine's programs, a link farm, a program that is
 * not executable.
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
#include <unistd.h>

#include "servers/server.h"

static char root[256];

static void sh(const char *fmt, const char *a)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, fmt, a, a, a, a);
    assert_int_equal(system(cmd), 0);
}

/* An executable script at root/rel that prints line for --version. */
static void program(const char *rel, const char *line)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\necho '%s'\n", line);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/dbscale-test-install-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    sh("mkdir -p %s/pg/bin %s/my/sbin %s/my/scripts %s/farm", root);
    program("pg/bin/postgres", "postgres (PostgreSQL) 99.1");
    program("pg/bin/initdb", "initdb (PostgreSQL) 99.1");
    program("pg/bin/pg_ctl", "pg_ctl (PostgreSQL) 99.1");
    program("my/sbin/mariadbd", "mariadbd  Ver 99.2-MariaDB");
    program("my/scripts/mariadb-install-db", "install");
    sh("ln -s %s/pg/bin/postgres %s/farm/postgres && ln -s %s/pg/bin/initdb %s/farm/initdb", root);
    sh("ln -s %s/pg/bin/pg_ctl %s/farm/pg_ctl", root);
    return 0;
}

static int cleanup(void **state)
{
    (void)state;
    sh("rm -rf %s", root);
    return 0;
}

static void finds_and_labels(void **state)
{
    (void)state;
    char dir[512], err[1024], want[128];
    struct server_install in;
    snprintf(dir, sizeof dir, "%s/pg/bin", root);
    assert_int_equal(server_install_find(SERVER_PGSQL, dir, &in, err, sizeof err), 0);
    assert_string_equal(in.dir, dir);
    assert_string_equal(in.bindir, dir);
    assert_non_null(strstr(in.daemon, "/pg/bin/postgres"));
    assert_non_null(strstr(in.tool, "/pg/bin/initdb"));
    assert_string_equal(in.version, "postgres (PostgreSQL) 99.1");
    /* the sha256 is the daemon file's, as sha256sum says */
    char cmd[700];
    snprintf(cmd, sizeof cmd, "sha256sum '%s'", in.daemon);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    assert_non_null(fgets(want, sizeof want, p));
    pclose(p);
    want[64] = '\0';
    assert_string_equal(in.sha256, want);
    /* a MariaDB basedir: the daemon in sbin/, install-db in scripts/ */
    snprintf(dir, sizeof dir, "%s/my", root);
    assert_int_equal(server_install_find(SERVER_MYSQL, dir, &in, err, sizeof err), 0);
    assert_string_equal(in.bindir, dir);
    assert_non_null(strstr(in.daemon, "/my/sbin/mariadbd"));
    assert_non_null(strstr(in.tool, "/my/scripts/mariadb-install-db"));
    assert_string_equal(in.version, "mariadbd  Ver 99.2-MariaDB");
}

/* dir refused for engine e, the message naming it and holding want. */
static void refused(enum server_engine e, const char *rel, const char *want)
{
    char dir[512], err[1024] = "";
    struct server_install in;
    snprintf(dir, sizeof dir, "%s/%s", root, rel);
    assert_int_equal(server_install_find(e, dir, &in, err, sizeof err), -1);
    if (!strstr(err, want) || !strstr(err, dir))
        fail_msg("%s for %s: '%s' lacks '%s'", dir, server_engine_name(e), err, want);
}

static void refuses_misuse(void **state)
{
    (void)state;
    refused(SERVER_PGSQL, "nonexistent", "No such file");
    refused(SERVER_PGSQL, "pg/bin/postgres", "not a directory");
    refused(SERVER_PGSQL, "my", "holds MariaDB's programs");
    refused(SERVER_MYSQL, "pg/bin", "holds PostgreSQL's programs");
    refused(SERVER_PGSQL, "farm", "symbolic link");
    refused(SERVER_PGSQL, "my/scripts", "no PostgreSQL installation");
    refused(SERVER_MYSQL, "my/scripts", "no MariaDB installation");
    /* one program short: no whole bin directory */
    sh("rm %s/pg/bin/pg_ctl", root);
    refused(SERVER_PGSQL, "pg/bin", "no pg_ctl there");
    program("pg/bin/pg_ctl", "pg_ctl");
    /* a program that cannot run */
    sh("chmod 0644 %s/pg/bin/initdb", root);
    refused(SERVER_PGSQL, "pg/bin", "not an executable file");
    sh("chmod 0755 %s/pg/bin/initdb", root);
    char err[256];
    struct server_install in;
    assert_int_equal(server_install_find(SERVER_PGSQL, "", &in, err, sizeof err), -1);
    assert_non_null(strstr(err, "an empty path"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_and_labels),
        cmocka_unit_test(refuses_misuse),
    };
    return cmocka_run_group_tests(tests, setup, cleanup);
}
