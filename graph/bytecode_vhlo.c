/* VHLO ops -> StableHLO generic text: what stablehlo-translate --deserialize
 * does (VhloToVersion up to the current version, then
 * VhloLegalizeToStablehlo): older op versions take their successor's new
 * attributes at their defaults; attributes at their default value are
 * dropped; the flattened dimension numbers are folded back into
 * #stablehlo.conv/dot/gather/scatter; channel ids become channel handles;
 * i64 tensors of shape attributes become array<i64: ...>. */
#include "graph/bytecode_internal.h"
#include "graph/bytecode_vhlo_list.h"
#include "graph/lexer.h"

#include <stdlib.h>
#include <string.h>

struct vhlo_op {
    const char *name;
    const char *min_version, *max_version;
    const char *const *attrs; /* NULL-terminated, sorted */
};

#define A(...) ((const char *const[]){__VA_ARGS__ NULL})
static const struct vhlo_op vhlo_ops[] = {
#define X(name, lo, hi, attrs) {name, lo, hi, attrs},
    GRAPH_BC_VHLO_OPS(X)
#undef X
};
#undef A
#define N_VHLO_OPS ((int)(sizeof vhlo_ops / sizeof vhlo_ops[0]))

int graph_bc_vhlo_op_find(const char *name, size_t len)
{
    for (int i = 0; i < N_VHLO_OPS; i++)
        if (strlen(vhlo_ops[i].name) == len && !memcmp(vhlo_ops[i].name, name, len)) return i;
    return -1;
}

const char *graph_bc_vhlo_op_vname(int op)
{
    return op >= 0 && op < N_VHLO_OPS ? vhlo_ops[op].name : "";
}

int graph_bc_vhlo_op_count(void)
{
    return N_VHLO_OPS;
}

int graph_bc_vhlo_op_props(int op, const char *const **names)
{
    static const char *const none[1] = {NULL};
    *names = op >= 0 && op < N_VHLO_OPS ? vhlo_ops[op].attrs : none;
    int n = 0;
    while ((*names)[n]) n++;
    return n;
}

/* ------------------------------------------------------------------------ */
/* Attribute helpers                                                         */

struct legal {
    struct bc_ctx *c;
    const struct bc_rd *at;
    const char *op;   /* vhlo name without _vN */
    int version;      /* N of _vN */
    struct bc_named *in;
    int n_in;
    bool *used;
    struct bc_out_attr *out;
    int n_out;
};

static bool is(const struct legal *L, const char *op)
{
    return !strcmp(L->op, op);
}

static const struct bc_attr *get(struct legal *L, const char *name)
{
    for (int i = 0; i < L->n_in; i++)
        if (!L->used[i] && !strcmp(L->in[i].name, name)) return L->in[i].value;
    return NULL;
}

static void drop(struct legal *L, const char *name)
{
    for (int i = 0; i < L->n_in; i++)
        if (!strcmp(L->in[i].name, name)) L->used[i] = true;
}

/* Starts an output attribute; its text is what is printed until end_out. */
static struct sbuf begin_out(struct legal *L)
{
    struct sbuf saved = L->c->out;
    graph_print_buf_init(&L->c->out);
    return saved;
}

static enum base_status end_out(struct legal *L, const char *name, struct sbuf saved, bool unit)
{
    struct bc_ctx *c = L->c;
    char *t = NULL;
    bool oom = c->out.oom;
    if (!unit && !oom) t = base_arena_strndup(&c->arena, c->out.p ? c->out.p : "", c->out.n);
    graph_print_buf_free(&c->out);
    c->out = saved;
    if (oom || (!unit && !t)) return graph_bc_nomem(c);
    L->out[L->n_out].name = name;
    L->out[L->n_out].text = t;
    L->out[L->n_out].attr = NULL;
    L->n_out++;
    return BASE_OK;
}

/* printed when the op is written */
static enum base_status emit_attr(struct legal *L, const char *name, const struct bc_attr *a)
{
    L->out[L->n_out].name = name;
    L->out[L->n_out].text = NULL;
    L->out[L->n_out].attr = a->kind == BCA_UNIT ? NULL : a;
    L->n_out++;
    return BASE_OK;
}

static enum base_status emit_unit(struct legal *L, const char *name)
{
    struct sbuf saved = begin_out(L);
    return end_out(L, name, saved, true);
}

