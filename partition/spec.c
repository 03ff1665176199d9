/* Meshes and shardings: the command-line spellings, and the attributes an
 * export writes on the entry's arguments (sdy.sharding with the module's
 * sdy.mesh, or mhlo.sharding tile assignments). */
#include "partition/part_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fmt must be a literal with one %s (the text given) */
#define bad(diag, fmt, s) base_diag_set((diag), BASE_ERR_INVALID, NULL, 0, 0, fmt, (s))

int64_t part_mesh_size(const struct part_mesh *mesh)
{
    int64_t n = 1;
    for (int a = 0; mesh && a < mesh->n_axes; a++) n *= mesh->sizes[a];
    return n;
}

void part_sharding_replicated(struct part_sharding *s, int rank)
{
    memset(s, 0, sizeof *s);
    s->rank = rank;
}

static const char *const k_default_names[PART_MAX_AXES] = {"x", "y", "z", "w", "v", "u", "t", "s"};

enum base_status part_parse_mesh(const char *s, struct part_mesh *out, struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!s || !*s) return bad(diag, "empty mesh%s: expected \"data=4,model=2\" or \"4x2\"", "");
    bool named = strchr(s, '=') != NULL;
    const char *p = s;
    int64_t total = 1;
    while (*p) {
        if (out->n_axes == PART_MAX_AXES)
            return base_diag_set(diag, BASE_ERR_LIMIT, NULL, 0, 0, "mesh '%s': more than %d axes", s, PART_MAX_AXES);
        int a = out->n_axes;
        if (named) {
            const char *b = p;
            while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.')) p++;
            size_t n = (size_t)(p - b);
            if (!n || *p != '=') return bad(diag, "mesh '%s': expected NAME=SIZE for each axis", s);
            if (n >= PART_AXIS_NAME_MAX) return bad(diag, "mesh '%s': an axis name is too long", s);
            memcpy(out->names[a], b, n);
            for (int k = 0; k < a; k++)
                if (!strcmp(out->names[k], out->names[a])) return bad(diag, "mesh '%s': an axis is named twice", s);
            p++;
        } else {
            snprintf(out->names[a], sizeof out->names[a], "%s", k_default_names[a]);
        }
        if (!isdigit((unsigned char)*p)) return bad(diag, "mesh '%s': expected an axis size", s);
        char *end;
        long long v = strtoll(p, &end, 10);
        if (v < 1 || v > (1 << 20)) return bad(diag, "mesh '%s': an axis size must be in 1..1048576", s);
        out->sizes[a] = v;
        total *= v;
        if (total > (1 << 24)) return bad(diag, "mesh '%s': more than 16777216 devices", s);
        out->n_axes++;
        p = end;
        if (!*p) break;
        if (*p != (named ? ',' : 'x')) return bad(diag, named ? "mesh '%s': expected ',' between axes" :
                                                               "mesh '%s': expected 'x' between sizes", s);
        p++;
        if (!*p) return bad(diag, "mesh '%s': ends after a separator", s);
    }
    return BASE_OK;
}

static int axis_of(const struct part_mesh *mesh, const char *name, size_t n)
{
    for (int a = 0; a < mesh->n_axes; a++)
        if (strlen(mesh->names[a]) == n && !memcmp(mesh->names[a], name, n)) return a;
    return -1;
}

/* Adds axis a to dim d of s; false when an axis repeats or a dim has too many. */
static bool add_axis(struct part_sharding *s, int d, int a)
{
    for (int dd = 0; dd < BASE_MAX_RANK; dd++)
        for (int k = 0; k < s->n_axes[dd]; k++)
            if (s->axes[dd][k] == a) return false;
    if (s->n_axes[d] == PART_MAX_DIM_AXES) return false;
    s->axes[d][s->n_axes[d]++] = a;
    return true;
}

