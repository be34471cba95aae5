/*
 * options_ini.c - config files for the option table: INI read with libinih,
 * which also takes sysbench's --config-file format (name=value lines).
 *
 * The one idea: a file is only another source of opts_set() calls, each
 * named FILE:LINE, so a value is checked exactly as on the command line and
 * a bad line says where it is. What libinih would do silently (split an
 * overlong line, join an indented one to the line above, read /dev/zero
 * forever) is refused here first. It never reads the command line.
 */
#include "core/options.h"
#include "core/safefile.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

struct ini_ctx {
    struct opts *o;
    const char *path;
    char *err;
    size_t errlen;
    int failed;
    int line; /* lines read so far: Debian's libinih passes no line number */
    FILE *f;
    int too_long;
};

/* fgets that counts lines, so messages can name file:line. It also refuses
 * lines longer than libinih's buffer (which would silently split them) and
 * strips leading blanks, so an indented line is a line of its own and not
 * libinih's multi-line continuation of the one above. */
static char *ini_reader_cb(char *str, int num, void *stream)
{
    struct ini_ctx *c = stream;
    if (c->too_long)
        return NULL;
    char *r = fgets(str, num, c->f);
    if (!r)
        return NULL;
    c->line++;
    size_t l = strlen(str);
    if (l == (size_t)num - 1 && str[l - 1] != '\n') {
        /* the buffer filled: too long, unless the file simply ends here */
        int next = getc(c->f);
        if (next != EOF) {
            c->too_long = 1;
            return NULL;
        }
    }
    size_t lead = strspn(str, " \t");
    if (lead)
        memmove(str, str + lead, l - lead + 1);
    return r;
}

static int ini_cb(void *user, const char *section, const char *key, const char *value)
{
    struct ini_ctx *c = user;
    (void)section;
    char where[512];
    snprintf(where, sizeof where, "%s:%d", c->path, c->line);
    if (c->failed)
        return 0;
    /* Accept "key" and "--key" alike, so a command line pastes into a file. */
    while (*key == '-')
        key++;
    if (opts_set(c->o, key, value, where, c->err, c->errlen) < 0) {
        c->failed = 1;
        return 0;
    }
    return 1;
}

/* A config is a small regular file: a directory reads as empty and
 * /dev/zero never ends, so both are refused before reading. */
#define OPTS_INI_MAX (1 << 20)

int opts_parse_ini(struct opts *o, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen_regular(path); /* a FIFO would block the open itself */
    if (!f) {
        snprintf(err, errlen, "--config: cannot read config '%s': %s", path,
                 errno == EINVAL ? "not a regular file" : strerror(errno));
        return -1;
    }
    struct stat st;
    const char *why = fstat(fileno(f), &st) < 0   ? strerror(errno)
                      : S_ISDIR(st.st_mode)       ? "a directory, not a file"
                      : !S_ISREG(st.st_mode)      ? "not a regular file"
                      : st.st_size > OPTS_INI_MAX ? "larger than 1 MiB"
                                                  : NULL;
    if (why) {
        snprintf(err, errlen, "--config: cannot read config '%s': %s", path, why);
        fclose(f);
        return -1;
    }
    struct ini_ctx c = {o, path, err, errlen, 0, 0, f, 0};
    int r = ini_parse_stream(ini_reader_cb, &c, ini_cb, &c);
    fclose(f);
    if (c.failed)
        return -1;
    if (c.too_long) {
        snprintf(err, errlen, "%s:%d: line too long (at most 198 characters)", path, c.line);
        return -1;
    }
    if (r != 0) {
        snprintf(err, errlen, "%s:%d: malformed line (expected 'key = value' or '[section]')", path,
                 r);
        return -1;
    }
    return 0;
}