static bool is_bool(const struct bc_attr *a, bool v)
{
    return a && a->kind == BCA_BOOL && a->b == v;
}

static bool is_int(const struct bc_attr *a, int64_t v)
{
    if (!a || a->kind != BCA_INT) return false;
    /* sign-extend by the type's width */
    int64_t x = a->i;
    const struct bc_type *t = a->type;
    int bits = t && t->kind == BCT_SCALAR && t->dtype >= 0 ? base_dtype_bits((enum base_dtype)t->dtype) : 64;
    if (bits > 0 && bits < 64) {
        uint64_t m = ((uint64_t)1 << bits) - 1, u = (uint64_t)x & m;
        if ((u >> (bits - 1)) & 1 && strncmp(t->name, "ui", 2)) u |= ~m;
        x = (int64_t)u;
    }
    return x == v;
}

static bool is_empty_array(const struct bc_attr *a)
{
    return a && a->kind == BCA_ARRAY && a->n == 0;
}

/* [] or [{}, {}, ...]: a function's argument attributes that say nothing */
static bool is_empty_dicts(const struct bc_attr *a)
{
    if (!a || a->kind != BCA_ARRAY) return false;
    for (int64_t i = 0; i < a->n; i++)
        if (a->items[i]->kind != BCA_DICT || a->items[i]->n) return false;
    return true;
}

static bool is_empty_string(const struct bc_attr *a)
{
    return a && a->kind == BCA_STRING && a->len == 0;
}

static bool is_empty_dict(const struct bc_attr *a)
{
    return a && a->kind == BCA_DICT && a->n == 0;
}

static bool is_empty_tensor(const struct bc_attr *a)
{
    return a && a->kind == BCA_TENSOR && a->data_len == 0;
}

static bool is_enum(const struct bc_attr *a, enum bc_enum en, int64_t v)
{
    return a && a->kind == BCA_ENUM && a->en == en && a->i == v;
}

/* Every element of an integer (or i1) tensor equals v; at least one element. */
static bool is_splat(struct legal *L, const struct bc_attr *a, int64_t v)
{
    int64_t n;
    int64_t buf[64];
    if (!graph_bc_tensor_i64s(a, buf, 64, &n) || n == 0) return false;
    if (n <= 64) {
        for (int64_t i = 0; i < n; i++)
            if (buf[i] != v) return false;
        return true;
    }
    int64_t *all = graph_bc_alloc(L->c, (size_t)n * sizeof *all);
    if (!all) return false;
    graph_bc_tensor_i64s(a, all, n, &n);
    for (int64_t i = 0; i < n; i++)
        if (all[i] != v) return false;
    return true;
}

static bool all_precision_default(const struct bc_attr *a)
{
    if (!a || a->kind != BCA_ARRAY) return false;
    for (int64_t i = 0; i < a->n; i++)
        if (!is_enum(a->items[i], BCE_PRECISION, 0)) return false;
    return true;
}

static bool is_default_accuracy(const struct bc_attr *a)
{
    return a && a->kind == BCA_ACCURACY && a->f == 0 && a->f2 == 0 && a->i == 0 &&
           is_enum(a->items[0], BCE_ACCURACY_MODE, 0);
}

static enum base_status bad(struct legal *L, const char *attr, const char *want)
{
    return graph_bc_fail(L->c, L->at, BASE_ERR_PARSE, "'vhlo.%s_v%d': attribute '%s' is not %s", L->op, L->version, attr,
                         want);
}

/* Integer tensor -> int64 list (arena), or error. */
static enum base_status ints_of(struct legal *L, const char *attr, const struct bc_attr *a, int64_t **v, int64_t *n)
{
    int64_t buf[1];
    if (!a || !graph_bc_tensor_i64s(a, buf, 0, n))
        return bad(L, attr, "an integer tensor (of at most 2^24 elements)");
    *v = graph_bc_alloc(L->c, (size_t)(*n ? *n : 1) * sizeof **v);
    if (!*v) return graph_bc_nomem(L->c);
    graph_bc_tensor_i64s(a, *v, *n, n);
    return BASE_OK;
}