enum base_status part_parse_sharding(const char *s, const struct part_mesh *mesh, struct part_sharding *out,
                                     struct base_diag *diag)
{
    part_sharding_replicated(out, -1);
    if (!s || !*s || !strcmp(s, "replicated")) return BASE_OK;
    const char *p = s;
    int d = 0;
    for (;;) {
        if (d == BASE_MAX_RANK) return bad(diag, "sharding '%s': too many dims", s);
        while (*p == ' ') p++;
        bool brace = *p == '{';
        if (brace) p++;
        for (;;) {
            while (*p == ' ') p++;
            if (brace && *p == '}') break;
            const char *b = p;
            while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.')) p++;
            size_t n = (size_t)(p - b);
            if (!n) return bad(diag, "sharding '%s': expected an axis name or '_'", s);
            if (!(n == 1 && b[0] == '_')) {
                int a = axis_of(mesh, b, n);
                if (a < 0)
                    return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0,
                                         "sharding '%s': unknown axis '%.*s' (the mesh has %d axes)", s, (int)n, b,
                                         mesh->n_axes);
                if (!add_axis(out, d, a))
                    return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0,
                                         "sharding '%s': axis '%.*s' used twice (or more than %d axes on a dim)", s,
                                         (int)n, b, PART_MAX_DIM_AXES);
            }
            while (*p == ' ') p++;
            if (!brace) break;
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p != '}') return bad(diag, "sharding '%s': expected ',' or '}' in a set of axes", s);
        }
        if (brace) p++;
        d++;
        while (*p == ' ') p++;
        if (!*p) break;
        if (*p != ',') return bad(diag, "sharding '%s': expected ',' between dims", s);
        p++;
    }
    out->rank = d;
    return BASE_OK;
}

void part_sharding_str(const struct part_sharding *s, const struct part_mesh *mesh, char *buf, size_t cap)
{
    size_t n = 0;
    if (!cap) return;
    buf[0] = 0;
#define PUT(...)                                                        \
    do {                                                                \
        int w_ = snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__); \
        if (w_ > 0) n += (size_t)w_;                                    \
    } while (0)
    if (s->rank < 0) {
        PUT("replicated");
        return;
    }
    PUT("[");
    for (int d = 0; d < s->rank; d++) {
        if (d) PUT(", ");
        if (!s->n_axes[d]) PUT("_");
        if (s->n_axes[d] > 1) PUT("{");
        for (int k = 0; k < s->n_axes[d]; k++) PUT("%s%s", k ? "," : "", mesh->names[s->axes[d][k]]);
        if (s->n_axes[d] > 1) PUT("}");
    }
    PUT("]");
#undef PUT
    if (n >= cap) buf[cap - 1] = 0;
}

/* ------------------------------------------------------------------------ */
/* Attributes of the graph                                                   */

static bool attr_str(const struct graph_attr *a, const char **s, size_t *n)
{
    if (!a || (a->kind != GRAPH_ATTR_STRING && a->kind != GRAPH_ATTR_SYMBOL)) return false;
    *s = a->u.str.s;
    *n = a->u.str.len;
    return true;
}

enum base_status part_mesh_from_module(const struct graph_module *m, struct part_mesh *out, bool *found,
                                       struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    *found = false;
    for (int i = 0; i < m->body.n_ops; i++) {
        const struct graph_op *op = m->body.ops[i];
        if (op->kind != GRAPH_OP_SDY_MESH) continue;
        const struct graph_attr *mesh = graph_op_attr(op, "mesh");
        const struct graph_attr *axes = mesh && mesh->kind == GRAPH_ATTR_DICT ? graph_dict_get(mesh, "axes") : NULL;
        if (!axes || axes->kind != GRAPH_ATTR_ARRAY)
            return graph_op_diag(diag, op, BASE_ERR_INVALID, "sdy.mesh: expected a list of axes");
        if (axes->u.array.n > PART_MAX_AXES)
            return graph_op_diag(diag, op, BASE_ERR_LIMIT, "sdy.mesh: more than %d axes", PART_MAX_AXES);
        const struct graph_attr *ids = graph_dict_get(mesh, "device_ids");
        if (ids && ids->kind == GRAPH_ATTR_DENSE_ARRAY && ids->u.dense.i)
            for (int k = 0; k < ids->u.dense.n; k++)
                if (ids->u.dense.i[k] != k)
                    return graph_op_diag(diag, op, BASE_ERR_UNSUPPORTED,
                                         "sdy.mesh: explicit device_ids other than 0, 1, ... are not supported");
        for (int a = 0; a < axes->u.array.n; a++) {
            const struct graph_attr *ax = axes->u.array.items[a];
            const char *s;
            size_t n;
            int64_t size = 0;
            if (!attr_str(graph_dict_get(ax, "name"), &s, &n) || !graph_attr_as_i64(graph_dict_get(ax, "size"), &size) ||
                size < 1 || n >= PART_AXIS_NAME_MAX)
                return graph_op_diag(diag, op, BASE_ERR_INVALID, "sdy.mesh: axis %d is malformed", a);
            memcpy(out->names[a], s, n);
            out->sizes[a] = size;
        }
        out->n_axes = axes->u.array.n;
        *found = true;
        return BASE_OK;
    }
    return BASE_OK;
}

