/* Dynamic conformance cases: a program whose entry takes arguments with '?'
 * dimensions (the JAX shape-polymorphic exports of the testdata corpus) and
 * that embeds no inputs.  It becomes checkable as docs/dynamic-shapes.md
 * says: every '?' of the arguments is INTERP_DYN_CASE_SIZE, shape
 * refinement infers the dimension arguments (JAX's `%arg0: tensor<i64>`
 * dimension variables), the inputs are random (seeded), and the expected
 * outputs are the interpreter's on the original, dynamic program run as it
 * is; the refined, static program must give the same (interp_run_case:
 * bit for bit; the compiled path: within its tolerances). */
#include "interp/interp.h"
#include "graph/refine.h"

#include <stdlib.h>
#include <string.h>

#define DYN_CASE_SEED 1

bool interp_case_is_dynamic(const struct graph_module *m, const struct graph_op *entry)
{
    if (!entry || entry->n_regions < 1 || entry->regions[0].n_blocks < 1) return false;
    const struct graph_block *b = &entry->regions[0].blocks[0];
    return b->n_args > 0 && graph_entry_is_dynamic(m, graph_func_name(entry));
}

void interp_dyn_case_free(struct interp_dyn_case *c)
{
    if (!c) return;
    graph_module_destroy(c->refined);
    for (int i = 0; i < c->n_inputs; i++) base_tensor_release(c->inputs[i]);
    free(c->inputs);
    for (int i = 0; i < c->n_want; i++) base_tensor_release(c->want[i]);
    free(c->want);
    memset(c, 0, sizeof *c);
}

enum base_status interp_dyn_case_prepare(const struct graph_module *m, const struct graph_op *entry,
                                         struct interp_dyn_case *c, struct base_diag *diag)
{
    memset(c, 0, sizeof *c);
    const struct graph_block *b = &entry->regions[0].blocks[0];
    int n = b->n_args;
    struct graph_refine_arg *args = calloc((size_t)n + 1, sizeof *args);
    if (!args) return BASE_ERR_NOMEM;
    for (int i = 0; i < n; i++) {
        const struct graph_type *t = b->args[i].type;
        args[i].rank = -1;
        if (!t || t->kind != GRAPH_TYPE_TENSOR || t->rank < 0) continue;
        args[i].rank = t->rank;
        for (int d = 0; d < t->rank; d++) args[i].dims[d] = t->dims[d] == GRAPH_DYN ? INTERP_DYN_CASE_SIZE : t->dims[d];
    }
    struct graph_refine_options o = {
        .entry = graph_func_name(entry), .args = args, .n_args = n, .guess_dim_args = true};
    struct graph_refine_result res;
    enum base_status st = graph_refine(m, &o, &c->refined, &res, diag);
    free(args);
    if (st != BASE_OK) return st;
    /* random inputs of the refined types; dimension arguments as refined */
    const struct graph_op *rf = graph_module_find_func(c->refined, graph_func_name(entry));
    c->inputs = calloc((size_t)n + 1, sizeof *c->inputs);
    if (!c->inputs || !rf) {
        interp_dyn_case_free(c);
        return rf ? BASE_ERR_NOMEM
                  : base_diag_set(diag, BASE_ERR_INTERNAL, m->path, 0, 0, "the refined entry is missing");
    }
    c->n_inputs = n;
    const struct graph_block *rb = &rf->regions[0].blocks[0];
    for (int i = 0; i < n && st == BASE_OK; i++) {
        const struct graph_type *t = rb->args[i].type;
        if (!t || t->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(t)) {
            st = base_diag_set(diag, BASE_ERR_UNSUPPORTED, m->path, entry->loc.line, entry->loc.col,
                               "argument %d of @%s is not a tensor: no input can be made for it", i,
                               graph_func_name(entry));
            break;
        }
        st = base_tensor_create(t->elem, t->rank, t->dims, &c->inputs[i]);
        if (st == BASE_OK)
            st = base_tensor_fill_random(c->inputs[i], DYN_CASE_SEED * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)i, 1.0);
        if (st != BASE_OK) base_diag_set(diag, st, m->path, 0, 0, "cannot make input %d", i);
        /* integers are often indices: small enough to be in range */
        struct base_tensor *x = c->inputs[i];
        if (st == BASE_OK && base_dtype_is_int(x->dtype))
            for (int64_t k = 0; k < x->count; k++)
                base_elem_set_i64(x->dtype, x->data, (size_t)k,
                                  base_elem_get_i64(x->dtype, x->data, (size_t)k) % INTERP_DYN_CASE_SIZE);
    }
    for (int k = 0; st == BASE_OK && k < res.n_dim_args; k++) {
        struct base_tensor *t = c->inputs[res.dim_args[k].arg];
        base_elem_set_i64(t->dtype, t->data, 0, res.dim_args[k].value);
    }
    /* the expected outputs: the original program, run as it is */
    struct interp_options io = {0};
    struct interp_result ir;
    memset(&ir, 0, sizeof ir);
    if (st == BASE_OK) st = interp_run(m, graph_func_name(entry), c->inputs, n, &io, &ir, diag);
    if (st != BASE_OK) interp_result_free(&ir);
    if (st != BASE_OK && st != BASE_ERR_NOMEM && st != BASE_ERR_UNSUPPORTED) {
        /* indices the program rejects (a real_dynamic_slice out of range):
         * once more with every integer input that is not a size 0 */
        bool any = false;
        for (int i = 0; i < n; i++) {
            struct base_tensor *x = c->inputs[i];
            bool dim_arg = false;
            for (int k = 0; k < res.n_dim_args; k++) dim_arg |= res.dim_args[k].arg == i;
            if (dim_arg || !base_dtype_is_int(x->dtype)) continue;
            memset(x->data, 0, base_tensor_nbytes(x));
            any = true;
        }
        struct base_diag d2;
        base_diag_clear(&d2);
        if (any) {
            if (interp_run(m, graph_func_name(entry), c->inputs, n, &io, &ir, &d2) == BASE_OK) {
                st = BASE_OK;
                base_diag_clear(diag);
            } else {
                interp_result_free(&ir);
            }
        }
    }
    if (st == BASE_OK) {
        c->want = ir.outputs;
        c->n_want = ir.n_outputs;
        ir.outputs = NULL;
        ir.n_outputs = 0;
        interp_result_free(&ir);
    } else if (st != BASE_ERR_NOMEM && diag && diag->status == BASE_OK) {
        base_diag_set(diag, st, m->path, 0, 0, "the dynamic program does not run");
    }
    if (st != BASE_OK) interp_dyn_case_free(c);
    return st;
}

bool interp_tensors_identical(const struct base_tensor *a, const struct base_tensor *b, int64_t *first_diff)
{
    *first_diff = -1;
    if (a->dtype != b->dtype || a->rank != b->rank) return false;
    for (int d = 0; d < a->rank; d++)
        if (a->dims[d] != b->dims[d]) return false;
    size_t es = base_dtype_size(a->dtype);
    for (int64_t i = 0; i < a->count; i++)
        if (memcmp((const char *)a->data + (size_t)i * es, (const char *)b->data + (size_t)i * es, es)) {
            *first_diff = i;
            return false;
        }
    return true;
}