/* attr as array<i64: ...> (or array<i1: ...>) */
static enum base_status emit_dense_array(struct legal *L, const char *name, bool as_bool)
{
    const struct bc_attr *a = get(L, name);
    if (!a) return BASE_OK;
    int64_t *v, n;
    TRY(ints_of(L, name, a, &v, &n));
    drop(L, name);
    struct sbuf saved = begin_out(L);
    struct sbuf *s = &L->c->out;
    graph_print_buf_puts(s, as_bool ? "array<i1" : "array<i64");
    for (int64_t i = 0; i < n; i++) {
        graph_print_buf_puts(s, i ? ", " : ": ");
        if (as_bool) graph_print_buf_puts(s, v[i] ? "true" : "false");
        else graph_print_buf_printf(s, "%lld", (long long)v[i]);
    }
    graph_print_buf_putc(s, '>');
    return end_out(L, name, saved, false);
}

/* One field of a struct attribute: "name = [..]" (skipped when empty and
 * omit_empty) or "name = N". */
static enum base_status field_list(struct legal *L, const char *name, bool omit_empty, bool *first, bool optional)
{
    const struct bc_attr *a = get(L, name);
    drop(L, name);
    int64_t *v = NULL, n = 0;
    if (a) TRY(ints_of(L, name, a, &v, &n));
    else if (!optional) return bad(L, name, "present");
    if (!n && omit_empty) return BASE_OK;
    struct sbuf *s = &L->c->out;
    graph_print_buf_printf(s, "%s%s = [", *first ? "" : ", ", name);
    for (int64_t i = 0; i < n; i++) graph_print_buf_printf(s, "%s%lld", i ? ", " : "", (long long)v[i]);
    graph_print_buf_putc(s, ']');
    *first = false;
    return BASE_OK;
}

static enum base_status field_int(struct legal *L, const char *name, bool *first, bool omit_zero)
{
    const struct bc_attr *a = get(L, name);
    drop(L, name);
    if (!a || a->kind != BCA_INT) return bad(L, name, "an integer");
    if (omit_zero && a->i == 0) return BASE_OK;
    graph_print_buf_printf(&L->c->out, "%s%s = %lld", *first ? "" : ", ", name, (long long)a->i);
    *first = false;
    return BASE_OK;
}

static enum base_status implode_conv(struct legal *L)
{
    static const char *const f[] = {"input_batch_dimension",          "input_feature_dimension",
                                    "input_spatial_dimensions",       "kernel_input_feature_dimension",
                                    "kernel_output_feature_dimension", "kernel_spatial_dimensions",
                                    "output_batch_dimension",         "output_feature_dimension",
                                    "output_spatial_dimensions"};
    struct sbuf saved = begin_out(L);
    graph_print_buf_puts(&L->c->out, "#stablehlo.conv<raw ");
    bool first = true;
    enum base_status st = BASE_OK;
    for (int i = 0; i < 9 && st == BASE_OK; i++)
        st = (i % 3 == 2) ? field_list(L, f[i], false, &first, false) : field_int(L, f[i], &first, false);
    graph_print_buf_putc(&L->c->out, '>');
    if (st != BASE_OK) {
        graph_print_buf_free(&L->c->out);
        L->c->out = saved;
        return st;
    }
    return end_out(L, "dimension_numbers", saved, false);
}

/* A struct attribute of int lists (empty ones omitted) and an optional int. */
static enum base_status implode_lists(struct legal *L, const char *out_name, const char *tag, const char *const *lists,
                                      int n_lists, const char *int_field)
{
    struct sbuf saved = begin_out(L);
    graph_print_buf_printf(&L->c->out, "#stablehlo.%s<", tag);
    bool first = true;
    enum base_status st = BASE_OK;
    for (int i = 0; i < n_lists && st == BASE_OK; i++) st = field_list(L, lists[i], true, &first, true);
    if (st == BASE_OK && int_field) st = field_int(L, int_field, &first, true); /* MLIR omits a 0 */
    graph_print_buf_putc(&L->c->out, '>');
    if (st != BASE_OK) {
        graph_print_buf_free(&L->c->out);
        L->c->out = saved;
        return st;
    }
    return end_out(L, out_name, saved, false);
}

