/* Files: whole-file reading within the limits (regular files only unless
 * told otherwise, capped), atomic outputs (a temporary name in the same
 * folder, renamed on success), and output names kept inside their folder. */
#include "base/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m)) return "a folder";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

enum base_status base_file_open(const char *path, const struct base_limits *lim, FILE **out, uint64_t *size,
                                struct base_diag *diag)
{
    *out = NULL;
    if (size) *size = 0;
    if (!lim) lim = base_limits_current();
    /* O_NONBLOCK: opening a FIFO with no writer must not block before we can
     * look at what it is */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot stat: %s", strerror(err));
    }
    bool regular = S_ISREG(st.st_mode);
    if (S_ISDIR(st.st_mode) || (!regular && !(lim && lim->special_files))) {
        close(fd);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0,
                             "is %s, not a regular file (npusim reads regular files only%s)", kind_of(st.st_mode),
                             S_ISDIR(st.st_mode) ? "" : "; --allow-special-files reads it, up to the input-bytes limit");
    }
    uint64_t max = base_limit(lim, BASE_LIMIT_INPUT_BYTES);
    if (regular && (uint64_t)st.st_size > max) {
        close(fd);
        return base_limit_fail(diag, path, 0, 0, lim, BASE_LIMIT_INPUT_BYTES, (uint64_t)st.st_size, "file size");
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int err = errno;
        close(fd);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot read: %s", strerror(err));
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int err = errno;
        close(fd);
        return base_diag_set(diag, err == ENOMEM ? BASE_ERR_NOMEM : BASE_ERR_IO, path, 0, 0, "cannot read: %s",
                             strerror(err));
    }
    *out = f;
    if (size) *size = regular ? (uint64_t)st.st_size : 0;
    return BASE_OK;
}

enum base_status base_file_read_lim(const char *path, const struct base_limits *lim, char **out, size_t *len,
                                    struct base_diag *diag)
{
    *out = NULL;
    if (len) *len = 0;
    FILE *f;
    uint64_t size;
    TRY(base_file_open(path, lim, &f, &size, diag));
    uint64_t max = base_limit(lim, BASE_LIMIT_INPUT_BYTES);
    /* a regular file's size is known (it may still grow while we read) */
    size_t cap = size && size < SIZE_MAX - 2 ? (size_t)size + 2 : (size_t)1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory reading %llu bytes",
                             (unsigned long long)cap);
    }
    for (;;) {
        if (cap - n < 2) {
            char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory reading more than %zu bytes", n);
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if ((uint64_t)n > max) {
            free(buf);
            fclose(f);
            return base_limit_fail(diag, path, 0, 0, lim, BASE_LIMIT_INPUT_BYTES, (uint64_t)n, "bytes read");
        }
        if (got == 0) break;
    }
    int err = ferror(f) ? errno : 0;
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(buf);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "read error: %s", strerror(err));
    }
    buf[n] = 0;
    *out = buf;
    if (len) *len = n;
    return BASE_OK;
}

enum base_status base_file_read(const char *path, char **out, size_t *len, struct base_diag *diag)
{
    return base_file_read_lim(path, NULL, out, len, diag);
}

/* ------------------------------------------------------------ outputs */

enum base_status base_out_open(struct base_out *o, const char *path, struct base_diag *diag)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(path);
    if (!n) return base_diag_set(diag, BASE_ERR_INVALID, path, 0, 0, "an empty output file name");
    o->path = malloc(n + 1);
    o->tmp = malloc(n + 48);
    if (!o->path || !o->tmp) {
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory opening for writing");
    }
    memcpy(o->path, path, n + 1);
    int fd = -1, err = 0;
    /* PATH.tmp-PID-N, created exclusively (never someone else's file); mode
     * 0666 less the umask, as fopen gives */
    for (unsigned k = 0; k < 100 && fd < 0; k++) {
        snprintf(o->tmp, n + 48, "%s.tmp-%ld-%u", path, (long)getpid(), k);
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        err = errno;
        if (fd < 0 && err != EEXIST) break;
    }
    if (fd >= 0) {
        o->f = fdopen(fd, "wb");
        err = errno;
        if (!o->f) {
            close(fd);
            unlink(o->tmp);
        }
    }
    if (!o->f) {
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot create: %s", strerror(err));
    }
    return BASE_OK;
}

static void out_free(struct base_out *o)
{
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

enum base_status base_out_commit(struct base_out *o, struct base_diag *diag)
{
    if (!o->f) return base_diag_set(diag, BASE_ERR_INTERNAL, o->path ? o->path : "", 0, 0, "output not open");
    int err = 0;
    bool bad = false;
    if (fflush(o->f) != 0 || ferror(o->f)) {
        bad = true;
        err = errno;
    }
    if (fclose(o->f) != 0 && !bad) {
        bad = true;
        err = errno;
    }
    o->f = NULL;
    if (!bad && rename(o->tmp, o->path) != 0) {
        bad = true;
        err = errno;
    }
    enum base_status st = BASE_OK;
    if (bad) {
        unlink(o->tmp);
        st = base_diag_set(diag, BASE_ERR_IO, o->path, 0, 0, "write failed: %s (nothing written)",
                           strerror(err ? err : EIO));
    }
    out_free(o);
    return st;
}

void base_out_abort(struct base_out *o)
{
    if (!o || !o->tmp) return;
    if (o->f) fclose(o->f);
    unlink(o->tmp);
    out_free(o);
}

enum base_status base_path_join(const char *dir, const char *name, const char *suffix, char *buf, size_t cap,
                                const char *what, struct base_diag *diag)
{
    bool ok = name && name[0] && name[0] != '/';
    for (const char *p = name; ok && *p;) {
        size_t n = strcspn(p, "/");
        if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) ok = false;
        p += n;
        if (*p == '/' && !*++p) ok = false; /* "a/": an empty last component */
    }
    if (!ok)
        return base_diag_set(diag, BASE_ERR_INVALID, name ? name : "", 0, 0,
                             "%s '%s' would leave the output folder (a relative name without '.' or '..' "
                             "components, e.g. out0)",
                             what, name ? name : "");
    int w = dir && dir[0] ? snprintf(buf, cap, "%s/%s%s", dir, name, suffix ? suffix : "")
                          : snprintf(buf, cap, "%s%s", name, suffix ? suffix : "");
    if (w < 0 || (size_t)w >= cap)
        return base_diag_set(diag, BASE_ERR_INVALID, name, 0, 0, "%s: output path longer than %zu bytes", what, cap - 1);
    return BASE_OK;
}