/* An mhlo.sharding string: {replicated}, {maximal device=N}, or
 * {devices=[t0,t1,...]<=[N]} / {devices=[t0,...]0,1,2,...} with an optional
 * last_tile_dim_replicate. */
struct mhlo_tiling {
    bool tiled;       /* false: replicated */
    int n_tiles;
    int64_t tiles[BASE_MAX_RANK + 1];
    bool last_replicated;
};

static enum base_status parse_mhlo(const char *s, size_t n, const struct graph_op *func, int arg,
                                   struct mhlo_tiling *t, struct base_diag *diag)
{
    memset(t, 0, sizeof *t);
    char buf[512];
    if (n >= sizeof buf)
        return graph_op_diag(diag, func, BASE_ERR_UNSUPPORTED, "argument %d: mhlo.sharding is too long", arg);
    memcpy(buf, s, n);
    buf[n] = 0;
    const char *p = buf;
    while (*p == ' ') p++;
    if (!*p) return BASE_OK; /* "" : no sharding */
    if (strstr(p, "replicated") && !strstr(p, "devices=")) return BASE_OK;
    if (strstr(p, "maximal")) return BASE_OK; /* one device holds it: run it replicated */
    const char *dv = strstr(p, "devices=[");
    if (!dv || strstr(p, "manual") || strstr(p, "last_tile_dims") || strchr(p, '('))
        return graph_op_diag(diag, func, BASE_ERR_UNSUPPORTED,
                             "argument %d: mhlo.sharding \"%s\": only {replicated} and {devices=[...]<=[N]} tilings "
                             "(optionally last_tile_dim_replicate) are supported",
                             arg, buf);
    p = dv + 9;
    int64_t total = 1;
    for (;;) {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || v < 1 || t->n_tiles > BASE_MAX_RANK)
            return graph_op_diag(diag, func, BASE_ERR_INVALID, "argument %d: mhlo.sharding \"%s\": bad tile list", arg,
                                 buf);
        t->tiles[t->n_tiles++] = v;
        total *= v;
        p = end;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p != ']')
            return graph_op_diag(diag, func, BASE_ERR_INVALID, "argument %d: mhlo.sharding \"%s\": bad tile list", arg,
                                 buf);
        p++;
        break;
    }
    if (!strncmp(p, "<=[", 3)) {
        char *end;
        long long v = strtoll(p + 3, &end, 10);
        if (v != total || *end != ']')
            return graph_op_diag(diag, func, BASE_ERR_UNSUPPORTED,
                                 "argument %d: mhlo.sharding \"%s\": only a plain iota device list <=[N] with N the "
                                 "product of the tiles is supported",
                                 arg, buf);
        p = end + 1;
    } else { /* explicit device list: must be 0, 1, 2, ... */
        for (int64_t k = 0; k < total; k++) {
            char *end;
            long long v = strtoll(p, &end, 10);
            if (end == p || v != k)
                return graph_op_diag(diag, func, BASE_ERR_UNSUPPORTED,
                                     "argument %d: mhlo.sharding \"%s\": only devices in order 0, 1, ... are supported",
                                     arg, buf);
            p = end;
            if (*p == ',') p++;
        }
    }
    t->last_replicated = strstr(p, "last_tile_dim_replicate") != NULL;
    t->tiled = true;
    return BASE_OK;
}

