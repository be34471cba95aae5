/*
 * config_path.c - find the INI file --config names.
 *
 * The one idea: the working directory first, so a user's own file always
 * wins and nothing changes for a path that exists; only a name that is not
 * there is looked up among the installed configs. Every place tried is
 * named when none holds it, so "not found" says where to put the file.
 *
 * Never reads the file: the option parser does.
 */
#include "core/config_path.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* err gets "; " + p appended, as far as it fits */
static void looked(char *err, size_t errlen, const char *p)
{
    size_t l = strlen(err);
    if (l + 1 < errlen)
        snprintf(err + l, errlen - l, "%s%s", l ? ", " : "", p);
}

int config_path_find(const char *name, const char *const *dirs, char *out, size_t outlen, char *err,
                     size_t errlen)
{
    char tried[2048] = "", p[PATH_MAX + 256];
    if (name[0] == '/' || is_file(name)) {
        /* absolute, or there: the parser reads it (and says why not) */
        snprintf(out, outlen, "%s", name);
        return 0;
    }
    char cwd[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", name);
    looked(tried, sizeof tried, p);
    const char *bare = !strncmp(name, "configs/", 8) ? name + 8 : NULL;
    for (int i = 0; dirs && dirs[i]; i++) {
        const char *cand[2] = {name, bare};
        for (int k = 0; k < 2; k++) {
            if (!cand[k])
                continue;
            snprintf(p, sizeof p, "%s/%s", dirs[i], cand[k]);
            if (is_file(p)) {
                snprintf(out, outlen, "%s", p);
                return 0;
            }
            looked(tried, sizeof tried, p);
        }
    }
    snprintf(err, errlen, "--config %s: no such file; looked in %s", name, tried);
    return -1;
}

const char *const *config_path_dirs(void)
{
    static char local[PATH_MAX + 16];
    static const char *dirs[3];
    snprintf(local, sizeof local, "%s/configs", datadir());
    dirs[0] = local;
    dirs[1] = strcmp(local, DBSCALE_CONFIGDIR) ? DBSCALE_CONFIGDIR : NULL;
    dirs[2] = NULL;
    return dirs;
}
