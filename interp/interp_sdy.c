/* Shardy (sdy) support: meshes, shardings and sdy.manual_computation.
 *
 * An SPMD program runs on one process per mesh device (num_partitions =
 * mesh size).  Device d sits at mesh coordinates given by d's position in the
 * mesh (row-major over the axes in their written order, or the position of d
 * in `device_ids` when the mesh lists them).  Every process runs the whole
 * program on global values; at an sdy.manual_computation it cuts its own
 * shard of each operand (in_shardings: the dims split over the manual axes),
 * runs the body on the shards, and rebuilds the global results from the
 * shards of all processes (out_shardings) through a rendezvous.  Manual axes
 * a result is not split over hold replicas: the process at coordinate 0 of
 * those axes provides them.  The rebuilt tensors are shared by all processes
 * (each process assembles a share of them, then they are exchanged). */
#include "interp/interp_internal.h"

#include <stdlib.h>
#include <string.h>

#define SDY_MAX_AXES 16

struct sdy_mesh {
    int n_axes;
    char names[SDY_MAX_AXES][64];
    int64_t sizes[SDY_MAX_AXES];
    int64_t n_devices;
    const int64_t *device_ids; /* n_devices of them, or NULL: identity */
};

/* One entry of a dimension's axis list: mesh axis `axis`, or the sub-axis
 * of size `size` above the `pre` minor devices of it ("x":(pre)size). */
struct sdy_axis_ref {
    int axis;
    int64_t pre;
    int64_t size;
};

static bool str_is(const struct graph_attr *a, const char *s)
{
    return a && (a->kind == GRAPH_ATTR_STRING || a->kind == GRAPH_ATTR_SYMBOL) && strlen(s) == a->u.str.len &&
           !memcmp(a->u.str.s, s, a->u.str.len);
}

static const struct graph_op *find_mesh_op(const struct graph_module *m, const char *name, size_t len)
{
    for (int i = 0; i < m->body.n_ops; i++) {
        const struct graph_op *op = m->body.ops[i];
        if (op->kind != GRAPH_OP_SDY_MESH) continue;
        if (!name) return op;
        const struct graph_attr *sym = graph_op_attr(op, "sym_name");
        if (sym && (sym->kind == GRAPH_ATTR_STRING || sym->kind == GRAPH_ATTR_SYMBOL) && sym->u.str.len == len &&
            !memcmp(sym->u.str.s, name, len))
            return op;
    }
    return NULL;
}

/* Reads a mesh attribute (DICT {axes, device_ids}).  Returns false if it is
 * not one. */
static bool mesh_from_attr(const struct graph_attr *mesh, struct sdy_mesh *out)
{
    memset(out, 0, sizeof *out);
    out->n_devices = 1;
    if (!mesh || mesh->kind != GRAPH_ATTR_DICT) return false;
    const struct graph_attr *axes = graph_dict_get(mesh, "axes");
    if (axes && axes->kind != GRAPH_ATTR_ARRAY) return false;
    int n = axes ? axes->u.array.n : 0;
    if (n > SDY_MAX_AXES) return false;
    for (int i = 0; i < n; i++) {
        const struct graph_attr *ax = axes->u.array.items[i];
        const struct graph_attr *name = graph_dict_get(ax, "name");
        int64_t size = 0;
        if (!name || (name->kind != GRAPH_ATTR_STRING && name->kind != GRAPH_ATTR_SYMBOL) ||
            !graph_attr_as_i64(graph_dict_get(ax, "size"), &size) || size < 1 || size > (1 << 20))
            return false;
        snprintf(out->names[i], sizeof out->names[i], "%.*s", (int)name->u.str.len, name->u.str.s);
        out->sizes[i] = size;
        out->n_devices *= size;
    }
    out->n_axes = n;
    const struct graph_attr *ids = graph_dict_get(mesh, "device_ids");
    if (ids && ids->kind == GRAPH_ATTR_DENSE_ARRAY && ids->u.dense.i && ids->u.dense.n == out->n_devices)
        out->device_ids = ids->u.dense.i;
    return true;
}