static enum base_status channel_handle(struct legal *L, const char *id_name, const char *type_name)
{
    const struct bc_attr *id = get(L, id_name);
    if (!id) return BASE_OK;
    const struct bc_attr *ty = type_name ? get(L, type_name) : NULL;
    if (id->kind != BCA_INT) return bad(L, id_name, "an integer");
    if (type_name && (!ty || ty->kind != BCA_INT)) return bad(L, type_name, "an integer");
    drop(L, id_name);
    if (type_name) drop(L, type_name);
    struct sbuf saved = begin_out(L);
    graph_print_buf_printf(&L->c->out, "#stablehlo.channel_handle<handle = %lld, type = %lld>", (long long)id->i,
                           (long long)(ty ? ty->i : 0));
    return end_out(L, "channel_handle", saved, false);
}

static enum base_status symbol(struct legal *L, const char *name)
{
    const struct bc_attr *a = get(L, name);
    if (!a) return BASE_OK;
    if (a->kind != BCA_STRING) return bad(L, name, "a string");
    drop(L, name);
    struct sbuf saved = begin_out(L);
    graph_print_symbol(&L->c->out, a->s, a->len);
    return end_out(L, name, saved, false);
}

/* bool attribute -> unit when true, nothing when false */
static enum base_status unit_if(struct legal *L, const char *name)
{
    const struct bc_attr *a = get(L, name);
    if (!a) return BASE_OK;
    if (a->kind != BCA_BOOL) return bad(L, name, "a boolean");
    drop(L, name);
    return a->b ? emit_unit(L, name) : BASE_OK;
}

static void drop_if(struct legal *L, const char *name, bool cond)
{
    if (cond) drop(L, name);
}

/* ------------------------------------------------------------------------ */
/* The rules, op by op                                                       */

static bool in_list(const char *op, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(op, list[i])) return true;
    return false;
}

