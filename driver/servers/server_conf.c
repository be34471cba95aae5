/*
 * server_conf.c - keeping a throwaway server on loopback: the caller's extra
 * config lines are checked before start, and where the running server really
 * listens is checked after.
 *
 * The one idea: trust neither check alone. Extra lines may tune an engine but
 * never move it, judged as the engine reads its keys (each engine's
 * conf_managed: PostgreSQL's include directives, MariaDB's loose_ prefixes and
 * abbreviations), and lines that are not plain settings (!include, [section])
 * are refused outright. Then the kernel's socket tables are read for every
 * socket the server's processes hold: anything bound beyond 127.0.0.0/8 and
 * ::1 fails the start, whatever config put it there.
 *
 * It must never accept a start whose sockets it could not see.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/procfs.h"
#include "servers/server_engine.h"
#include "core/util.h"

#define MAX_PIDS   512
#define MAX_INODES 256

/* After the key (from q to end): PostgreSQL's "key = value" or "key value"
 * needs a value; a key alone is only MariaDB's boolean. */
static int conf_value_bad(const struct server_engine_ops *ops, const char *q, const char *end)
{
    if (!ops->conf_needs_value)
        return 0;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    if (q < end && *q == '=')
        q++;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
    return q == end || *q == '#';
}

/* A name the server does not know (server_settings.c): a dotted one is an
 * extension's (PostgreSQL's custom settings), and MariaDB's boolean
 * modifiers name the option after them. */
static int conf_name_bad(enum server_engine e, const struct server_engine_ops *ops,
                         const char *daemon, const char *key)
{
    static const char *const mods[] = {"skip_", "disable_", "enable_", "maximum_", NULL};
    if (strchr(key, '.'))
        return 0;
    int k = server_setting_known(e, daemon, key);
    for (int i = 0; k == 0 && !ops->conf_needs_value && mods[i]; i++)
        if (!strncmp(key, mods[i], strlen(mods[i])))
            k = server_setting_known(e, daemon, key + strlen(mods[i]));
    return k == 0;
}

int server_conf_check(enum server_engine e, const char *extra, char *err, size_t errlen)
{
    return server_conf_check_in(e, NULL, extra, err, errlen);
}