static const struct graph_attr *arg_attr(const struct graph_op *func, int i, const char *name)
{
    const struct graph_attr *aa = graph_op_attr(func, "arg_attrs");
    if (!aa || aa->kind != GRAPH_ATTR_ARRAY || i >= aa->u.array.n) return NULL;
    const struct graph_attr *d = aa->u.array.items[i];
    return d && d->kind == GRAPH_ATTR_DICT ? graph_dict_get(d, name) : NULL;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

enum base_status part_mesh_from_mhlo(const struct graph_op *func, struct part_mesh *out, bool *found,
                                     struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    *found = false;
    const struct graph_block *b = &func->regions[0].blocks[0];
    /* every tiling's running products of tile counts: the mesh's must hold
     * them all, so its axes are the ratios of their sorted union */
    int64_t cuts[64];
    int n_cuts = 0;
    int64_t total = 0;
    for (int i = 0; i < b->n_args; i++) {
        const char *s;
        size_t n;
        if (!attr_str(arg_attr(func, i, "mhlo.sharding"), &s, &n)) continue;
        struct mhlo_tiling t;
        TRY(parse_mhlo(s, n, func, i, &t, diag));
        if (!t.tiled) continue;
        int64_t c = 1;
        for (int k = 0; k < t.n_tiles; k++) {
            c *= t.tiles[k];
            if (n_cuts < 64) cuts[n_cuts++] = c;
        }
        if (total && c != total)
            return graph_op_diag(diag, func, BASE_ERR_INVALID,
                                 "argument %d: mhlo.sharding tiles %lld devices, an earlier argument %lld", i,
                                 (long long)c, (long long)total);
        total = c;
    }
    if (!total) return BASE_OK;
    qsort(cuts, (size_t)n_cuts, sizeof cuts[0], cmp_i64);
    int64_t prev = 1;
    for (int k = 0; k < n_cuts; k++) {
        if (cuts[k] == prev) continue;
        if (cuts[k] % prev)
            return graph_op_diag(diag, func, BASE_ERR_UNSUPPORTED,
                                 "the arguments' mhlo.sharding tilings fit no common mesh (%lld does not divide %lld); "
                                 "give --mesh",
                                 (long long)prev, (long long)cuts[k]);
        if (out->n_axes == PART_MAX_AXES)
            return graph_op_diag(diag, func, BASE_ERR_LIMIT, "mhlo.sharding tilings need more than %d mesh axes",
                                 PART_MAX_AXES);
        snprintf(out->names[out->n_axes], sizeof out->names[0], "%s", k_default_names[out->n_axes]);
        out->sizes[out->n_axes++] = cuts[k] / prev;
        prev = cuts[k];
    }
    if (!out->n_axes) { /* every tiling is trivial */
        snprintf(out->names[0], sizeof out->names[0], "x");
        out->sizes[0] = 1;
        out->n_axes = 1;
    }
    *found = true;
    return BASE_OK;
}

static enum base_status from_mhlo(const struct graph_op *func, int i, int rank, const char *s, size_t n,
                                  const struct part_mesh *mesh, struct part_sharding *out, bool *found,
                                  struct base_diag *diag)
{
    struct mhlo_tiling t;
    TRY(parse_mhlo(s, n, func, i, &t, diag));
    part_sharding_replicated(out, rank);
    if (!t.tiled) {
        *found = n > 0;
        return BASE_OK;
    }
    if (t.n_tiles != rank + (t.last_replicated ? 1 : 0))
        return graph_op_diag(diag, func, BASE_ERR_INVALID,
                             "argument %d: mhlo.sharding has %d tile dims for a tensor of rank %d", i, t.n_tiles, rank);
    int a = 0;
    for (int d = 0; d < t.n_tiles; d++) {
        int64_t want = t.tiles[d], got = 1;
        while (got < want && a < mesh->n_axes) {
            if (d < rank && mesh->sizes[a] > 1 && !add_axis(out, d, a))
                return graph_op_diag(diag, func, BASE_ERR_LIMIT, "argument %d: too many mesh axes on dim %d", i, d);
            got *= mesh->sizes[a++];
        }
        if (got != want)
            return graph_op_diag(diag, func, BASE_ERR_INVALID,
                                 "argument %d: mhlo.sharding tile count %lld of dim %d is not a product of consecutive "
                                 "mesh axes",
                                 i, (long long)want, d);
    }
    while (a < mesh->n_axes && mesh->sizes[a] == 1) a++;
    if (a != mesh->n_axes)
        return graph_op_diag(diag, func, BASE_ERR_INVALID,
                             "argument %d: mhlo.sharding tiles fewer devices than the mesh has (%lld)", i,
                             (long long)part_mesh_size(mesh));
    *found = true;
    return BASE_OK;
}

/* A #sdy.sharding attribute of rank dims over mesh; errors located at op,
 * naming what carries it. */
static enum base_status from_sdy_at(const struct graph_op *op, const char *what, int rank, const struct graph_attr *sh,
                                    const struct part_mesh *mesh, struct part_sharding *out, struct base_diag *diag)
{
    part_sharding_replicated(out, rank);
    const struct graph_attr *dims = sh && sh->kind == GRAPH_ATTR_DICT ? graph_dict_get(sh, "dims") : NULL;
    if (!dims) return BASE_OK;
    if (dims->kind != GRAPH_ATTR_ARRAY || dims->u.array.n != rank)
        return graph_op_diag(diag, op, BASE_ERR_INVALID, "%s: sdy.sharding has %d dims, the tensor rank %d", what,
                             dims->kind == GRAPH_ATTR_ARRAY ? dims->u.array.n : -1, rank);
    for (int d = 0; d < rank; d++) {
        const struct graph_attr *axes = dims->u.array.items[d];
        if (!axes || axes->kind != GRAPH_ATTR_ARRAY) continue;
        for (int k = 0; k < axes->u.array.n; k++) {
            const struct graph_attr *ax = axes->u.array.items[k];
            if (ax->kind == GRAPH_ATTR_KEYWORD) continue; /* '?' and priorities */
            const char *s;
            size_t n;
            if (!attr_str(ax, &s, &n) || (ax->tag && !strcmp(ax->tag, "sdy.sub_axis")))
                return graph_op_diag(diag, op, BASE_ERR_UNSUPPORTED,
                                     "%s: dim %d of its sdy.sharding uses a sub-axis, which is not supported", what, d);
            int a = axis_of(mesh, s, n);
            if (a < 0)
                return graph_op_diag(diag, op, BASE_ERR_INVALID,
                                     "%s: dim %d of its sdy.sharding names axis \"%.*s\", not in the mesh", what, d,
                                     (int)n, s);
            if (!add_axis(out, d, a))
                return graph_op_diag(diag, op, BASE_ERR_INVALID, "%s: axis \"%.*s\" appears twice in its sdy.sharding",
                                     what, (int)n, s);
        }
    }
    return BASE_OK;
}

static enum base_status from_sdy(const struct graph_op *func, int i, int rank, const struct graph_attr *sh,
                                 const struct part_mesh *mesh, struct part_sharding *out, struct base_diag *diag)
{
    char what[32];
    snprintf(what, sizeof what, "argument %d", i);
    return from_sdy_at(func, what, rank, sh, mesh, out, diag);
}

enum base_status part_sdy_sharding(const struct graph_op *op, const char *what, int rank, const struct graph_attr *sh,
                                   const struct part_mesh *mesh, struct part_sharding *out, struct base_diag *diag)
{
    return from_sdy_at(op, what, rank, sh, mesh, out, diag);
}

enum base_status part_arg_sharding(const struct graph_op *func, int i, int rank, const struct part_mesh *mesh,
                                   struct part_sharding *out, bool *found, struct base_diag *diag)
{
    *found = false;
    part_sharding_replicated(out, rank);
    const struct graph_attr *sdy = arg_attr(func, i, "sdy.sharding");
    if (sdy && sdy->kind == GRAPH_ATTR_DICT) {
        TRY(from_sdy(func, i, rank, sdy, mesh, out, diag));
        *found = true;
        return BASE_OK;
    }
    const char *s;
    size_t n;
    if (attr_str(arg_attr(func, i, "mhlo.sharding"), &s, &n)) return from_mhlo(func, i, rank, s, n, mesh, out, found, diag);
    return BASE_OK;
}