int interp_module_mesh_size(const struct graph_module *m)
{
    if (!m) return 1;
    const struct graph_op *op = find_mesh_op(m, NULL, 0);
    struct sdy_mesh mesh;
    if (!op || !mesh_from_attr(graph_op_attr(op, "mesh"), &mesh)) return 1;
    return mesh.n_devices > 0 && mesh.n_devices <= INT32_MAX ? (int)mesh.n_devices : 1;
}

/* The mesh a sharding refers to. */
static enum base_status sharding_mesh(struct interp_proc *p, const struct graph_op *op,
                                      const struct graph_attr *sharding, struct sdy_mesh *mesh)
{
    const struct graph_attr *ref = sharding && sharding->kind == GRAPH_ATTR_DICT ? graph_dict_get(sharding, "mesh")
                                                                                  : NULL;
    if (ref && ref->kind == GRAPH_ATTR_DICT) { /* inline mesh */
        if (mesh_from_attr(ref, mesh)) return BASE_OK;
        return interp_fail(p, op, BASE_ERR_INVALID, "malformed inline mesh in a sharding");
    }
    const struct graph_op *mop = ref && ref->kind == GRAPH_ATTR_SYMBOL
                                     ? find_mesh_op(p->module, ref->u.str.s, ref->u.str.len)
                                     : NULL;
    if (!mop && ref && ref->kind == GRAPH_ATTR_SYMBOL)
        return interp_fail(p, op, BASE_ERR_INVALID, "no sdy.mesh @%.*s in the module", (int)ref->u.str.len,
                           ref->u.str.s);
    if (!mop) mop = find_mesh_op(p->module, NULL, 0);
    if (!mop) return interp_fail(p, op, BASE_ERR_INVALID, "sharding without a mesh, and the module has no sdy.mesh");
    if (!mesh_from_attr(graph_op_attr(mop, "mesh"), mesh))
        return interp_fail(p, op, BASE_ERR_INVALID, "malformed sdy.mesh attribute");
    return BASE_OK;
}

static int axis_index(const struct sdy_mesh *mesh, const char *name, size_t len)
{
    for (int a = 0; a < mesh->n_axes; a++)
        if (strlen(mesh->names[a]) == len && !memcmp(mesh->names[a], name, len)) return a;
    return -1;
}

/* Parses `x`, `"x"` or `"x":(pre)size` (also without the quotes). */
static bool parse_axis_ref(const struct sdy_mesh *mesh, const struct graph_attr *a, struct sdy_axis_ref *r)
{
    if (!a || (a->kind != GRAPH_ATTR_STRING && a->kind != GRAPH_ATTR_SYMBOL)) return false;
    const char *s = a->u.str.s;
    size_t len = a->u.str.len;
    const char *colon = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == ':' && s[i + 1] == '(') colon = s + i;
    size_t name_len = colon ? (size_t)(colon - s) : len;
    const char *name = s;
    if (name_len >= 2 && name[0] == '"' && name[name_len - 1] == '"') {
        name++;
        name_len -= 2;
    }
    r->axis = axis_index(mesh, name, name_len);
    if (r->axis < 0) return false;
    r->pre = 1;
    r->size = mesh->sizes[r->axis];
    if (colon) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*s", (int)(len - (size_t)(colon - s)), colon);
        long long pre = 0, size = 0;
        if (sscanf(buf, ":(%lld)%lld", &pre, &size) != 2 || pre < 1 || size < 1 ||
            mesh->sizes[r->axis] % (pre * size))
            return false;
        r->pre = pre;
        r->size = size;
    }
    return true;
}

static bool axis_is_manual(const struct graph_attr *manual, const char *name)
{
    if (!manual || manual->kind != GRAPH_ATTR_ARRAY) return false;
    for (int i = 0; i < manual->u.array.n; i++) {
        const struct graph_attr *a = manual->u.array.items[i];
        if (str_is(a, name)) return true;
        /* tolerate quoted spellings */
        if (a && a->kind == GRAPH_ATTR_STRING && a->u.str.len == strlen(name) + 2 && a->u.str.s[0] == '"' &&
            !memcmp(a->u.str.s + 1, name, strlen(name)))
            return true;
    }
    return false;
}

