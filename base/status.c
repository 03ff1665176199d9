/* Status codes, diagnostics and assertions. */
#include "base/base.h"

#include <stdlib.h>
#include <string.h>

static const char *const status_text[] = {
#define X(name, text) text,
    BASE_STATUS_LIST(X)
#undef X
};
_Static_assert(ARRAY_LEN(status_text) == BASE_STATUS_COUNT, "status table");

const char *base_status_str(enum base_status st)
{
    if ((unsigned)st >= BASE_STATUS_COUNT) return "unknown status";
    return status_text[st];
}

void base_assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, expr);
    abort();
}

void base_diag_clear(struct base_diag *d)
{
    if (d) memset(d, 0, sizeof *d);
}

enum base_status base_diag_vset(struct base_diag *d, enum base_status st, const char *file, int line,
                                int col, const char *fmt, va_list ap)
{
    if (!d || d->status != BASE_OK) return st;
    d->status = st;
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
    d->line = line;
    d->col = col;
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    d->snippet[0] = 0;
    return st;
}

enum base_status base_diag_set(struct base_diag *d, enum base_status st, const char *file, int line,
                               int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    base_diag_vset(d, st, file, line, col, fmt, ap);
    va_end(ap);
    return st;
}

void base_diag_set_snippet(struct base_diag *d, const char *text, size_t len)
{
    if (!d) return;
    size_t n = len < sizeof d->snippet - 1 ? len : sizeof d->snippet - 1;
    /* one line only, and printable */
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (c == '\n' || c == '\r') break;
        d->snippet[j++] = (c == '\t' || (unsigned char)c >= 32) ? c : '?';
    }
    d->snippet[j] = 0;
}

void base_diag_format(const struct base_diag *d, char *buf, size_t cap)
{
    if (!cap) return;
    int n;
    if (d->file[0] && d->line > 0)
        n = snprintf(buf, cap, "%s:%d:%d: error: %s", d->file, d->line, d->col, d->msg);
    else if (d->file[0])
        n = snprintf(buf, cap, "%s: error: %s", d->file, d->msg);
    else
        n = snprintf(buf, cap, "error: %s", d->msg);
    if (n >= 0 && (size_t)n < cap && d->snippet[0])
        snprintf(buf + n, cap - (size_t)n, "\n    %s", d->snippet);
}

void base_diag_print(const struct base_diag *d, FILE *f)
{
    char buf[BASE_DIAG_MSG_MAX + BASE_DIAG_FILE_MAX + BASE_DIAG_SNIPPET_MAX + 64];
    base_diag_format(d, buf, sizeof buf);
    fprintf(f, "%s\n", buf);
}
