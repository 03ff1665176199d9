/* Helpers shared by the fuzz targets (header-only: each target is one
 * translation unit, built alone by `make fuzz`). */
#ifndef NPUSIM_FUZZ_UTIL_H
#define NPUSIM_FUZZ_UTIL_H

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A refusal must say where and what (issue 20: no empty error). */
static inline void fuzz_check_refusal(enum base_status st, const struct base_diag *d)
{
    if (st != BASE_ERR_NOMEM && !d->msg[0]) {
        fprintf(stderr, "fuzz: status %s without a message\n", base_status_str(st));
        abort();
    }
}

/* The input in a fresh temporary file named *SUFFIX (readers take paths). */
static inline void fuzz_to_file(const uint8_t *data, size_t size, const char *suffix, char *path, size_t cap)
{
    snprintf(path, cap, "/tmp/npusim_fuzz_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) abort();
    if (size && write(fd, data, size) != (ssize_t)size) abort();
    close(fd);
}

#endif