/* Mesh coordinates of the device at mesh position pos (row-major). */
static void coords_of(const struct sdy_mesh *mesh, int64_t pos, int64_t *coords)
{
    for (int a = mesh->n_axes - 1; a >= 0; a--) {
        coords[a] = pos % mesh->sizes[a];
        pos /= mesh->sizes[a];
    }
}

static int64_t ref_coord(const struct sdy_axis_ref *r, const int64_t *coords)
{
    return (coords[r->axis] / r->pre) % r->size;
}

/* How a tensor of global shape `global` is split over the manual axes of a
 * sharding: per dim, the number of shards and, for given coordinates, the
 * shard index. */
struct sdy_split {
    int rank;
    int n_refs[GRAPH_MAX_RANK];
    struct sdy_axis_ref refs[GRAPH_MAX_RANK][SDY_MAX_AXES];
    int64_t parts[GRAPH_MAX_RANK];
    bool uses_axis[SDY_MAX_AXES]; /* manual axes this tensor is split over */
    bool split;                   /* any dim split */
};

static enum base_status split_from_sharding(struct interp_proc *p, const struct graph_op *op, const char *what,
                                            int idx, const struct graph_attr *sharding, const struct sdy_mesh *mesh,
                                            const struct graph_attr *manual, int rank, struct sdy_split *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->rank = rank;
    for (int d = 0; d < rank; d++) sp->parts[d] = 1;
    if (!sharding || sharding->kind != GRAPH_ATTR_DICT)
        return interp_fail(p, op, BASE_ERR_INVALID, "%s %d: sharding must be #sdy.sharding<...>", what, idx);
    const struct graph_attr *dims = graph_dict_get(sharding, "dims");
    if (!dims) return BASE_OK; /* fully replicated */
    if (dims->kind != GRAPH_ATTR_ARRAY || (dims->u.array.n != rank && rank >= 0))
        return interp_fail(p, op, BASE_ERR_INVALID, "%s %d: sharding has %d dims, the tensor has rank %d", what, idx,
                           dims->kind == GRAPH_ATTR_ARRAY ? dims->u.array.n : -1, rank);
    for (int d = 0; d < rank; d++) {
        const struct graph_attr *axes = dims->u.array.items[d];
        if (axes && axes->kind == GRAPH_ATTR_DICT) axes = graph_dict_get(axes, "axes");
        if (!axes) continue;
        if (axes->kind != GRAPH_ATTR_ARRAY)
            return interp_fail(p, op, BASE_ERR_INVALID, "%s %d: dim %d of the sharding is not a list of axes", what,
                               idx, d);
        for (int k = 0; k < axes->u.array.n; k++) {
            struct sdy_axis_ref r;
            const struct graph_attr *a = axes->u.array.items[k];
            if (a && a->kind == GRAPH_ATTR_KEYWORD) continue; /* '?' (open) and priorities (p0) */
            if (!parse_axis_ref(mesh, a, &r))
                return interp_fail(p, op, BASE_ERR_INVALID, "%s %d: dim %d names an axis that is not in the mesh (%.*s)",
                                   what, idx, d, a && a->kind == GRAPH_ATTR_STRING ? (int)a->u.str.len : 1,
                                   a && a->kind == GRAPH_ATTR_STRING ? a->u.str.s : "?");
            if (!axis_is_manual(manual, mesh->names[r.axis])) continue; /* free axis: not split here */
            if (sp->n_refs[d] >= SDY_MAX_AXES)
                return interp_fail(p, op, BASE_ERR_LIMIT, "%s %d: too many axes on dim %d", what, idx, d);
            sp->refs[d][sp->n_refs[d]++] = r;
            sp->parts[d] *= r.size;
            sp->uses_axis[r.axis] = true;
            sp->split = true;
        }
    }
    return BASE_OK;
}

/* Shard index along each dim for the given coordinates (major axis first). */
static void shard_index(const struct sdy_split *sp, const int64_t *coords, int64_t *idx)
{
    for (int d = 0; d < sp->rank; d++) {
        int64_t v = 0;
        for (int k = 0; k < sp->n_refs[d]; k++) v = v * sp->refs[d][k].size + ref_coord(&sp->refs[d][k], coords);
        idx[d] = v;
    }
}

