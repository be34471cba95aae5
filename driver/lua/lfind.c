/*
 * lfind.c - the Lua room's search path: what file a script NAME means and
 * where require() looks.
 *
 * The one idea: one list, read two ways. --lua-path's entries (a directory
 * or a '?' template, as in LUA_PATH) serve both the lookup of the script
 * itself and package.path, so a script found on --lua-path also finds its
 * oltp_common.lua there. Pure string work and stat(); never prints.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lua/lfind.h"

const struct optdef lfind_optdefs[] = {
    {"lua-path", OPT_STR, NULL,
     "where a script NAME (NAME.lua) and require() look after the working directory: "
     "directories or '?' templates, ';'-separated"},
};
const size_t lfind_noptdefs = sizeof lfind_optdefs / sizeof lfind_optdefs[0];

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Entry e (length n) as a template: "dir" -> "dir/?.lua"; one with '?' as it is. */
static void template_of(const char *e, size_t n, char *out, size_t outlen)
{
    if (memchr(e, '?', n))
        snprintf(out, outlen, "%.*s", (int)n, e);
    else
        snprintf(out, outlen, "%.*s%s?.lua", (int)n, e, n && e[n - 1] == '/' ? "" : "/");
}

/* Each non-empty entry of lua_path as a template, handed to fn until it says stop. */
static int each_template(const char *lua_path, int (*fn)(const char *tpl, void *arg), void *arg)
{
    for (const char *p = lua_path; p && *p;) {
        size_t n = strcspn(p, ";,");
        if (n) {
            char tpl[1024];
            template_of(p, n, tpl, sizeof tpl);
            if (fn(tpl, arg))
                return 1;
        }
        p += n;
        if (*p)
            p++;
    }
    return 0;
}

/* Where sysbench installs the scripts it ships (bulk_insert.lua,
 * oltp_common.lua, ...): Debian's package, then a source build's. */
static const char *const sysbench_dirs[] = {"/usr/share/sysbench", "/usr/local/share/sysbench"};

struct lookup {
    const char *name;
    char *out;
    size_t outlen;
};

static int try_template(const char *tpl, void *arg)
{
    struct lookup *l = arg;
    char path[2048];
    size_t k = 0;
    for (const char *c = tpl; *c && k + 1 < sizeof path; c++) {
        if (*c == '?') {
            k += (size_t)snprintf(path + k, sizeof path - k, "%s", l->name);
            if (k >= sizeof path)
                return 0;
        } else {
            path[k++] = *c;
        }
    }
    path[k < sizeof path ? k : sizeof path - 1] = '\0';
    if (!is_file(path))
        return 0;
    snprintf(l->out, l->outlen, "%s", path);
    return 1;
}

int lfind_script(const char *arg, const char *lua_path, char *out, size_t outlen)
{
    size_t l = strlen(arg);
    if (l == 0 || arg[0] == '-')
        return 0;
    if (l > 4 && !strcmp(arg + l - 4, ".lua") && is_file(arg)) {
        snprintf(out, outlen, "%s", arg);
        return 1;
    }
    if (strchr(arg, '/'))
        return 0;
    char name[512];
    snprintf(name, sizeof name, "%.*s", (int)(l > 4 && !strcmp(arg + l - 4, ".lua") ? l - 4 : l),
             arg);
    struct lookup lk = {name, out, outlen};
    if (try_template("?.lua", &lk) || each_template(lua_path, try_template, &lk))
        return 1;
    /* last, a script sysbench ships, by its name as sysbench takes it
     * (`sysbench bulk_insert prepare`) */
    for (size_t i = 0; i < sizeof sysbench_dirs / sizeof sysbench_dirs[0]; i++) {
        char tpl[256];
        snprintf(tpl, sizeof tpl, "%s/?.lua", sysbench_dirs[i]);
        if (try_template(tpl, &lk))
            return 1;
    }
    return 0;
}

struct joined {
    char *out;
    size_t outlen, len;
};

static int add_template(const char *tpl, void *arg)
{
    struct joined *j = arg;
    if (j->len < j->outlen)
        j->len += (size_t)snprintf(j->out + j->len, j->outlen - j->len, "%s;", tpl);
    return 0;
}

void lfind_package_path(const char *script_path, const char *lua_path, char *out, size_t outlen)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", script_path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    struct joined j = {out, outlen, 0};
    j.len = (size_t)snprintf(out, outlen, "%s/?.lua;./?.lua;", dir);
    each_template(lua_path, add_template, &j);
    for (size_t i = 0; i < sizeof sysbench_dirs / sizeof sysbench_dirs[0]; i++)
        if (j.len < outlen)
            j.len += (size_t)snprintf(out + j.len, outlen - j.len, "%s/?.lua;", sysbench_dirs[i]);
}

const char *lfind_lua_path_arg(int argc, char **argv)
{
    const char *v = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--lua", 5) != 0 || (a[5] != '-' && a[5] != '_') ||
            strncmp(a + 6, "path", 4) != 0)
            continue;
        if (a[10] == '=')
            v = a + 11;
        else if (a[10] == '\0' && i + 1 < argc)
            v = argv[++i];
    }
    return v;
}