static void remove_defaults(struct legal *L)
{
    static const char *const accuracy_ops[] = {"cbrt",    "cosine",   "exponential", "exponential_minus_one",
                                               "log",     "log_plus_one", "logistic", "rsqrt",
                                               "sine",    "sqrt",     "tan",         "tanh",
                                               NULL};
    if (is(L, "func")) {
        drop_if(L, "sym_visibility", is_empty_string(get(L, "sym_visibility")));
        drop_if(L, "arg_attrs", is_empty_dicts(get(L, "arg_attrs"))); /* func.func keeps none then */
        drop_if(L, "res_attrs", is_empty_dicts(get(L, "res_attrs")));
    }
    if (is(L, "all_gather") || is(L, "all_reduce") || is(L, "reduce_scatter") || is(L, "collective_reduce")) {
        drop_if(L, "channel_id", is_int(get(L, "channel_id"), 0));
        drop_if(L, "use_global_device_ids", is_bool(get(L, "use_global_device_ids"), false));
    }
    if (is(L, "all_to_all") || is(L, "collective_permute") || is(L, "collective_broadcast"))
        drop_if(L, "channel_id", is_int(get(L, "channel_id"), 0));
    if (is(L, "collective_broadcast") || is(L, "collective_reduce"))
        drop_if(L, "has_dynamic_root", is_bool(get(L, "has_dynamic_root"), false));
    if (is(L, "cholesky")) drop_if(L, "lower", is_bool(get(L, "lower"), false));
    if (is(L, "compare")) drop_if(L, "compare_type", is_enum(get(L, "compare_type"), BCE_CMP_TYPE, 0));
    if (is(L, "composite")) {
        drop_if(L, "version", is_int(get(L, "version"), 0));
        drop_if(L, "composite_attributes", is_empty_dict(get(L, "composite_attributes")));
    }
    if (is(L, "convolution") || is(L, "dynamic_conv")) {
        drop_if(L, "window_strides", is_splat(L, get(L, "window_strides"), 1));
        if (is(L, "convolution")) drop_if(L, "padding", is_splat(L, get(L, "padding"), 0));
        else if (L->version == 1) drop(L, "padding"); /* v2 dropped it (the d_padding operand holds it) */
        drop_if(L, "lhs_dilation", is_splat(L, get(L, "lhs_dilation"), 1));
        drop_if(L, "rhs_dilation", is_splat(L, get(L, "rhs_dilation"), 1));
        drop_if(L, "window_reversal", is_splat(L, get(L, "window_reversal"), 0));
        drop_if(L, "precision_config", all_precision_default(get(L, "precision_config")));
    }
    if (is(L, "custom_call")) {
        drop_if(L, "has_side_effect", is_bool(get(L, "has_side_effect"), false));
        const struct bc_attr *bc = get(L, "backend_config");
        drop_if(L, "backend_config", is_empty_string(bc) || is_empty_dict(bc));
        drop_if(L, "api_version", is_enum(get(L, "api_version"), BCE_API_VERSION, 1));
        drop_if(L, "called_computations", is_empty_array(get(L, "called_computations")));
        if (is_empty_array(get(L, "operand_layouts")) && is_empty_array(get(L, "result_layouts"))) {
            drop(L, "operand_layouts");
            drop(L, "result_layouts");
        }
        drop_if(L, "output_operand_aliases", is_empty_array(get(L, "output_operand_aliases")));
        drop_if(L, "result_tilings", is_empty_array(get(L, "result_tilings")));
    }
    if (is(L, "dot_general") || is(L, "dot"))
        drop_if(L, "precision_config", all_precision_default(get(L, "precision_config")));
    if (is(L, "dynamic_broadcast_in_dim")) {
        drop_if(L, "known_expanding_dimensions", is_empty_tensor(get(L, "known_expanding_dimensions")));
        drop_if(L, "known_nonexpanding_dimensions", is_empty_tensor(get(L, "known_nonexpanding_dimensions")));
    }
    if (is(L, "gather") || is(L, "dynamic_gather") || is(L, "scatter"))
        drop_if(L, "indices_are_sorted", is_bool(get(L, "indices_are_sorted"), false));
    if (is(L, "scatter")) drop_if(L, "unique_indices", is_bool(get(L, "unique_indices"), false));
    if (is(L, "infeed")) {
        drop_if(L, "infeed_config", is_empty_string(get(L, "infeed_config")));
        drop_if(L, "layout", is_empty_array(get(L, "layout")));
    }
    if (is(L, "outfeed")) drop_if(L, "outfeed_config", is_empty_string(get(L, "outfeed_config")));
    if (is(L, "recv") || is(L, "send")) {
        drop_if(L, "is_host_transfer", is_bool(get(L, "is_host_transfer"), false));
        drop_if(L, "source_target_pairs", is_empty_tensor(get(L, "source_target_pairs")));
    }
    if (is(L, "reduce_window")) {
        drop_if(L, "window_strides", is_splat(L, get(L, "window_strides"), 1));
        drop_if(L, "base_dilations", is_splat(L, get(L, "base_dilations"), 1));
        drop_if(L, "window_dilations", is_splat(L, get(L, "window_dilations"), 1));
        drop_if(L, "padding", is_splat(L, get(L, "padding"), 0));
    }
    if (is(L, "select_and_scatter")) {
        drop_if(L, "window_strides", is_splat(L, get(L, "window_strides"), 1));
        drop_if(L, "padding", is_splat(L, get(L, "padding"), 0));
    }
    if (is(L, "sort")) {
        drop_if(L, "dimension", is_int(get(L, "dimension"), -1));
        drop_if(L, "is_stable", is_bool(get(L, "is_stable"), false));
    }
    if (in_list(L->op, accuracy_ops))
        drop_if(L, "result_accuracy", is_default_accuracy(get(L, "result_accuracy")));
}