static const struct graph_attr *list_item(const struct graph_attr *list, int i)
{
    if (!list) return NULL;
    if (list->kind == GRAPH_ATTR_DICT) { /* #sdy.sharding_per_value<[...]> */
        const struct graph_attr *s = graph_dict_get(list, "shardings");
        list = s;
    }
    if (!list || list->kind != GRAPH_ATTR_ARRAY || i >= list->u.array.n) return NULL;
    return list->u.array.items[i];
}

static int list_len(const struct graph_attr *list)
{
    if (list && list->kind == GRAPH_ATTR_DICT) list = graph_dict_get(list, "shardings");
    return list && list->kind == GRAPH_ATTR_ARRAY ? list->u.array.n : 0;
}

/* The process that is device `dev` of the mesh. */
static int process_of_device(const struct interp_proc *p, bool by_partition, int64_t dev)
{
    return by_partition ? (int)(p->replica_id * p->num_partitions + dev) : (int)dev;
}

struct mc_ctx {
    struct sdy_mesh mesh;
    bool by_partition;        /* devices are partitions (else: processes) */
    int64_t my_coords[SDY_MAX_AXES];
    bool manual[SDY_MAX_AXES];
    int n_group;
    int *group;               /* processes sharing my free-axis coordinates */
    int64_t *group_coords;    /* n_group x SDY_MAX_AXES */
};

static enum base_status mc_setup(struct interp_proc *p, const struct graph_op *op, const struct graph_attr *manual,
                                 const struct graph_attr *any_sharding, struct mc_ctx *cx)
{
    memset(cx, 0, sizeof *cx);
    TRY(sharding_mesh(p, op, any_sharding, &cx->mesh));
    const struct sdy_mesh *mesh = &cx->mesh;
    int n_proc = p->num_replicas * p->num_partitions;
    int64_t dev;
    if (mesh->n_devices == p->num_partitions) {
        cx->by_partition = true;
        dev = p->partition_id;
    } else if (mesh->n_devices == n_proc) {
        dev = p->process_id;
    } else if (mesh->n_devices == 1) {
        cx->by_partition = true;
        dev = 0;
    } else {
        return interp_fail(p, op, BASE_ERR_INVALID,
                           "the mesh has %lld devices: run with num_partitions = %lld (this run has %d replicas x %d "
                           "partitions)",
                           (long long)mesh->n_devices, (long long)mesh->n_devices, p->num_replicas, p->num_partitions);
    }
    int64_t pos = dev;
    if (mesh->device_ids) {
        pos = -1;
        for (int64_t k = 0; k < mesh->n_devices; k++)
            if (mesh->device_ids[k] == dev) pos = k;
        if (pos < 0) return interp_fail(p, op, BASE_ERR_INVALID, "device %lld is not in the mesh", (long long)dev);
    }
    coords_of(mesh, pos, cx->my_coords);
    for (int a = 0; a < mesh->n_axes; a++) cx->manual[a] = axis_is_manual(manual, mesh->names[a]);
    /* the processes that differ from me in manual-axis coordinates only */
    cx->group = malloc((size_t)mesh->n_devices * sizeof *cx->group);
    cx->group_coords = malloc((size_t)mesh->n_devices * SDY_MAX_AXES * sizeof *cx->group_coords);
    if (!cx->group || !cx->group_coords) return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    for (int64_t k = 0; k < mesh->n_devices; k++) {
        int64_t c[SDY_MAX_AXES];
        coords_of(mesh, k, c);
        bool same = true;
        for (int a = 0; a < mesh->n_axes; a++)
            if (!cx->manual[a] && c[a] != cx->my_coords[a]) same = false;
        if (!same) continue;
        int64_t d = mesh->device_ids ? mesh->device_ids[k] : k;
        cx->group[cx->n_group] = process_of_device(p, cx->by_partition, d);
        memcpy(&cx->group_coords[(size_t)cx->n_group * SDY_MAX_AXES], c, sizeof c);
        cx->n_group++;
    }
    return BASE_OK;
}

static void mc_free(struct mc_ctx *cx)
{
    free(cx->group);
    free(cx->group_coords);
}

