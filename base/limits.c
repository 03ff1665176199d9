/* Limits (docs/limits.md): the one table of bounds on inputs and work, and
 * checked arithmetic that needs more than an inline. */
#include "base/base.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    uint64_t def;
    const char *what;
    uint64_t ceil;
} limits[] = {
#define X(e, name, def, what, ceil) {name, def, what, ceil},
    BASE_LIMITS(X)
#undef X
};
_Static_assert(ARRAY_LEN(limits) == BASE_LIMIT_COUNT, "limit table");

void base_limits_default(struct base_limits *l)
{
    memset(l, 0, sizeof *l);
    for (int k = 0; k < BASE_LIMIT_COUNT; k++) l->v[k] = limits[k].def;
}

/* What NULL means (base_limits_install): the command line's limits, so every
 * reader honours --limit without each call passing them. */
static struct base_limits installed;
static bool have_installed;

void base_limits_install(const struct base_limits *l)
{
    if (l) installed = *l;
    have_installed = l != NULL;
}

const struct base_limits *base_limits_current(void) { return have_installed ? &installed : NULL; }

uint64_t base_limit(const struct base_limits *l, enum base_limit k)
{
    if ((unsigned)k >= BASE_LIMIT_COUNT) return 0;
    if (!l && have_installed) l = &installed;
    return l ? l->v[k] : limits[k].def;
}

const char *base_limit_name(enum base_limit k) { return (unsigned)k < BASE_LIMIT_COUNT ? limits[k].name : "?"; }
const char *base_limit_what(enum base_limit k) { return (unsigned)k < BASE_LIMIT_COUNT ? limits[k].what : "?"; }
uint64_t base_limit_default(enum base_limit k) { return (unsigned)k < BASE_LIMIT_COUNT ? limits[k].def : 0; }
uint64_t base_limit_ceiling(enum base_limit k) { return (unsigned)k < BASE_LIMIT_COUNT ? limits[k].ceil : 0; }

bool base_parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9') return false;
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++)
        if (!base_mul_u64(v, 10, &v) || !base_add_u64(v, (uint64_t)(*p - '0'), &v)) return false;
    static const struct {
        const char *suffix;
        uint64_t mul;
    } units[] = {{"", 1},
                 {"K", UINT64_C(1) << 10},
                 {"M", UINT64_C(1) << 20},
                 {"G", UINT64_C(1) << 30},
                 {"T", UINT64_C(1) << 40},
                 {"KB", UINT64_C(1000)},
                 {"MB", UINT64_C(1000000)},
                 {"GB", UINT64_C(1000000000)},
                 {"TB", UINT64_C(1000000000000)}};
    for (size_t i = 0; i < ARRAY_LEN(units); i++)
        if (!strcmp(p, units[i].suffix)) return base_mul_u64(v, units[i].mul, out);
    return false;
}

enum base_status base_limits_set(struct base_limits *l, const char *spec, struct base_diag *diag)
{
    const char *eq = strchr(spec, '=');
    size_t n = eq ? (size_t)(eq - spec) : strlen(spec);
    char names[512];
    size_t len = 0;
    names[0] = 0;
    for (int k = 0; k < BASE_LIMIT_COUNT; k++) {
        if (strlen(limits[k].name) == n && !strncmp(spec, limits[k].name, n)) {
            uint64_t v;
            if (!eq || !base_parse_u64(eq + 1, &v) || v == 0)
                return base_diag_set(diag, BASE_ERR_INVALID, "--limit", 0, 0,
                                     "want --limit %s=N with N a whole number > 0 (suffixes K M G T, KB MB GB TB), "
                                     "got '%s'",
                                     limits[k].name, spec);
            if (v > limits[k].ceil)
                return base_diag_set(diag, BASE_ERR_INVALID, "--limit", 0, 0,
                                     "--limit %s=%llu: at most %llu (%s; docs/limits.md)", limits[k].name,
                                     (unsigned long long)v, (unsigned long long)limits[k].ceil, limits[k].what);
            l->v[k] = v;
            return BASE_OK;
        }
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", k ? ", " : "", limits[k].name);
        if (len >= sizeof names) len = sizeof names - 1;
    }
    return base_diag_set(diag, BASE_ERR_INVALID, "--limit", 0, 0, "unknown limit '%.*s' (limits: %s; docs/limits.md)",
                         (int)(n < 64 ? n : 64), spec, names);
}

enum base_status base_limit_fail(struct base_diag *d, const char *file, int line, int col, const struct base_limits *l,
                                 enum base_limit k, uint64_t value, const char *fmt, ...)
{
    char ctx[BASE_DIAG_MSG_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx, sizeof ctx, fmt, ap);
    va_end(ap);
    return base_diag_set(d, BASE_ERR_LIMIT, file, line, col,
                         "%s: %llu is over the %s limit of %llu (%s; raise it with --limit %s=N)", ctx,
                         (unsigned long long)value, base_limit_name(k), (unsigned long long)base_limit(l, k),
                         base_limit_what(k), base_limit_name(k));
}

enum base_status base_diag_ensure(struct base_diag *d, enum base_status st, const char *file, const char *what)
{
    if (st == BASE_OK || !d || d->msg[0]) return st;
    base_diag_set(d, st, file ? file : "", 0, 0, "%s while %s",
                  st == BASE_ERR_NOMEM ? "out of memory" : base_status_str(st), what);
    return st;
}