static enum base_status implode(struct legal *L)
{
    if (is(L, "convolution") || is(L, "dynamic_conv")) TRY(implode_conv(L));
    if (is(L, "dot_general")) {
        static const char *const dims[] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                           "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
        TRY(implode_lists(L, "dot_dimension_numbers", "dot", dims, 4, NULL));
        static const char *const algo[] = {"lhs_precision_type",  "rhs_precision_type",       "accumulation_type",
                                           "lhs_component_count", "rhs_component_count",      "num_primitive_operations",
                                           "allow_imprecise_accumulation"};
        const struct bc_attr *lp = get(L, "lhs_precision_type");
        bool none = !lp || (lp->kind == BCA_TYPE && lp->type->kind == BCT_SCALAR && !strcmp(lp->type->name, "none"));
        if (!none) {
            struct sbuf saved = begin_out(L);
            graph_print_buf_puts(&L->c->out, "#stablehlo.dot_algorithm<");
            for (int i = 0; i < 7; i++) {
                const struct bc_attr *a = get(L, algo[i]);
                if (!a) {
                    graph_print_buf_free(&L->c->out);
                    L->c->out = saved;
                    return bad(L, algo[i], "present");
                }
                graph_print_buf_printf(&L->c->out, "%s%s = ", i ? ", " : "", algo[i]);
                if (a->kind == BCA_INT) graph_print_buf_printf(&L->c->out, "%lld", (long long)a->i);
                else graph_bc_print_attr(L->c, a);
            }
            graph_print_buf_putc(&L->c->out, '>');
            TRY(end_out(L, "algorithm", saved, false));
        }
        for (int i = 0; i < 7; i++) drop(L, algo[i]);
    }
    if (is(L, "gather") || is(L, "dynamic_gather")) {
        static const char *const dims[] = {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                           "start_indices_batching_dims", "start_index_map"};
        TRY(implode_lists(L, "dimension_numbers", "gather", dims, 5, "index_vector_dim"));
    }
    if (is(L, "scatter")) {
        static const char *const dims[] = {"update_window_dims", "inserted_window_dims", "input_batching_dims",
                                           "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"};
        TRY(implode_lists(L, "scatter_dimension_numbers", "scatter", dims, 5, "index_vector_dim"));
    }
    if (is(L, "send") || is(L, "recv")) TRY(channel_handle(L, "channel_id", "channel_type"));
    return BASE_OK;
}

static enum base_status special(struct legal *L)
{
    static const char *const collectives[] = {"all_gather",     "all_reduce",           "all_to_all",
                                              "collective_permute", "reduce_scatter",   "collective_broadcast",
                                              "collective_reduce", NULL};
    if (in_list(L->op, collectives)) {
        TRY(channel_handle(L, "channel_id", NULL));
        TRY(unit_if(L, "use_global_device_ids"));
        TRY(unit_if(L, "has_dynamic_root"));
    }
    if (is(L, "custom_call")) {
        const struct bc_attr *cc = get(L, "called_computations");
        if (cc) {
            if (cc->kind != BCA_ARRAY) return bad(L, "called_computations", "an array");
            drop(L, "called_computations");
            struct sbuf saved = begin_out(L);
            graph_print_buf_putc(&L->c->out, '[');
            for (int64_t i = 0; i < cc->n; i++) {
                const struct bc_attr *e = cc->items[i];
                if (e->kind != BCA_STRING) {
                    graph_print_buf_free(&L->c->out);
                    L->c->out = saved;
                    return bad(L, "called_computations", "an array of strings");
                }
                if (i) graph_print_buf_puts(&L->c->out, ", ");
                graph_print_symbol(&L->c->out, e->s, e->len);
            }
            graph_print_buf_putc(&L->c->out, ']');
            TRY(end_out(L, "called_computations", saved, false));
        }
    }
    if (is(L, "composite")) TRY(symbol(L, "decomposition"));
    if (is(L, "call")) TRY(symbol(L, "callee"));
    /* i64 tensors -> array<i64: ...> */
    static const struct {
        const char *op, *attrs;
    } arrays[] = {
        {"fft", "fft_length"},
        {"broadcast", "broadcast_sizes"},
        {"dynamic_slice", "slice_sizes"},
        {"reverse", "dimensions"},
        {"transpose", "permutation"},
        {"pad", "edge_padding_low edge_padding_high interior_padding"},
        {"slice", "start_indices limit_indices strides"},
        {"broadcast_in_dim", "broadcast_dimensions"},
        {"dynamic_broadcast_in_dim", "broadcast_dimensions known_expanding_dimensions known_nonexpanding_dimensions"},
        {"select_and_scatter", "window_dimensions window_strides"},
        {"reduce_window", "window_dimensions window_strides base_dilations window_dilations"},
        {"map", "dimensions"},
        {"reduce", "dimensions"},
        {"gather", "slice_sizes"},
        {"convolution", "lhs_dilation rhs_dilation window_strides"},
        {"dynamic_conv", "lhs_dilation rhs_dilation window_strides"},
    };
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
        if (!is(L, arrays[k].op)) continue;
        const char *p = arrays[k].attrs;
        while (*p) {
            const char *e = strchr(p, ' ');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            char name[64];
            if (n >= sizeof name) break; /* the table's names are short */
            memcpy(name, p, n);
            name[n] = 0;
            /* the name must outlive this frame: find it among the inputs */
            for (int i = 0; i < L->n_in; i++)
                if (!L->used[i] && !strcmp(L->in[i].name, name)) {
                    TRY(emit_dense_array(L, L->in[i].name, false));
                    break;
                }
            p += n;
            if (*p) p++;
        }
    }
    if (is(L, "convolution") || is(L, "dynamic_conv")) {
        for (int i = 0; i < L->n_in; i++)
            if (!L->used[i] && !strcmp(L->in[i].name, "window_reversal")) {
                TRY(emit_dense_array(L, L->in[i].name, true));
                break;
            }
    }
    return BASE_OK;
}