/* My shard of operand value v. */
static enum base_status cut_shard(struct interp_proc *p, const struct graph_op *op, int i, struct mc_ctx *cx,
                                  const struct graph_attr *sharding, const struct graph_attr *manual,
                                  struct interp_value *v, const struct graph_type *local_type,
                                  struct interp_value **out)
{
    *out = NULL;
    struct base_tensor *t = iv_t(v);
    if (!t) { /* tokens and tuples pass through */
        *out = interp_value_retain(v);
        return BASE_OK;
    }
    struct sdy_split sp;
    TRY(split_from_sharding(p, op, "operand", i, sharding, &cx->mesh, manual, t->rank, &sp));
    int64_t local[GRAPH_MAX_RANK], off[GRAPH_MAX_RANK], idx[GRAPH_MAX_RANK], zero[GRAPH_MAX_RANK] = {0};
    shard_index(&sp, cx->my_coords, idx);
    for (int d = 0; d < t->rank; d++) {
        if (t->dims[d] % sp.parts[d])
            return interp_fail(p, op, BASE_ERR_INVALID, "operand %d: dim %d of size %lld does not split into %lld shards",
                               i, d, (long long)t->dims[d], (long long)sp.parts[d]);
        local[d] = t->dims[d] / sp.parts[d];
        off[d] = idx[d] * local[d];
    }
    if (local_type && local_type->kind == GRAPH_TYPE_TENSOR && local_type->rank == t->rank)
        for (int d = 0; d < t->rank; d++)
            if (local_type->dims[d] != GRAPH_DYN && local_type->dims[d] != local[d])
                return interp_fail(p, op, BASE_ERR_INVALID,
                                   "operand %d: its shard has %lld elements in dim %d but the body expects %lld", i,
                                   (long long)local[d], d, (long long)local_type->dims[d]);
    if (!sp.split) {
        *out = interp_value_retain(v);
        return BASE_OK;
    }
    struct base_tensor *s = NULL;
    if (t->lazy) { /* a lazy input's shard is a lazy view of it: nothing stored */
        enum base_status st = base_tensor_box(t, off, local, &s);
        if (st != BASE_OK) return interp_fail(p, op, st, "cannot cut the shard of operand %d", i);
        return interp_set_out(p, op, out, 0, s);
    }
    enum base_status st = base_tensor_create(t->dtype, t->rank, local, &s);
    if (st != BASE_OK) return interp_fail(p, op, st, "cannot allocate the shard of operand %d", i);
    interp_copy_box(s, zero, t, off, local);
    return interp_set_out(p, op, out, 0, s);
}

/* Builds global result j from the local results of every group member
 * (locals[m] is member m's result j). */
