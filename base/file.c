/* Whole-file reading. */
#include "base/base.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum base_status base_file_read(const char *path, char **out, size_t *len, struct base_diag *diag)
{
    *out = NULL;
    if (len) *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return BASE_ERR_NOMEM;
    }
    for (;;) {
        if (cap - n < 2) {
            char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                return BASE_ERR_NOMEM;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "read error");
    }
    buf[n] = 0;
    *out = buf;
    if (len) *len = n;
    return BASE_OK;
}
