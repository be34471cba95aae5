/*
 * input.c - opening the files plot and compare are handed (results.csv,
 * micro.csv, TSVs, meta.json), which may come from anybody.
 *
 * The one idea: decide on the descriptor, not the name. The file is opened
 * O_NONBLOCK (a FIFO without a writer then opens at once instead of
 * blocking), fstat says whether it is a regular file of sane size, and only
 * then is it handed out as an ordinary blocking FILE *. A check on the name
 * before opening would race with a swap of the file.
 *
 * Never read here, and never accept a FIFO, device or socket: /dev/zero
 * would feed a line reader without end.
 */
#include "results/input.h"
#include "core/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *results_input_open(const char *path, char *err, size_t errlen)
{
    int fd = file_open_regular(path); /* safefile.h: the checks on the descriptor */
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path,
                 errno == EINVAL ? "not a regular file" : strerror(errno));
        return NULL;
    }
    struct stat st;
    const char *why = NULL;
    if (fstat(fd, &st) < 0)
        why = strerror(errno);
    else if ((long long)st.st_size > RESULTS_INPUT_MAX)
        why = "too large for a results file";
    FILE *f = why ? NULL : fdopen(fd, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, why ? why : strerror(errno));
        close(fd);
    }
    return f;
}

json_t *results_input_json(const char *path, char *err, size_t errlen)
{
    FILE *f = results_input_open(path, err, errlen);
    if (!f)
        return NULL;
    json_error_t je;
    json_t *o = json_loadf(f, 0, &je);
    fclose(f);
    if (!o) {
        if (je.line > 0)
            snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
        else
            snprintf(err, errlen, "%s: %s", path, je.text);
        return NULL;
    }
    if (!json_is_object(o)) {
        snprintf(err, errlen, "%s: not a JSON object", path);
        json_decref(o);
        return NULL;
    }
    return o;
}