static enum base_status assemble(struct interp_proc *p, const struct graph_op *op, int j, struct mc_ctx *cx,
                                 const struct graph_attr *sharding, const struct graph_attr *manual,
                                 struct interp_value *const *locals, struct interp_value **out)
{
    *out = NULL;
    struct interp_value *v0 = locals[0];
    const struct base_tensor *t0 = iv_t(v0);
    if (!t0) {
        *out = interp_value_retain(v0);
        return BASE_OK;
    }
    struct sdy_split sp;
    TRY(split_from_sharding(p, op, "result", j, sharding, &cx->mesh, manual, t0->rank, &sp));
    int64_t global[GRAPH_MAX_RANK];
    for (int d = 0; d < t0->rank; d++) global[d] = t0->dims[d] * sp.parts[d];
    const struct graph_type *rt = op->results[j].type;
    if (rt->kind == GRAPH_TYPE_TENSOR && rt->rank == t0->rank)
        for (int d = 0; d < t0->rank; d++)
            if (rt->dims[d] != GRAPH_DYN && rt->dims[d] != global[d])
                return interp_fail(p, op, BASE_ERR_INVALID,
                                   "result %d: shards of %lld in dim %d make %lld, the result type has %lld", j,
                                   (long long)t0->dims[d], d, (long long)global[d], (long long)rt->dims[d]);
    /* the provider of each shard: the member at coordinate 0 of every manual
     * axis the result is not split over */
    bool first = true;
    struct base_tensor *g = NULL;
    for (int m = 0; m < cx->n_group; m++) {
        const int64_t *c = &cx->group_coords[(size_t)m * SDY_MAX_AXES];
        bool provider = true;
        for (int a = 0; a < cx->mesh.n_axes; a++)
            if (cx->manual[a] && !sp.uses_axis[a] && c[a] != 0) provider = false;
        if (!provider) continue;
        const struct base_tensor *t = iv_t(locals[m]);
        if (!t || t->dtype != t0->dtype || t->rank != t0->rank ||
            memcmp(t->dims, t0->dims, (size_t)t->rank * sizeof t->dims[0])) {
            base_tensor_release(g);
            return interp_fail(p, op, BASE_ERR_INVALID, "result %d: the processes' shards differ in type", j);
        }
        if (!sp.split) { /* replicated: share the provider's tensor */
            *out = interp_value_retain(locals[m]);
            return BASE_OK;
        }
        if (first) {
            enum base_status st = base_tensor_create(t0->dtype, t0->rank, global, &g);
            if (st != BASE_OK) return interp_fail(p, op, st, "cannot allocate result %d", j);
            first = false;
        }
        int64_t idx[GRAPH_MAX_RANK], off[GRAPH_MAX_RANK], zero[GRAPH_MAX_RANK] = {0};
        shard_index(&sp, c, idx);
        for (int d = 0; d < t0->rank; d++) off[d] = idx[d] * t0->dims[d];
        struct base_tensor *dense = NULL; /* a body may return a lazy argument as it is */
        enum base_status st = base_tensor_materialize((struct base_tensor *)(uintptr_t)t, &dense);
        if (st != BASE_OK) {
            base_tensor_release(g);
            return interp_fail(p, op, st, "cannot read result %d of process %d", j, m);
        }
        interp_copy_box(g, off, dense, zero, t0->dims);
        base_tensor_release(dense);
    }
    if (!g) return interp_fail(p, op, BASE_ERR_INTERNAL, "result %d: no process provides it", j);
    return interp_set_out(p, op, out, 0, g);
}