int server_conf_check_in(enum server_engine e, const char *daemon, const char *extra, char *err,
                         size_t errlen)
{
    for (const char *p = extra; p && *p;) {
        size_t l = strcspn(p, "\n");
        const char *q = p;
        while (q < p + l && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        int shown = (int)(l < 200 ? l : 200);
        if (q == p + l || *q == '#' || *q == ';') {
            p += l + (p[l] == '\n');
            continue;
        }
        if (!isalpha((unsigned char)*q) && *q != '_') {
            snprintf(err, errlen,
                     "extra setting line '%.*s' is not a plain key=value setting (includes and "
                     "sections are managed by dbscale)",
                     shown, p);
            return -1;
        }
        char key[64];
        size_t k = 0;
        for (; q < p + l && k + 1 < sizeof key &&
               (isalnum((unsigned char)*q) || *q == '_' || *q == '-' || *q == '.');
             q++)
            key[k++] = *q == '-' ? '_' : (char)tolower((unsigned char)*q);
        key[k] = '\0';
        const struct server_engine_ops *ops = server_engine_ops_of(e);
        const char *m = ops->conf_managed(key);
        if (m) {
            snprintf(err, errlen,
                     "extra setting line '%.*s': '%s' is %s's '%s', managed by dbscale "
                     "(loopback and its own directory only)",
                     shown, p, key, ops->title, m);
            return -1;
        }
        if (conf_value_bad(ops, q, p + l) || conf_name_bad(e, ops, daemon, key)) {
            snprintf(err, errlen, "extra setting line '%.*s': %s", shown, p,
                     conf_value_bad(ops, q, p + l)
                         ? "no value (write key=value)"
                         : "not a setting the server knows (it would refuse to start)");
            return -1;
        }
        p += l + (p[l] == '\n');
    }
    return 0;
}

/* 16 bytes of address from the kernel's hex (4 or 16 bytes in host-order words). */
static int parse_addr(const char *hex, size_t len, unsigned char *out, int *v6)
{
    if (len != 8 && len != 32)
        return -1;
    *v6 = len == 32;
    for (size_t w = 0; w < len / 8; w++) {
        char word[9];
        memcpy(word, hex + w * 8, 8);
        word[8] = '\0';
        char *end;
        unsigned long v = strtoul(word, &end, 16);
        if (*end)
            return -1;
        uint32_t u = (uint32_t)v;
        memcpy(out + w * 4, &u, 4); /* the kernel printed the raw bytes as a host u32 */
    }
    return 0;
}

static int is_loopback(const unsigned char *a, int v6)
{
    static const unsigned char one[16] = {[15] = 1};
    static const unsigned char mapped[12] = {[10] = 0xff, [11] = 0xff};
    if (!v6)
        return a[0] == 127;
    return !memcmp(a, one, 16) || (!memcmp(a, mapped, 12) && a[12] == 127);
}

int server_listen_scan(const char *table, const unsigned long *inodes, int n, char *bad,
                       size_t badlen)
{
    const char *line = strchr(table, '\n'); /* the header */
    while (line && *++line) {
        char local[64];
        unsigned long inode = 0;
        if (sscanf(line, " %*s %63s %*s %*s %*s %*s %*s %*s %*s %lu", local, &inode) == 2) {
            int ours = 0;
            for (int i = 0; i < n && !ours; i++)
                ours = inodes[i] == inode;
            char *colon = strchr(local, ':');
            unsigned char a[16];
            int v6 = 0;
            if (ours && colon && parse_addr(local, (size_t)(colon - local), a, &v6) == 0 &&
                !is_loopback(a, v6)) {
                char txt[INET6_ADDRSTRLEN] = "?";
                inet_ntop(v6 ? AF_INET6 : AF_INET, a, txt, sizeof txt);
                snprintf(bad, badlen, "%s%s%s:%lu", v6 ? "[" : "", txt, v6 ? "]" : "",
                         strtoul(colon + 1, NULL, 16));
                return -1;
            }
        }
        line = strchr(line, '\n');
    }
    return 0;
}

/* The socket inodes the server's processes hold open. */
static int socket_inodes(const struct server *s, unsigned long *inodes, int max)
{
    pid_t pids[MAX_PIDS];
    int np = server_pids(s, pids, MAX_PIDS), n = 0;
    for (int i = 0; i < np && n < max; i++)
        n += procfs_socket_inodes(pids[i], inodes + n, max - n);
    return n;
}

int server_check_listen(const struct server *s, char *err, size_t errlen)
{
    static const char *const tables[] = {"/proc/net/tcp", "/proc/net/tcp6", "/proc/net/udp",
                                         "/proc/net/udp6", NULL};
    unsigned long inodes[MAX_INODES];
    int n = socket_inodes(s, inodes, MAX_INODES);
    if (n == 0) {
        snprintf(err, errlen,
                 "cannot see the sockets of server pid %ld to check it listens on "
                 "loopback only",
                 (long)s->pid);
        return -1;
    }
    for (int t = 0; tables[t]; t++) {
        struct sbuf b = {0};
        if (sbuf_read_file(&b, tables[t]) < 0) {
            sbuf_free(&b);
            continue; /* no IPv6 here: nothing can listen on it either */
        }
        char bad[80];
        int rc = b.s ? server_listen_scan(b.s, inodes, n, bad, sizeof bad) : 0;
        sbuf_free(&b);
        if (rc < 0) {
            snprintf(err, errlen, "the server listens on %s, beyond loopback (%s): refused", bad,
                     tables[t] + 10);
            return -1;
        }
    }
    return 0;
}