static int cmp_out(const void *a, const void *b)
{
    return strcmp(((const struct bc_out_attr *)a)->name, ((const struct bc_out_attr *)b)->name);
}

enum base_status graph_bc_vhlo_legalize(struct bc_ctx *c, const struct bc_rd *at, int op, bool in_func,
                                        struct bc_named *attrs, int n_attrs, const char **name_out,
                                        struct bc_out_attr **out, int *n_out)
{
    *out = NULL;
    *n_out = 0;
    const char *vname = vhlo_ops[op].name;
    const char *us = strrchr(vname, '_');
    if (!us || us[1] != 'v') return graph_bc_fail(c, at, BASE_ERR_INTERNAL, "VHLO op name '%s' has no version", vname);
    size_t bl = (size_t)(us - vname);
    char *base = graph_bc_alloc(c, bl + 1);
    if (!base) return graph_bc_nomem(c);
    memcpy(base, vname, bl);
    base[bl] = 0;
    if (!strcmp(base, "func")) *name_out = "func.func";
    else if (!strcmp(base, "call")) *name_out = "func.call";
    else if (!strcmp(base, "return")) *name_out = in_func ? "func.return" : "stablehlo.return";
    else {
        char *n = graph_bc_alloc(c, bl + 11);
        if (!n) return graph_bc_nomem(c);
        memcpy(n, "stablehlo.", 10);
        memcpy(n + 10, base, bl + 1);
        *name_out = n;
    }
    struct legal L;
    memset(&L, 0, sizeof L);
    L.c = c;
    L.at = at;
    L.op = base;
    L.version = atoi(us + 2);
    L.in = attrs;
    L.n_in = n_attrs;
    L.used = graph_bc_alloc(c, (size_t)(n_attrs ? n_attrs : 1) * sizeof *L.used);
    L.out = graph_bc_alloc(c, (size_t)(n_attrs + 4) * sizeof *L.out);
    if (!L.used || !L.out) return graph_bc_nomem(c);
    memset(L.used, 0, (size_t)(n_attrs ? n_attrs : 1) * sizeof *L.used);
    remove_defaults(&L);
    TRY(implode(&L));
    TRY(special(&L));
    for (int i = 0; i < n_attrs; i++) {
        if (L.used[i]) continue;
        L.used[i] = true;
        TRY(emit_attr(&L, attrs[i].name, attrs[i].value));
    }
    qsort(L.out, (size_t)L.n_out, sizeof *L.out, cmp_out);
    *out = L.out;
    *n_out = L.n_out;
    return BASE_OK;
}

void graph_bc_print_out_attrs(struct bc_ctx *c, const struct bc_out_attr *attrs, int n)
{
    if (n <= 0) return;
    struct sbuf *s = &c->out;
    graph_print_buf_puts(s, " {");
    for (int i = 0; i < n; i++) {
        if (i) graph_print_buf_puts(s, ", ");
        size_t k = strlen(attrs[i].name);
        if (k && graph_lex_bare_id(attrs[i].name, attrs[i].name + k) == k) graph_print_buf_putn(s, attrs[i].name, k);
        else graph_print_string(s, attrs[i].name, k);
        if (attrs[i].text) {
            graph_print_buf_puts(s, " = ");
            graph_print_buf_puts(s, attrs[i].text);
        } else if (attrs[i].attr) {
            graph_print_buf_puts(s, " = ");
            graph_bc_print_attr(c, attrs[i].attr);
        }
    }
    graph_print_buf_putc(s, '}');
}