static enum base_status k_manual_computation(struct interp_proc *p, const struct graph_op *op,
                                             struct interp_value *const *in, struct interp_value **out)
{
    if (op->n_regions < 1 || op->regions[0].n_blocks < 1)
        return interp_fail(p, op, BASE_ERR_INVALID, "sdy.manual_computation needs a body");
    const struct graph_attr *ins = graph_op_attr(op, "in_shardings");
    const struct graph_attr *outs = graph_op_attr(op, "out_shardings");
    const struct graph_attr *manual = graph_op_attr(op, "manual_axes");
    if (list_len(ins) != op->n_operands)
        return interp_fail(p, op, BASE_ERR_INVALID, "in_shardings has %d entries for %d operands", list_len(ins),
                           op->n_operands);
    if (list_len(outs) != op->n_results)
        return interp_fail(p, op, BASE_ERR_INVALID, "out_shardings has %d entries for %d results", list_len(outs),
                           op->n_results);
    const struct graph_block *body = &op->regions[0].blocks[0];
    if (body->n_args != op->n_operands)
        return interp_fail(p, op, BASE_ERR_INVALID, "the body takes %d arguments for %d operands", body->n_args,
                           op->n_operands);
    const struct graph_attr *any = op->n_operands ? list_item(ins, 0) : op->n_results ? list_item(outs, 0) : NULL;
    struct mc_ctx cx;
    enum base_status st = mc_setup(p, op, manual, any, &cx);
    int n_in = op->n_operands, n_out = op->n_results, n = cx.n_group;
    struct interp_value **args = calloc((size_t)(n_in ? n_in : 1), sizeof *args);
    struct interp_value **local = calloc((size_t)(n_out ? n_out : 1), sizeof *local);
    struct interp_value **all = calloc((size_t)(n ? n : 1), sizeof *all);
    struct interp_value **mine = calloc((size_t)(n_out ? n_out : 1), sizeof *mine);
    struct interp_value **all2 = calloc((size_t)(n ? n : 1), sizeof *all2);
    if (st == BASE_OK && (!args || !local || !all || !mine || !all2))
        st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    for (int i = 0; st == BASE_OK && i < n_in; i++)
        st = cut_shard(p, op, i, &cx, list_item(ins, i), manual, in[i], body->args[i].type, &args[i]);
    int got = 0;
    if (st == BASE_OK) {
        st = interp_call_region(p, &op->regions[0], n_in, args, local, n_out, &got);
        if (st == BASE_OK && got != n_out) {
            interp_values_release(local, got);
            st = interp_fail(p, op, BASE_ERR_INVALID, "the body returned %d values, %d expected", got, n_out);
        }
    }
    if (args) interp_values_release(args, n_in);
    /* phase 1: everyone's local results */
    struct interp_value *packed = NULL;
    if (st == BASE_OK) {
        packed = interp_value_tuple(n_out, local); /* takes the references */
        if (!packed) st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
        memset(local, 0, (size_t)(n_out ? n_out : 1) * sizeof *local);
    }
    if (st == BASE_OK) st = interp_rendezvous(p, op, cx.group, n, packed, all);
    interp_value_release(packed);
    /* phase 2: member m assembles the results j with j % n == m; then all
     * members swap the assembled tensors */
    int me = -1;
    for (int m = 0; m < n; m++)
        if (cx.group[m] == p->process_id) me = m;
    int n_mine = 0;
    struct interp_value **col = calloc((size_t)(n ? n : 1), sizeof *col);
    if (st == BASE_OK && !col) st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    for (int j = 0; st == BASE_OK && j < n_out; j++) {
        if (j % n != me) continue;
        for (int m = 0; m < n; m++) col[m] = all[m]->elems[j];
        st = assemble(p, op, j, &cx, list_item(outs, j), manual, col, &mine[n_mine]);
        if (st == BASE_OK) n_mine++;
    }
    free(col);
    if (all) interp_values_release(all, n);
    struct interp_value *share = NULL;
    if (st == BASE_OK) {
        share = interp_value_tuple(n_mine, mine);
        memset(mine, 0, (size_t)(n_out ? n_out : 1) * sizeof *mine);
        n_mine = 0;
        if (!share) st = interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }
    if (mine) interp_values_release(mine, n_mine);
    if (st == BASE_OK && n > 1) st = interp_rendezvous(p, op, cx.group, n, share, all2);
    else if (st == BASE_OK) all2[0] = interp_value_retain(share);
    interp_value_release(share);
    for (int j = 0; st == BASE_OK && j < n_out; j++) {
        struct interp_value *src = all2[j % n];
        if (!src || src->kind != IV_TUPLE || j / n >= src->n) {
            st = interp_fail(p, op, BASE_ERR_INTERNAL, "result %d missing after the exchange", j);
            break;
        }
        out[j] = interp_value_retain(src->elems[j / n]);
    }
    if (st != BASE_OK)
        for (int j = 0; j < n_out; j++) {
            interp_value_release(out[j]);
            out[j] = NULL;
        }
    if (all2) interp_values_release(all2, n);
    free(args);
    free(local);
    free(all);
    free(mine);
    free(all2);
    mc_free(&cx);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Shards for runtimes that run the body per partition (graph.h)             */

/* A process of a partitions-only grid, enough for mc_setup, cut_shard and
 * assemble (they read the module, the ids and report into p->diag). */
static void sdy_proc(struct interp_proc *p, const struct graph_module *m, const struct interp_options *opt,
                     int partition, int num_partitions)
{
    memset(p, 0, sizeof *p);
    p->module = m;
    p->opt = opt;
    p->num_replicas = 1;
    p->num_partitions = num_partitions;
    p->partition_id = p->process_id = partition;
}

static enum base_status sdy_setup(struct interp_proc *p, const struct graph_op *mc, struct mc_ctx *cx)
{
    memset(cx, 0, sizeof *cx);
    if (mc->kind != GRAPH_OP_SDY_MANUAL_COMPUTATION)
        return interp_fail(p, mc, BASE_ERR_INVALID, "%s is not an sdy.manual_computation", mc->name);
    const struct graph_attr *ins = graph_op_attr(mc, "in_shardings");
    const struct graph_attr *outs = graph_op_attr(mc, "out_shardings");
    const struct graph_attr *any = mc->n_operands ? list_item(ins, 0) : mc->n_results ? list_item(outs, 0) : NULL;
    return mc_setup(p, mc, graph_op_attr(mc, "manual_axes"), any, cx);
}

static enum base_status sdy_done(struct interp_proc *p, struct mc_ctx *cx, enum base_status st,
                                 struct base_diag *diag)
{
    mc_free(cx);
    if (st != BASE_OK && diag) *diag = p->diag;
    return st;
}

enum base_status interp_sdy_cut(const struct graph_module *m, const struct graph_op *mc, int operand, int partition,
                               int num_partitions, struct base_tensor *global, struct base_tensor **shard,
                               struct base_diag *diag)
{
    *shard = NULL;
    struct interp_options opt;
    memset(&opt, 0, sizeof opt);
    struct interp_proc p;
    sdy_proc(&p, m, &opt, partition, num_partitions);
    struct mc_ctx cx;
    enum base_status st = sdy_setup(&p, mc, &cx);
    if (st == BASE_OK && (operand < 0 || operand >= mc->n_operands))
        st = interp_fail(&p, mc, BASE_ERR_INVALID, "operand %d: the op has %d", operand, mc->n_operands);
    struct interp_value *v = NULL, *out = NULL;
    if (st == BASE_OK) {
        v = interp_value_tensor(base_tensor_retain(global));
        if (!v) st = interp_fail(&p, mc, BASE_ERR_NOMEM, "out of memory");
    }
    if (st == BASE_OK)
        st = cut_shard(&p, mc, operand, &cx, list_item(graph_op_attr(mc, "in_shardings"), operand),
                       graph_op_attr(mc, "manual_axes"), v, mc->regions[0].blocks[0].args[operand].type, &out);
    if (st == BASE_OK) *shard = base_tensor_retain(iv_t(out));
    interp_value_release(v);
    interp_value_release(out);
    return sdy_done(&p, &cx, st, diag);
}

enum base_status interp_sdy_assemble(const struct graph_module *m, const struct graph_op *mc, int result,
                                    int num_partitions, struct base_tensor *const *locals,
                                    struct base_tensor **global, struct base_diag *diag)
{
    *global = NULL;
    struct interp_options opt;
    memset(&opt, 0, sizeof opt);
    struct interp_proc p;
    sdy_proc(&p, m, &opt, 0, num_partitions);
    struct mc_ctx cx;
    enum base_status st = sdy_setup(&p, mc, &cx);
    if (st == BASE_OK && (result < 0 || result >= mc->n_results))
        st = interp_fail(&p, mc, BASE_ERR_INVALID, "result %d: the op has %d", result, mc->n_results);
    struct interp_value **col = calloc((size_t)num_partitions + 1, sizeof *col), *out = NULL;
    if (st == BASE_OK && !col) st = interp_fail(&p, mc, BASE_ERR_NOMEM, "out of memory");
    /* the group of partition 0: every partition when all axes are manual */
    for (int k = 0; st == BASE_OK && k < cx.n_group; k++) {
        int part = cx.group[k];
        if (part < 0 || part >= num_partitions || !locals[part])
            st = interp_fail(&p, mc, BASE_ERR_INVALID, "result %d: no value from partition %d", result, part);
        else if (!(col[k] = interp_value_tensor(base_tensor_retain(locals[part]))))
            st = interp_fail(&p, mc, BASE_ERR_NOMEM, "out of memory");
    }
    if (st == BASE_OK)
        st = assemble(&p, mc, result, &cx, list_item(graph_op_attr(mc, "out_shardings"), result),
                      graph_op_attr(mc, "manual_axes"), col, &out);
    if (st == BASE_OK) *global = base_tensor_retain(iv_t(out));
    for (int k = 0; col && k < cx.n_group; k++) interp_value_release(col[k]);
    free(col);
    interp_value_release(out);
    return sdy_done(&p, &cx, st, diag);
}

void interp_register_sdy(interp_kernel_fn *table)
{
    table[GRAPH_OP_SDY_MANUAL_COMPUTATION] = k_manual_computation;
}
