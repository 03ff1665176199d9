/* The SPMD partitioner (partition/): each case partitions an unsharded
 * program, runs the original on one process and the partitioned one on
 * mesh-size partitions of the golden interpreter with the same random
 * inputs, and compares the outputs (exactly where every partition computes
 * its elements as the original does, within 1e-5 where sums change order).
 * The partitioned programs also compile for tpu-v5e and trn2. */
#include "tests/prog.h"

#include "compiler/compiler.h"
#include "partition/partition.h"
#include "runtime/runtime.h"
#include "chip/chip.h"
#include "interp/interp.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>

/* ---------------------------------------------------------------- helpers */

struct parted {
    struct graph_module *src;
    struct graph_module *out;
    char *text;
    struct part_report rep;
    struct part_mesh mesh;
};

/* shards[i] is argument i's spec (NULL: from the graph / replicated). */
static void partition_or_fail(const char *src, const char *mesh, const char *const *shards, int n, struct parted *p)
{
    memset(p, 0, sizeof *p);
    struct base_diag d;
    base_diag_clear(&d);
    p->src = prog_parse(src);
    struct part_sharding sh[8];
    assert_true(n <= 8);
    if (mesh) assert_int_equal(part_parse_mesh(mesh, &p->mesh, &d), BASE_OK);
    for (int i = 0; i < n; i++) {
        sh[i].rank = -1;
        if (shards[i] && part_parse_sharding(shards[i], &p->mesh, &sh[i], &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("sharding %s", shards[i]);
        }
    }
    if (part_partition(p->src, NULL, mesh ? &p->mesh : NULL, sh, n, &p->out, &p->rep, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("part_partition failed");
    }
    p->mesh = p->rep.mesh;
    /* the module as its text reads back: equal, with the same ids */
    size_t len = 0;
    assert_int_equal(graph_print_str(p->out, &p->text, &len), BASE_OK);
    struct graph_module *back = prog_parse(p->text);
    assert_true(graph_module_equal(p->out, back));
    assert_int_equal(p->out->n_values, back->n_values);
    assert_int_equal(p->out->n_ops, back->n_ops);
    graph_module_destroy(back);
}

static void parted_free(struct parted *p)
{
    graph_module_destroy(p->src);
    graph_module_destroy(p->out);
    free(p->text);
    part_report_free(&p->rep);
}

static int count_str(const char *s, const char *what)
{
    int n = 0;
    for (const char *q = strstr(s, what); q; q = strstr(q + 1, what)) n++;
    return n;
}

static int count_colls(const struct part_report *r, enum part_coll_kind k)
{
    int n = 0;
    for (int i = 0; i < r->n_colls; i++) n += r->colls[i].kind == k;
    return n;
}

static struct base_tensor **random_inputs(const struct graph_module *m, uint64_t seed, int *n)
{
    const struct graph_op *f = graph_module_entry(m);
    const struct graph_block *b = &f->regions[0].blocks[0];
    struct base_tensor **in = calloc((size_t)b->n_args + 1, sizeof *in);
    assert_non_null(in);
    for (int i = 0; i < b->n_args; i++) {
        const struct graph_type *t = b->args[i].type;
        assert_int_equal(base_tensor_create(t->elem, t->rank, t->dims, &in[i]), BASE_OK);
        assert_int_equal(base_tensor_fill_random(in[i], seed * 1000 + (uint64_t)i, 1.0), BASE_OK);
    }
    *n = b->n_args;
    return in;
}

static void free_inputs(struct base_tensor **in, int n)
{
    for (int i = 0; i < n; i++) base_tensor_release(in[i]);
    free(in);
}

static void run(const struct graph_module *m, const char *entry, struct base_tensor *const *in, int n, int parts,
                struct interp_result *res)
{
    struct interp_options opt = {.num_replicas = 1, .num_partitions = parts};
    struct base_diag d;
    base_diag_clear(&d);
    memset(res, 0, sizeof *res);
    if (interp_run(m, entry, in, n, &opt, res, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("interpreter run failed (%d partitions)", parts);
    }
    for (int i = 0; i < res->n_checks; i++)
        if (!res->checks[i].passed) fail_msg("check failed: %s", res->checks[i].what);
}

/* rel 0: bit-exact; else |a - b| <= rel * (|a| + max |a|): sums in another
 * order may cancel differently, so the bound scales with the tensor. */
static void expect_same(const struct base_tensor *a, const struct base_tensor *b, double rel, const char *what)
{
    assert_int_equal(a->dtype, b->dtype);
    assert_int_equal(a->rank, b->rank);
    for (int d = 0; d < a->rank; d++) assert_int_equal(a->dims[d], b->dims[d]);
    double scale = 0;
    for (int64_t i = 0; rel > 0 && base_dtype_is_float(a->dtype) && i < a->count; i++) {
        double x = fabs(base_elem_get_f64(a->dtype, a->data, (size_t)i));
        if (isfinite(x) && x > scale) scale = x;
    }
    for (int64_t i = 0; i < a->count; i++) {
        if (rel == 0 || !base_dtype_is_float(a->dtype)) {
            uint64_t x = base_elem_get_bits(a->dtype, a->data, (size_t)i), y = base_elem_get_bits(b->dtype, b->data,
                                                                                                  (size_t)i);
            if (x != y) fail_msg("%s: element %lld differs: %.9g vs %.9g (seed %llu)", what, (long long)i,
                                 base_elem_get_f64(a->dtype, a->data, (size_t)i),
                                 base_elem_get_f64(b->dtype, b->data, (size_t)i), (unsigned long long)test_seed());
        } else {
            double x = base_elem_get_f64(a->dtype, a->data, (size_t)i), y = base_elem_get_f64(b->dtype, b->data,
                                                                                              (size_t)i);
            if ((isnan(x) && isnan(y)) || x == y) continue;
            if (!(fabs(x - y) <= rel * (fabs(x) + scale)))
                fail_msg("%s: element %lld differs: %.9g vs %.9g (seed %llu)", what, (long long)i, x, y,
                         (unsigned long long)test_seed());
        }
    }
}

/* Runs both programs on the same random inputs; every partition's copy of
 * each (assembled) output must equal the original's. */
static void expect_equivalent(const struct parted *p, double rel)
{
    int n = 0;
    struct base_tensor **in = random_inputs(p->src, test_seed(), &n);
    struct interp_result a, b;
    int parts = (int)part_mesh_size(&p->mesh);
    run(p->src, NULL, in, n, 1, &a);
    run(p->out, NULL, in, n, parts, &b);
    assert_int_equal(b.n_processes, parts);
    int per = a.n_outputs;
    assert_int_equal(b.n_outputs, per);
    for (int proc = 0; proc < parts; proc++)
        for (int i = 0; i < per; i++) expect_same(a.outputs[i], b.outputs[proc * per + i], rel, "output");
    interp_result_free(&a);
    interp_result_free(&b);
    free_inputs(in, n);
}

static void expect_compiles(const struct parted *p)
{
    const char *chips[2] = {"tpu-v5e", "trn2"};
    for (int c = 0; c < 2; c++) {
        struct chip_desc chip;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(chip_load(chips[c], &chip, &d), BASE_OK);
        struct cc_plan *plan = NULL;
        if (cc_compile(p->out, &chip, NULL, &plan, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("cc_compile for %s", chips[c]);
        }
        assert_int_equal(cc_plan_num_partitions(plan), part_mesh_size(&p->mesh));
        cc_plan_destroy(plan);
    }
}

/* ---------------------------------------------------------------- programs */

/* dot + bias + relu + dot */
static const char k_mlp[] =
    "func.func @main(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>, %w2: tensor<32x16xf32>)"
    " -> tensor<8x16xf32> {\n"
    "  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> "
    "tensor<8x32xf32>\n"
    "  %bb = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>\n"
    "  %hb = stablehlo.add %h, %bb : tensor<8x32xf32>\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<8x32xf32>\n"
    "  %r = stablehlo.maximum %hb, %z : tensor<8x32xf32>\n"
    "  %y = stablehlo.dot_general %r, %w2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> "
    "tensor<8x16xf32>\n"
    "  return %y : tensor<8x16xf32>\n"
    "}\n";

/* ---------------------------------------------------------------- tests */

/* The ops of the entry's manual computation body. */
static const struct graph_block *body_of(const struct graph_module *m)
{
    const struct graph_op *f = graph_module_entry(m);
    assert_non_null(f);
    const struct graph_op *mc = f->regions[0].blocks[0].ops[0];
    assert_int_equal(mc->kind, GRAPH_OP_SDY_MANUAL_COMPUTATION);
    return &mc->regions[0].blocks[0];
}

static const struct graph_op *first_of(const struct graph_block *b, enum graph_op_kind k)
{
    for (int i = 0; i < b->n_ops; i++)
        if (b->ops[i]->kind == k) return b->ops[i];
    fail_msg("no %s", graph_op_kind_name(k));
    return NULL;
}

/* The partitioned module is built, not printed and read back: each op sits
 * at its source op's position (an inserted collective at the op that needed
 * it), and it holds nothing of the source module, which may go first. */
static void test_partition_ops_keep_source_positions_and_outlive_the_source(void **state)
{
    (void)state;
    struct graph_module *src = prog_parse(k_mlp);
    struct part_mesh mesh;
    struct part_sharding sh[4];
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(part_parse_mesh("model=4", &mesh, &d), BASE_OK);
    const char *spec[4] = {"replicated", "_,model", "model", "model,_"};
    for (int i = 0; i < 4; i++) assert_int_equal(part_parse_sharding(spec[i], &mesh, &sh[i], &d), BASE_OK);
    sh[0].rank = 2;
    struct graph_module *out = NULL;
    assert_int_equal(part_partition(src, NULL, &mesh, sh, 4, &out, NULL, &d), BASE_OK);
    graph_module_destroy(src);
    const struct graph_block *body = body_of(out);
    const struct graph_op *dot = first_of(body, GRAPH_OP_DOT_GENERAL), *ar = first_of(body, GRAPH_OP_ALL_REDUCE);
    assert_string_equal(dot->loc.file, "test.mlir");
    assert_int_equal(dot->loc.line, 2);
    assert_int_equal(dot->loc.col, 3);
    assert_string_equal(ar->loc.file, "test.mlir");
    assert_int_equal(ar->loc.line, 7); /* the second dot's partial sums */
    assert_int_equal(ar->regions[0].blocks[0].ops[0]->loc.line, 7);
    assert_int_equal(graph_verify(out, &d), BASE_OK);
    char *text = NULL;
    assert_int_equal(graph_print_str_positions(out, &text, NULL), BASE_OK);
    assert_non_null(strstr(text, "\"stablehlo.all_reduce\"(%_"));
    assert_non_null(strstr(text, "loc(\"test.mlir\":7:3)"));
    free(text);
    int n = 0;
    struct graph_module *again = prog_parse(k_mlp); /* for input shapes */
    struct base_tensor **in = random_inputs(again, test_seed(), &n);
    graph_module_destroy(again);
    struct interp_result r;
    run(out, NULL, in, n, 4, &r);
    assert_int_equal(r.n_processes, 4);
    interp_result_free(&r);
    free_inputs(in, n);
    graph_module_destroy(out);
}

/* 2-D mesh: batch over data, the hidden dim over model (Megatron MLP). */
static void test_partition_mlp_matches_interpreter(void **state)
{
    (void)state;
    const char *sh[4] = {"data,_", "_,model", "model", "model,_"};
    struct parted p;
    partition_or_fail(k_mlp, "data=2,model=2", sh, 4, &p);
    assert_int_equal(p.rep.n_fallbacks, 0);
    /* the output stays split over data */
    assert_int_equal(p.rep.results[0].n_axes[0], 1);
    assert_int_equal(p.rep.results[0].n_axes[1], 0);
    expect_equivalent(&p, 1e-5);
    parted_free(&p);
}

/* Column-parallel then row-parallel: the only collective is the all_reduce
 * of the second dot's partial sums (Megatron's one per MLP). */
static void test_partition_megatron_pair_has_one_all_reduce(void **state)
{
    (void)state;
    const char *sh[4] = {NULL, "_,model", "model", "model,_"};
    struct parted p;
    partition_or_fail(k_mlp, "model=4", sh, 4, &p);
    assert_int_equal(p.rep.n_colls, 1);
    assert_int_equal(count_colls(&p.rep, PART_ALL_REDUCE), 1);
    assert_int_equal(p.rep.colls[0].bytes, 8 * 16 * 4);
    assert_int_equal(p.rep.colls[0].group_size, 4);
    assert_int_equal(count_str(p.text, "stablehlo.all_reduce"), 1);
    assert_int_equal(count_str(p.text, "stablehlo.all_gather"), 0);
    /* the local weights are the shards */
    assert_non_null(strstr(p.text, "%_6: tensor<16x8xf32>, %_7: tensor<8xf32>, %_8: tensor<8x16xf32>"));
    expect_equivalent(&p, 1e-5);
    parted_free(&p);
}

static void test_partition_megatron_compiles_for_tpu_and_trn(void **state)
{
    (void)state;
    const char *sh[4] = {NULL, "_,model", "model", "model,_"};
    struct parted p;
    partition_or_fail(k_mlp, "model=4", sh, 4, &p);
    assert_int_equal(interp_module_mesh_size(p.out), 4);
    expect_compiles(&p);
    parted_free(&p);
}

static void test_partition_data_parallel_is_local_and_exact(void **state)
{
    (void)state;
    const char *sh[4] = {"data,_", NULL, NULL, NULL};
    struct parted p;
    partition_or_fail(k_mlp, "data=4", sh, 4, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.n_fallbacks, 0);
    /* every partition computes its rows as the original does: bit-exact */
    expect_equivalent(&p, 0);
    expect_compiles(&p);
    parted_free(&p);
}

static const char k_reduce[] =
    "func.func @main(%x: tensor<8x6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<8xf32>) {\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
    "  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x6xf32>, "
    "tensor<f32>) -> tensor<6xf32>\n"
    "  %mx = stablehlo.reduce(%x init: %m) applies stablehlo.maximum across dimensions = [0] : (tensor<8x6xf32>, "
    "tensor<f32>) -> tensor<6xf32>\n"
    "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x6xf32>, "
    "tensor<f32>) -> tensor<8xf32>\n"
    "  return %s, %mx, %r : tensor<6xf32>, tensor<6xf32>, tensor<8xf32>\n"
    "}\n";

/* Sum and max over the split dim: local reduce + all_reduce each; the
 * reduction over the whole dim stays local and keeps the split. */
static void test_partition_reduce_over_split_dim(void **state)
{
    (void)state;
    const char *sh[1] = {"x,_"};
    struct parted p;
    partition_or_fail(k_reduce, "4", sh, 1, &p);
    assert_int_equal(count_colls(&p.rep, PART_ALL_REDUCE), 2);
    assert_int_equal(p.rep.n_colls, 2);
    assert_int_equal(p.rep.results[2].n_axes[0], 1); /* %r: rows stay split */
    assert_true(strstr(p.text, "stablehlo.maximum") != NULL);
    expect_equivalent(&p, 1e-5);
    /* max is exact: compare output 1 bit for bit */
    int n = 0;
    struct base_tensor **in = random_inputs(p.src, test_seed() + 7, &n);
    struct interp_result a, b;
    run(p.src, NULL, in, n, 1, &a);
    run(p.out, NULL, in, n, 4, &b);
    expect_same(a.outputs[1], b.outputs[1], 0, "max");
    expect_same(a.outputs[2], b.outputs[2], 0, "row sums");
    interp_result_free(&a);
    interp_result_free(&b);
    free_inputs(in, n);
    expect_compiles(&p);
    parted_free(&p);
}

/* A sum whose init is not 0 cannot start on every partition: the split dim
 * is gathered first and the result is still right. */
static void test_partition_reduce_with_nonidentity_init_gathers(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%x: tensor<8x6xf32>) -> tensor<6xf32> {\n"
        "  %one = stablehlo.constant dense<1.0> : tensor<f32>\n"
        "  %s = stablehlo.reduce(%x init: %one) applies stablehlo.add across dimensions = [0] : (tensor<8x6xf32>, "
        "tensor<f32>) -> tensor<6xf32>\n"
        "  return %s : tensor<6xf32>\n"
        "}\n";
    const char *sh[1] = {"x,_"};
    struct parted p;
    partition_or_fail(src, "2", sh, 1, &p);
    assert_int_equal(count_colls(&p.rep, PART_ALL_REDUCE), 0);
    assert_int_equal(count_colls(&p.rep, PART_ALL_GATHER), 1);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* a split over dim 0, b over dim 1: one all_to_all moves b's split to dim 0. */
static void test_partition_elementwise_mixed_shardings(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> tensor<4x6xf32> {\n"
        "  %s = stablehlo.multiply %a, %b : tensor<4x6xf32>\n"
        "  %t = stablehlo.subtract %s, %b : tensor<4x6xf32>\n"
        "  return %t : tensor<4x6xf32>\n"
        "}\n";
    const char *sh[2] = {"x,_", "_,x"};
    struct parted p;
    partition_or_fail(src, "x=2", sh, 2, &p);
    assert_int_equal(p.rep.results[0].n_axes[0], 1); /* the result follows a */
    assert_int_equal(p.rep.n_colls, 1);
    assert_int_equal(count_colls(&p.rep, PART_ALL_TO_ALL), 1);
    expect_equivalent(&p, 0);
    expect_compiles(&p);
    parted_free(&p);
}

static void test_partition_transpose_and_broadcast_map_the_split(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<4x6xf32>, %v: tensor<6xf32>) -> (tensor<6x4xf32>, tensor<2x6x4xf32>, "
        "tensor<2x6x4xf32>) {\n"
        "  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>\n"
        "  %b = stablehlo.broadcast_in_dim %t, dims = [1, 2] : (tensor<6x4xf32>) -> tensor<2x6x4xf32>\n"
        "  %vb = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<6xf32>) -> tensor<2x6x4xf32>\n"
        "  %s = stablehlo.add %b, %vb : tensor<2x6x4xf32>\n"
        "  return %t, %b, %s : tensor<6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>\n"
        "}\n";
    const char *sh[2] = {"x,y", NULL};
    struct parted p;
    partition_or_fail(src, "x=2,y=3", sh, 2, &p);
    /* transpose: [x, y] -> [y, x]; the broadcast keeps it on dims 1, 2 */
    const struct part_sharding *t = &p.rep.results[0], *b = &p.rep.results[1];
    assert_int_equal(t->n_axes[0], 1);
    assert_int_equal(t->axes[0][0], 1);
    assert_int_equal(t->axes[1][0], 0);
    assert_int_equal(b->n_axes[0], 0);
    assert_int_equal(b->axes[1][0], 1);
    assert_int_equal(b->axes[2][0], 0);
    /* the add runs on %b's shards: %vb is built from each partition's own
     * slice of %v (partition_id + dynamic_slice), nothing is gathered */
    assert_int_equal(p.rep.n_colls, 0);
    assert_non_null(strstr(p.text, "stablehlo.partition_id"));
    assert_non_null(strstr(p.text, "stablehlo.dynamic_slice"));
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* A bias add of a split activation and a whole bias runs on shards: the
 * bias is sliced by partition_id; the compiled program on 4 simulated trn2
 * chips gives the unsharded program's values. */
static void test_partition_sliced_operand_runs_on_simulated_chips(void **state)
{
    (void)state;
    static const char src[] = "func.func @main(%a: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {\n"
                              "  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>\n"
                              "  %s = stablehlo.add %a, %bb : tensor<8x16xf32>\n"
                              "  %t = stablehlo.tanh %s : tensor<8x16xf32>\n"
                              "  return %t : tensor<8x16xf32>\n"
                              "}\n";
    const char *sh[2] = {"_,x", NULL};
    struct parted p;
    partition_or_fail(src, "4", sh, 2, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.n_fallbacks, 0);
    struct chip_desc chip;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load("trn2", &chip, &d), BASE_OK);
    struct cc_plan *plan = NULL;
    if (cc_compile(p.out, &chip, NULL, &plan, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cc_compile");
    }
    struct sim *sims[4] = {NULL};
    struct sim_options so;
    sim_options_default(&so);
    for (int i = 0; i < 4; i++) assert_int_equal(sim_create(&chip, &so, &sims[i], &d), BASE_OK);
    int64_t da[2] = {8, 16}, db[1] = {16};
    struct base_tensor *in[2] = {NULL, NULL}, *out[1] = {NULL};
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, da, &in[0]), BASE_OK);
    assert_int_equal(base_tensor_create(BASE_DT_F32, 1, db, &in[1]), BASE_OK);
    assert_int_equal(base_tensor_fill_random(in[0], 5, 1.0), BASE_OK);
    assert_int_equal(base_tensor_fill_random(in[1], 6, 1.0), BASE_OK);
    if (rt_run_spmd(plan, sims, 4, in, 2, NULL, out, NULL, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("rt_run_spmd");
    }
    struct interp_options io;
    memset(&io, 0, sizeof io);
    struct interp_result gold;
    assert_int_equal(interp_run(p.src, NULL, in, 2, &io, &gold, &d), BASE_OK);
    struct rt_compare cmp;
    rt_compare_output(plan, out[0], gold.outputs[0], &cmp);
    if (!cmp.passed) fail_msg("%lld elements differ from the unsharded program's", (long long)cmp.n_bad);
    interp_result_free(&gold);
    base_tensor_release(out[0]);
    base_tensor_release(in[0]);
    base_tensor_release(in[1]);
    for (int i = 0; i < 4; i++) sim_destroy(sims[i]);
    cc_plan_destroy(plan);
    parted_free(&p);
}

static void test_partition_reshape_keeps_a_major_split(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<8x6xf32>) -> (tensor<2x4x6xf32>, tensor<48xf32>, tensor<6x8xf32>) {\n"
        "  %r = stablehlo.reshape %a : (tensor<8x6xf32>) -> tensor<2x4x6xf32>\n"
        "  %f = stablehlo.reshape %a : (tensor<8x6xf32>) -> tensor<48xf32>\n"
        "  %g = stablehlo.reshape %a : (tensor<8x6xf32>) -> tensor<6x8xf32>\n"
        "  return %r, %f, %g : tensor<2x4x6xf32>, tensor<48xf32>, tensor<6x8xf32>\n"
        "}\n";
    const char *sh[1] = {"x,_"};
    struct parted p;
    partition_or_fail(src, "x=2", sh, 1, &p);
    assert_int_equal(p.rep.results[0].n_axes[0], 1); /* 8 -> 2x4: the 2 takes the split */
    assert_int_equal(p.rep.results[1].n_axes[0], 1); /* 8x6 -> 48: contiguous halves */
    assert_int_equal(p.rep.results[2].n_axes[0], 1); /* 8x6 -> 6x8: 24 elements each, rows 0-2 / 3-5 */
    assert_int_equal(p.rep.n_colls, 0);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

static void test_partition_reshape_of_minor_split_gathers(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<4x6xf32>) -> tensor<24xf32> {\n"
        "  %f = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<24xf32>\n"
        "  return %f : tensor<24xf32>\n"
        "}\n";
    const char *sh[1] = {"_,x"};
    struct parted p;
    partition_or_fail(src, "x=2", sh, 1, &p);
    assert_int_equal(count_colls(&p.rep, PART_ALL_GATHER), 1);
    assert_int_equal(p.rep.results[0].n_axes[0], 0);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* A slice that cuts the split dim, and a concatenate along it, run replicated
 * on gathered operands. */
static void test_partition_unknown_op_falls_back_to_replicated(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<8x4xf32>) -> tensor<12x4xf32> {\n"
        "  %s = stablehlo.slice %a [2:6, 0:4] : (tensor<8x4xf32>) -> tensor<4x4xf32>\n"
        "  %c = stablehlo.concatenate %a, %s, dim = 0 : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<12x4xf32>\n"
        "  %e = stablehlo.exponential %c : tensor<12x4xf32>\n"
        "  return %e : tensor<12x4xf32>\n"
        "}\n";
    const char *sh[1] = {"x,_"};
    struct parted p;
    partition_or_fail(src, "x=4", sh, 1, &p);
    assert_int_equal(p.rep.n_fallbacks, 2); /* the slice and the concatenate */
    assert_int_equal(count_colls(&p.rep, PART_ALL_GATHER), 1); /* %a gathered once, reused */
    assert_int_equal(p.rep.results[0].n_axes[0], 0);
    expect_equivalent(&p, 0);
    expect_compiles(&p);
    parted_free(&p);
}

/* Slices and concatenates along whole dims keep the split of the others. */
static void test_partition_slice_and_concat_keep_other_splits(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<8x6xf32>) -> (tensor<8x3xf32>, tensor<8x9xf32>) {\n"
        "  %s = stablehlo.slice %a [0:8, 1:6:2] : (tensor<8x6xf32>) -> tensor<8x3xf32>\n"
        "  %c = stablehlo.concatenate %a, %s, dim = 1 : (tensor<8x6xf32>, tensor<8x3xf32>) -> tensor<8x9xf32>\n"
        "  return %s, %c : tensor<8x3xf32>, tensor<8x9xf32>\n"
        "}\n";
    const char *sh[1] = {"x,_"};
    struct parted p;
    partition_or_fail(src, "x=4", sh, 1, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_int_equal(p.rep.results[0].n_axes[0], 1);
    assert_int_equal(p.rep.results[1].n_axes[0], 1);
    assert_non_null(strstr(p.text, "limit_indices = array<i64: 2, 6>"));
    expect_equivalent(&p, 0);
    expect_compiles(&p);
    parted_free(&p);
}

/* A dim split over {y, x} of mesh x=2, y=3 gathers in shard order
 * (y major): devices 0, 3, 1, 4, 2, 5. */
static void test_partition_gather_over_two_axes_in_shard_order(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<12x4xf32>) -> tensor<5x4xf32> {\n"
        "  %e = stablehlo.exponential %a : tensor<12x4xf32>\n"
        "  %s = stablehlo.slice %e [1:6, 0:4] : (tensor<12x4xf32>) -> tensor<5x4xf32>\n"
        "  return %s : tensor<5x4xf32>\n"
        "}\n";
    const char *sh[1] = {"{y,x},_"};
    struct parted p;
    partition_or_fail(src, "x=2,y=3", sh, 1, &p);
    assert_non_null(strstr(p.text, "replica_groups = dense<[[0, 3, 1, 4, 2, 5]]>"));
    assert_int_equal(p.rep.colls[0].group_size, 6);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* Batched matmul with the batch split on both sides: local, no collective. */
static void test_partition_batched_dot_keeps_batch_split(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<4x3x5xf32>, %b: tensor<4x5x2xf32>) -> tensor<4x3x2xf32> {\n"
        "  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : "
        "(tensor<4x3x5xf32>, tensor<4x5x2xf32>) -> tensor<4x3x2xf32>\n"
        "  return %d : tensor<4x3x2xf32>\n"
        "}\n";
    const char *sh[2] = {"b,_,_", "b,_,_"};
    struct parted p;
    partition_or_fail(src, "b=2", sh, 2, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.results[0].n_axes[0], 1);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* Contraction split on one side only: that side is gathered first. */
static void test_partition_one_sided_contraction_gathers(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<4x6xf32>, %b: tensor<6x2xf32>) -> tensor<4x2xf32> {\n"
        "  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x2xf32>) -> "
        "tensor<4x2xf32>\n"
        "  return %d : tensor<4x2xf32>\n"
        "}\n";
    const char *sh[2] = {"_,x", NULL};
    struct parted p;
    partition_or_fail(src, "x=3", sh, 2, &p);
    assert_int_equal(count_colls(&p.rep, PART_ALL_GATHER), 1);
    assert_int_equal(count_colls(&p.rep, PART_ALL_REDUCE), 0);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* Data-parallel batch and split output features: local, no collective. */
static void test_partition_convolution_keeps_batch_and_features(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%in: tensor<4x3x8x8xf32>, %k: tensor<6x3x3x3xf32>) -> tensor<4x6x6x6xf32> {\n"
        "  %r = stablehlo.convolution(%in, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} "
        "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x3x8x8xf32>, tensor<6x3x3x3xf32>) "
        "-> tensor<4x6x6x6xf32>\n"
        "  return %r : tensor<4x6x6x6xf32>\n"
        "}\n";
    const char *sh[2] = {"x,_,_,_", "y,_,_,_"};
    struct parted p;
    partition_or_fail(src, "x=2,y=3", sh, 2, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.results[0].axes[0][0], 0);
    assert_int_equal(p.rep.results[0].axes[1][0], 1);
    assert_non_null(strstr(p.text, "-> tensor<2x2x6x6xf32>"));
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* An argmax (two-input reduce with a compare/select body) over a whole dim
 * keeps the split of the other; over the split dim it gathers. */
static void test_partition_multi_input_reduce(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%x: tensor<4x6xf32>) -> (tensor<4xi32>, tensor<6xi32>) {\n"
        "  %i = stablehlo.iota dim = 1 : tensor<4x6xi32>\n"
        "  %j = stablehlo.iota dim = 0 : tensor<4x6xi32>\n"
        "  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %r:2 = stablehlo.reduce(%x init: %m), (%i init: %z) across dimensions = [1] : (tensor<4x6xf32>, "
        "tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)\n"
        "   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %d: tensor<i32>) {\n"
        "    %g = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    %v = stablehlo.select %g, %a, %b : tensor<i1>, tensor<f32>\n"
        "    %w = stablehlo.select %g, %c, %d : tensor<i1>, tensor<i32>\n"
        "    stablehlo.return %v, %w : tensor<f32>, tensor<i32>\n"
        "  }\n"
        "  %s:2 = stablehlo.reduce(%x init: %m), (%j init: %z) across dimensions = [0] : (tensor<4x6xf32>, "
        "tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)\n"
        "   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %d: tensor<i32>) {\n"
        "    %g = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    %v = stablehlo.select %g, %a, %b : tensor<i1>, tensor<f32>\n"
        "    %w = stablehlo.select %g, %c, %d : tensor<i1>, tensor<i32>\n"
        "    stablehlo.return %v, %w : tensor<f32>, tensor<i32>\n"
        "  }\n"
        "  return %r#1, %s#1 : tensor<4xi32>, tensor<6xi32>\n"
        "}\n";
    const char *sh[1] = {"x,_"};
    struct parted p;
    partition_or_fail(src, "x=2", sh, 1, &p);
    assert_int_equal(p.rep.results[0].n_axes[0], 1); /* rows stay split, the iota rebuilt locally */
    assert_int_equal(p.rep.results[1].n_axes[0], 0);
    assert_int_equal(count_colls(&p.rep, PART_ALL_GATHER), 1); /* only %x, for the reduce over rows */
    assert_int_equal(p.rep.n_fallbacks, 0);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* A reduction body that reads a value of the enclosing function (as torch
 * exports write them) is copied with that value. */
static void test_partition_reduce_body_capturing_a_value(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%x: tensor<4x6xf32>) -> tensor<4xf32> {\n"
        "  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %f = stablehlo.constant dense<0.25> : tensor<f32>\n"
        "  %r = stablehlo.reduce(%x init: %m) across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> "
        "tensor<4xf32>\n"
        "   reducer(%a: tensor<f32>, %b: tensor<f32>) {\n"
        "    %t = stablehlo.maximum %a, %b : tensor<f32>\n"
        "    %u = stablehlo.maximum %t, %f : tensor<f32>\n"
        "    stablehlo.return %u : tensor<f32>\n"
        "  }\n"
        "  return %r : tensor<4xf32>\n"
        "}\n";
    const char *sh[1] = {"x,_"};
    struct parted p;
    partition_or_fail(src, "x=2", sh, 1, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.results[0].n_axes[0], 1);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* Shardings read from the graph: mhlo.sharding (mesh implied) and sdy. */
static void test_partition_reads_mhlo_sharding(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%x: tensor<8x4xf32> {mhlo.sharding = \"{devices=[4,1,2]<=[8] last_tile_dim_replicate}\"},"
        " %w: tensor<4x6xf32> {mhlo.sharding = \"{replicated}\"}) -> tensor<8x6xf32> {\n"
        "  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> "
        "tensor<8x6xf32>\n"
        "  return %d : tensor<8x6xf32>\n"
        "}\n";
    struct parted p;
    partition_or_fail(src, NULL, NULL, 0, &p);
    assert_int_equal(part_mesh_size(&p.mesh), 8);
    assert_int_equal(p.mesh.n_axes, 2);
    assert_int_equal(p.mesh.sizes[0], 4);
    assert_int_equal(p.rep.args[0].n_axes[0], 1);
    assert_int_equal(p.rep.args[0].axes[0][0], 0);
    assert_int_equal(p.rep.args[1].n_axes[0] + p.rep.args[1].n_axes[1], 0);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

static void test_partition_reads_sdy_sharding(void **state)
{
    (void)state;
    static const char src[] =
        "sdy.mesh @m = <[\"a\"=2, \"b\"=2]>\n"
        "func.func @main(%x: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {\"b\", \"a\"}]>}) -> "
        "tensor<4x8xf32> {\n"
        "  %e = stablehlo.exponential %x : tensor<4x8xf32>\n"
        "  return %e : tensor<4x8xf32>\n"
        "}\n";
    struct parted p;
    partition_or_fail(src, NULL, NULL, 0, &p);
    assert_int_equal(p.rep.args[0].n_axes[1], 2);
    assert_int_equal(p.rep.args[0].axes[1][0], 1); /* b major */
    assert_non_null(strstr(p.text, "tensor<4x2xf32>"));
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* ---------------------------------------------------------------- errors */

static void test_partition_bad_mesh_strings_are_rejected(void **state)
{
    (void)state;
    const char *bad[] = {"", "data=", "4x", "x=0", "a=2,a=2", "4,2", "=4", "a=2;b=3", "1x2x3x4x5x6x7x8x9"};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        struct part_mesh m;
        struct base_diag d;
        base_diag_clear(&d);
        if (part_parse_mesh(bad[i], &m, &d) == BASE_OK) fail_msg("mesh '%s' accepted", bad[i]);
        assert_true(d.msg[0] != 0);
    }
    struct part_mesh m;
    struct base_diag d;
    assert_int_equal(part_parse_mesh("4x2", &m, &d), BASE_OK);
    assert_int_equal(m.n_axes, 2);
    assert_string_equal(m.names[1], "y");
    assert_int_equal(m.sizes[0], 4);
    assert_int_equal(part_parse_mesh("data=4,model=2", &m, &d), BASE_OK);
    assert_string_equal(m.names[1], "model");
}

static void test_partition_unknown_axis_is_rejected(void **state)
{
    (void)state;
    struct part_mesh m;
    struct part_sharding s;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(part_parse_mesh("data=2", &m, &d), BASE_OK);
    assert_int_equal(part_parse_sharding("model,_", &m, &s, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "model"));
    base_diag_clear(&d);
    assert_int_equal(part_parse_sharding("data,data", &m, &s, &d), BASE_ERR_INVALID);
    base_diag_clear(&d);
    assert_int_equal(part_parse_sharding("{data,_", &m, &s, &d), BASE_ERR_INVALID);
    assert_int_equal(part_parse_sharding("{data},_", &m, &s, &d), BASE_OK);
    assert_int_equal(s.rank, 2);
    assert_int_equal(s.n_axes[0], 1);
}

/* dim 0 of size 6 over 4 devices: a located error at the function. */
static void test_partition_non_dividing_dim_is_a_located_error(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {\n"
        "  return %x : tensor<6x4xf32>\n"
        "}\n";
    struct graph_module *m = prog_parse(src);
    struct part_mesh mesh;
    struct part_sharding s;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(part_parse_mesh("4", &mesh, &d), BASE_OK);
    assert_int_equal(part_parse_sharding("x,_", &mesh, &s, &d), BASE_OK);
    struct graph_module *out = (struct graph_module *)1;
    assert_int_equal(part_partition(m, NULL, &mesh, &s, 1, &out, NULL, &d), BASE_ERR_INVALID);
    assert_null(out);
    assert_int_equal(d.line, 1);
    assert_true(d.col > 0);
    assert_non_null(strstr(d.msg, "does not divide"));
    /* a sharding of the wrong rank */
    base_diag_clear(&d);
    assert_int_equal(part_parse_sharding("x", &mesh, &s, &d), BASE_OK);
    assert_int_equal(part_partition(m, NULL, &mesh, &s, 1, &out, NULL, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "rank"));
    /* no mesh anywhere */
    base_diag_clear(&d);
    assert_int_equal(part_partition(m, NULL, NULL, NULL, 0, &out, NULL, &d), BASE_ERR_INVALID);
    assert_non_null(strstr(d.msg, "no mesh"));
    graph_module_destroy(m);
}

/* A program that is already SPMD is refused, located at the op. */
static void test_partition_refuses_an_spmd_program(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %s = \"stablehlo.all_reduce\"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %t = stablehlo.add %a, %b : tensor<f32>\n"
        "    stablehlo.return %t : tensor<f32>\n"
        "  }) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  return %s : tensor<4xf32>\n"
        "}\n";
    struct graph_module *m = prog_parse(src);
    struct part_mesh mesh;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(part_parse_mesh("2", &mesh, &d), BASE_OK);
    struct graph_module *out = NULL;
    assert_int_equal(part_partition(m, NULL, &mesh, NULL, 0, &out, NULL, &d), BASE_ERR_UNSUPPORTED);
    assert_null(out);
    assert_int_equal(d.line, 2);
    assert_non_null(strstr(d.msg, "already"));
    graph_module_destroy(m);
}

/* ---------------------------------------------------------------- corpus */

/* Turns a testdata file (main calls @inputs()) into one whose main takes the
 * inputs as arguments %pin0, %pin1, ...; NULL when the file has another shape. */
static char *argify(const char *text)
{
    const char *call = strstr(text, "= call @inputs()");
    const char *main_sig = strstr(text, "@main()");
    if (!call || !main_sig || main_sig > call) return NULL;
    const char *ls = call;
    while (ls > text && ls[-1] != '\n') ls--;
    const char *le = strchr(call, '\n');
    if (!le) return NULL;
    const char *nm = ls;
    while (*nm == ' ') nm++;
    if (*nm != '%') return NULL;
    const char *ne = nm + 1;
    while (*ne && *ne != ':' && *ne != ' ') ne++;
    size_t name_len = (size_t)(ne - nm);
    bool multi = *ne == ':';
    const char *ty = strstr(call, "-> ");
    if (!ty || ty > le) return NULL;
    ty += 3;
    /* the argument list */
    char args[4096];
    size_t an = 0;
    int k = 0;
    const char *q = ty + (*ty == '(' ? 1 : 0);
    while (q < le && *q != ')' && *q != '\n') {
        const char *b = q;
        int depth = 0;
        while (q < le && !(depth == 0 && (*q == ',' || *q == ')' || *q == '\n'))) {
            depth += *q == '<' ? 1 : *q == '>' ? -1 : 0;
            q++;
        }
        int w = snprintf(args + an, sizeof args - an, "%s%%pin%d: %.*s", k ? ", " : "", k, (int)(q - b), b);
        if (w < 0 || (size_t)w >= sizeof args - an) return NULL;
        an += (size_t)w;
        k++;
        if (*q == ',') q++;
        while (*q == ' ') q++;
    }
    /* end of main: the first "\n  }\n" after the call */
    const char *fe = strstr(le, "\n  }\n");
    if (!fe) return NULL;
    size_t cap = strlen(text) + an + 64 * (size_t)(fe - le) / 2 + 256;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t n = 0;
    n += (size_t)snprintf(out + n, cap - n, "%.*s(%s)", (int)(main_sig + 5 - text), text, args);
    n += (size_t)snprintf(out + n, cap - n, "%.*s", (int)(ls - (main_sig + 7)), main_sig + 7);
    for (const char *p = le + 1; p < fe; p++) {
        if (!strncmp(p, nm, name_len)) {
            const char *after = p + name_len;
            if (multi && *after == '#') {
                int idx = atoi(after + 1);
                after++;
                while (*after >= '0' && *after <= '9') after++;
                n += (size_t)snprintf(out + n, cap - n, "%%pin%d", idx);
                p = after - 1;
                continue;
            }
            if (!multi && !(isalnum((unsigned char)*after) || *after == '_' || *after == '#' || *after == ':')) {
                n += (size_t)snprintf(out + n, cap - n, "%%pin0");
                p = after - 1;
                continue;
            }
        }
        out[n++] = *p;
    }
    n += (size_t)snprintf(out + n, cap - n, "%s", fe);
    return out;
}

static bool corpus_name(const char *base)
{
    static const char *const prefixes[] = {"argmax_", "argmin_", "cumsum_", "dot_general_", "max_", "min_",
                                           "reduce_", "scatter_max_", "scatter_min_"};
    if (!strstr(base, "float32") || strstr(base, "dynamic") || strstr(base, "_q")) return false;
    for (size_t i = 0; i < ARRAY_LEN(prefixes); i++)
        if (!strncmp(base, prefixes[i], strlen(prefixes[i]))) return true;
    return false;
}

/* f32 dot/reduce testdata with its first input split 2 ways along dim 0
 * (where it divides): the partitioned program gives the same outputs, and
 * the file's own checks pass inside it. */
static void test_partition_corpus_files_match_interpreter(void **state)
{
    (void)state;
    size_t n_paths = 0;
    char **paths = test_dir_paths(test_shared_path("conformance/stablehlo-testdata"), &n_paths);
    int checked = 0, skipped = 0, with_colls = 0;
    for (size_t i = 0; i < n_paths; i++) {
        const char *base = strrchr(paths[i], '/');
        base = base ? base + 1 : paths[i];
        if (!corpus_name(base)) continue;
        char *text = NULL;
        size_t len = 0;
        struct base_diag d;
        base_diag_clear(&d);
        assert_int_equal(base_file_read(paths[i], &text, &len, &d), BASE_OK);
        struct graph_module *orig = prog_parse(text);
        char *src = argify(text);
        free(text);
        if (!src) {
            skipped++;
            graph_module_destroy(orig);
            continue;
        }
        struct interp_result inputs;
        run(orig, "inputs", NULL, 0, 1, &inputs);
        graph_module_destroy(orig);
        const struct base_tensor *first = inputs.n_outputs ? inputs.outputs[0] : NULL;
        if (!first || first->rank < 1 || first->dims[0] % 2) {
            skipped++;
            interp_result_free(&inputs);
            free(src);
            continue;
        }
        char spec[64] = "x";
        for (int dd = 1; dd < first->rank; dd++) strcat(spec, ",_");
        struct parted p;
        const char *sh[1] = {spec};
        partition_or_fail(src, "x=2", sh, 1, &p);
        struct interp_result a, b;
        run(p.src, NULL, inputs.outputs, inputs.n_outputs, 1, &a);
        run(p.out, NULL, inputs.outputs, inputs.n_outputs, 2, &b);
        assert_int_equal(b.n_outputs, a.n_outputs);
        for (int k = 0; k < a.n_outputs; k++) {
            expect_same(a.outputs[k], b.outputs[k], 1e-5, base);
            expect_same(a.outputs[k], b.outputs[a.n_outputs + k], 1e-5, base);
        }
        with_colls += p.rep.n_colls > 0;
        checked++;
        interp_result_free(&a);
        interp_result_free(&b);
        interp_result_free(&inputs);
        parted_free(&p);
        free(src);
    }
    test_paths_free(paths, n_paths);
    fprintf(stderr, "partitioned and checked %d corpus files (%d with collectives), skipped %d\n", checked,
            with_colls, skipped);
    assert_true(checked >= 10);
}

/* ---------------------------------------------------------------- loops and indexing */

/* dynamic_slice taking a layer of a stack whose features are split keeps the
 * split (the index clamps to 0 on each shard as on the whole dim); the
 * update writes a split row into a stack split alike; no collective. */
static void test_partition_dynamic_slices_keep_whole_dims_split(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%w: tensor<3x4x8xf32>, %i: tensor<i32>, %u: tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, "
        "tensor<3x4x8xf32>) {\n"
        "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %s = stablehlo.dynamic_slice %w, %i, %z, %z, sizes = [1, 4, 8] : (tensor<3x4x8xf32>, tensor<i32>, "
        "tensor<i32>, tensor<i32>) -> tensor<1x4x8xf32>\n"
        "  %e = stablehlo.exponential %u : tensor<1x4x8xf32>\n"
        "  %d = stablehlo.dynamic_update_slice %w, %e, %i, %z, %z : (tensor<3x4x8xf32>, tensor<1x4x8xf32>, "
        "tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x4x8xf32>\n"
        "  return %s, %d : tensor<1x4x8xf32>, tensor<3x4x8xf32>\n"
        "}\n";
    const char *sh[3] = {"_,_,x", NULL, "_,_,x"};
    struct parted p;
    partition_or_fail(src, "x=4", sh, 3, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_int_equal(p.rep.results[0].n_axes[2], 1);
    assert_int_equal(p.rep.results[1].n_axes[2], 1);
    assert_non_null(strstr(p.text, "slice_sizes = array<i64: 1, 4, 2>"));
    /* the index, clamped, reads each layer */
    for (int64_t i = 0; i < 3; i++) {
        int n = 0;
        struct base_tensor **in = random_inputs(p.src, test_seed() + (uint64_t)i, &n);
        base_elem_set_i64(BASE_DT_SI32, in[1]->data, 0, i);
        struct interp_result a, b;
        run(p.src, NULL, in, n, 1, &a);
        run(p.out, NULL, in, n, 4, &b);
        for (int k = 0; k < 2; k++) expect_same(a.outputs[k], b.outputs[k], 0, "output");
        interp_result_free(&a);
        interp_result_free(&b);
        free_inputs(in, n);
    }
    expect_compiles(&p);
    parted_free(&p);
}

/* A loop over stacked layers, as npusim model writes one: x [8, 16] split
 * over data, each iteration x = tanh(x @ w[i]) with w [3, 16, 16] whole and
 * each layer's input written into a stack of zeros.  The body runs on
 * shards with no collective, and the stack, starting as (replicated)
 * zeros, is carried split over data too: the second pass over the body
 * sees it come back split and carries it so. */
static const char k_loop[] =
    "func.func @main(%x: tensor<8x16xf32>, %w: tensor<3x16x16xf32>) -> (tensor<8x16xf32>, tensor<3x8x16xf32>) {\n"
    "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %zf = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %st = stablehlo.broadcast_in_dim %zf, dims = [] : (tensor<f32>) -> tensor<3x8x16xf32>\n"
    "  %r:3 = stablehlo.while(%i = %c0, %h = %x, %s = %st) : tensor<i32>, tensor<8x16xf32>, tensor<3x8x16xf32>\n"
    "  cond {\n"
    "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
    "    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %p : tensor<i1>\n"
    "  } do {\n"
    "    %z = stablehlo.constant dense<0> : tensor<i32>\n"
    "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
    "    %wi = stablehlo.dynamic_slice %w, %i, %z, %z, sizes = [1, 16, 16] : (tensor<3x16x16xf32>, tensor<i32>, "
    "tensor<i32>, tensor<i32>) -> tensor<1x16x16xf32>\n"
    "    %w2 = stablehlo.reshape %wi : (tensor<1x16x16xf32>) -> tensor<16x16xf32>\n"
    "    %h3 = stablehlo.reshape %h : (tensor<8x16xf32>) -> tensor<1x8x16xf32>\n"
    "    %s2 = stablehlo.dynamic_update_slice %s, %h3, %i, %z, %z : (tensor<3x8x16xf32>, tensor<1x8x16xf32>, "
    "tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x8x16xf32>\n"
    "    %y = stablehlo.dot_general %h, %w2, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> "
    "tensor<8x16xf32>\n"
    "    %t = stablehlo.tanh %y : tensor<8x16xf32>\n"
    "    %i2 = stablehlo.add %i, %one : tensor<i32>\n"
    "    stablehlo.return %i2, %t, %s2 : tensor<i32>, tensor<8x16xf32>, tensor<3x8x16xf32>\n"
    "  }\n"
    "  return %r#1, %r#2 : tensor<8x16xf32>, tensor<3x8x16xf32>\n"
    "}\n";

static void test_partition_while_runs_its_body_on_shards(void **state)
{
    (void)state;
    const char *sh[2] = {"data,_", NULL};
    struct parted p;
    partition_or_fail(k_loop, "data=4", sh, 2, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_int_equal(p.rep.results[0].n_axes[0], 1);
    assert_int_equal(p.rep.results[1].n_axes[1], 1); /* the stack, split over data */
    assert_int_equal(count_str(p.text, "stablehlo.while"), 1);
    assert_non_null(strstr(p.text, "tensor<3x2x16xf32>"));
    expect_equivalent(&p, 0);
    expect_compiles(&p);
    parted_free(&p);
}

/* Tensor parallel inside the loop: the stacked weight's output features
 * split over model; each iteration's gathered activation stays in the body
 * (the loop's own copy), and the results are gathered once, outside it. */
static void test_partition_while_with_split_weights_gathers_inside(void **state)
{
    (void)state;
    const char *sh[2] = {NULL, "_,_,model"};
    struct parted p;
    partition_or_fail(k_loop, "model=2", sh, 2, &p);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_true(count_colls(&p.rep, PART_ALL_GATHER) >= 1);
    expect_equivalent(&p, 1e-6);
    expect_compiles(&p);
    parted_free(&p);
}

/* An embedding lookup: ids split over data look up their rows in a table
 * whose features are split over model; the result keeps both splits, no
 * collective.  Its transpose, a scatter-add of the rows' updates into
 * zeros, adds each partition's updates and sums them with one all_reduce. */
static void test_partition_gather_and_scatter_add_rows(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%t: tensor<16x8xf32>, %ids: tensor<4x6x1xi32>, %u: tensor<24x8xf32>, %ix: tensor<24x1xi32>) "
        "-> (tensor<4x6x8xf32>, tensor<16x8xf32>) {\n"
        "  %g = \"stablehlo.gather\"(%t, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [2], "
        "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, "
        "slice_sizes = array<i64: 1, 8>} : (tensor<16x8xf32>, tensor<4x6x1xi32>) -> tensor<4x6x8xf32>\n"
        "  %zf = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %z = stablehlo.broadcast_in_dim %zf, dims = [] : (tensor<f32>) -> tensor<16x8xf32>\n"
        "  %s = \"stablehlo.scatter\"(%z, %ix, %u) ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %c = stablehlo.add %a, %b : tensor<f32>\n"
        "    stablehlo.return %c : tensor<f32>\n"
        "  }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
        "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false} "
        ": (tensor<16x8xf32>, tensor<24x1xi32>, tensor<24x8xf32>) -> tensor<16x8xf32>\n"
        "  return %g, %s : tensor<4x6x8xf32>, tensor<16x8xf32>\n"
        "}\n";
    const char *sh[4] = {"_,model", "data,_,_", "data,_", "data,_"};
    struct parted p;
    partition_or_fail(src, "data=2,model=2", sh, 4, &p);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_int_equal(p.rep.n_colls, 1);
    assert_int_equal(count_colls(&p.rep, PART_ALL_REDUCE), 1);
    assert_int_equal(p.rep.results[0].n_axes[0], 1);
    assert_int_equal(p.rep.results[0].n_axes[2], 1);
    /* ids in range: random integers are made small */
    int n = 0;
    struct base_tensor **in = random_inputs(p.src, test_seed(), &n);
    for (int k = 1; k < 4; k += 2)
        for (int64_t e = 0; e < in[k]->count; e++)
            base_elem_set_i64(BASE_DT_SI32, in[k]->data, (size_t)e,
                              base_elem_get_i64(BASE_DT_SI32, in[k]->data, (size_t)e) % 16);
    struct interp_result a, b;
    run(p.src, NULL, in, n, 1, &a);
    run(p.out, NULL, in, n, 4, &b);
    for (int proc = 0; proc < 4; proc++) {
        expect_same(a.outputs[0], b.outputs[proc * 2], 0, "rows");
        expect_same(a.outputs[1], b.outputs[proc * 2 + 1], 1e-6, "scatter-add");
    }
    interp_result_free(&a);
    interp_result_free(&b);
    free_inputs(in, n);
    expect_compiles(&p);
    parted_free(&p);
}

/* A pad of the last dim keeps the split of the others. */
static void test_partition_pad_keeps_unpadded_splits(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<8x3xf32>) -> tensor<8x5xf32> {\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %p = stablehlo.pad %a, %z, low = [0, 1], high = [0, 1], interior = [0, 0] : (tensor<8x3xf32>, tensor<f32>) "
        "-> tensor<8x5xf32>\n"
        "  return %p : tensor<8x5xf32>\n"
        "}\n";
    const char *sh[1] = {"x,_"};
    struct parted p;
    partition_or_fail(src, "x=4", sh, 1, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_int_equal(p.rep.results[0].n_axes[0], 1);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* Expert parallelism as a MoE layer writes it: tokens dispatched per group
 * [E, G, C, M] with G split over data and expert, expert weights [E, M, F]
 * split over expert: the batched dot moves the expert axis from G to E (one
 * all_to_all; data stays on G), runs the experts on their shards, and the
 * combine back to [G, C, M] moves it back (another); no gather. */
static void test_partition_expert_parallel_dots_move_the_split(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%x: tensor<4x8x3x6xf32>, %w: tensor<4x6x5xf32>, %v: tensor<4x5x6xf32>, %cw: tensor<8x3x4xf32>) "
        "-> tensor<8x6xf32> {\n"
        "  %h = stablehlo.dot_general %x, %w, batching_dims = [0] x [0], contracting_dims = [3] x [1] : "
        "(tensor<4x8x3x6xf32>, tensor<4x6x5xf32>) -> tensor<4x8x3x5xf32>\n"
        "  %t = stablehlo.tanh %h : tensor<4x8x3x5xf32>\n"
        "  %y = stablehlo.dot_general %t, %v, batching_dims = [0] x [0], contracting_dims = [3] x [1] : "
        "(tensor<4x8x3x5xf32>, tensor<4x5x6xf32>) -> tensor<4x8x3x6xf32>\n"
        "  %s = stablehlo.dot_general %cw, %y, batching_dims = [0] x [1], contracting_dims = [1, 2] x [2, 0] : "
        "(tensor<8x3x4xf32>, tensor<4x8x3x6xf32>) -> tensor<8x6xf32>\n"
        "  return %s : tensor<8x6xf32>\n"
        "}\n";
    const char *sh[4] = {"_,{data,expert},_,_", "expert,_,_", "expert,_,_", "{data,expert},_,_"};
    struct parted p;
    partition_or_fail(src, "data=2,expert=2", sh, 4, &p);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_int_equal(count_colls(&p.rep, PART_ALL_GATHER), 0);
    assert_int_equal(count_colls(&p.rep, PART_ALL_TO_ALL), 2);
    assert_int_equal(count_colls(&p.rep, PART_ALL_REDUCE), 0);
    assert_int_equal(p.rep.results[0].n_axes[0], 2);
    expect_equivalent(&p, 1e-5);
    expect_compiles(&p);
    parted_free(&p);
}

/* top_k ranks each row on its own: rows keep their split, no collective. */
static void test_partition_top_k_keeps_row_splits(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%a: tensor<8x6xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>) {\n"
        "  %v, %i = chlo.top_k(%a, k = 2) : tensor<8x6xf32> -> (tensor<8x2xf32>, tensor<8x2xi32>)\n"
        "  return %v, %i : tensor<8x2xf32>, tensor<8x2xi32>\n"
        "}\n";
    const char *sh[1] = {"x,_"};
    struct parted p;
    partition_or_fail(src, "x=4", sh, 1, &p);
    assert_int_equal(p.rep.n_colls, 0);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_int_equal(p.rep.results[1].n_axes[0], 1);
    expect_equivalent(&p, 0);
    parted_free(&p);
}

/* A weight gradient as FSDP wants it: dW = x^T dy over a batch split over
 * data and fsdp gives partial sums, which a sharding constraint asks split
 * over fsdp like the weight: one reduce_scatter over fsdp and an all_reduce
 * over data (not an all_reduce over both and a cut).  A constraint on a
 * replicated value cuts it locally; the constraints are gone from the
 * partitioned program. */
static void test_partition_sharding_constraint_reduce_scatters_partial_sums(void **state)
{
    (void)state;
    static const char src[] =
        "sdy.mesh @mesh = <[\"data\"=2, \"fsdp\"=2]>\n"
        "func.func @main(%x: tensor<8x16xf32>, %dy: tensor<8x4xf32>, %b: tensor<16x4xf32>) -> (tensor<16x4xf32>, "
        "tensor<16x4xf32>) {\n"
        "  %g = stablehlo.dot_general %x, %dy, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<8x4xf32>) -> "
        "tensor<16x4xf32>\n"
        "  %c = sdy.sharding_constraint %g <@mesh, [{\"fsdp\"}, {}]> : tensor<16x4xf32>\n"
        "  %e = stablehlo.exponential %b : tensor<16x4xf32>\n"
        "  %f = sdy.sharding_constraint %e <@mesh, [{}, {\"data\"}]> : tensor<16x4xf32>\n"
        "  return %c, %f : tensor<16x4xf32>, tensor<16x4xf32>\n"
        "}\n";
    const char *sh[3] = {"{data,fsdp},_", "{data,fsdp},_", NULL};
    struct parted p;
    partition_or_fail(src, "data=2,fsdp=2", sh, 3, &p);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_int_equal(count_colls(&p.rep, PART_REDUCE_SCATTER), 1);
    assert_int_equal(count_colls(&p.rep, PART_ALL_REDUCE), 1); /* over data only */
    assert_int_equal(count_colls(&p.rep, PART_ALL_GATHER), 0);
    assert_int_equal(count_str(p.text, "sdy.sharding_constraint"), 0);
    assert_int_equal(count_str(p.text, "stablehlo.all_reduce"), 1);
    assert_int_equal(p.rep.results[0].n_axes[0], 1);
    assert_int_equal(p.rep.results[1].n_axes[1], 1);
    expect_equivalent(&p, 1e-5);
    expect_compiles(&p);
    parted_free(&p);
}

/* Megatron's vocabulary-parallel embedding: a lookup into a table split
 * over its rows looks each id up in the partition's rows (zeros for ids
 * elsewhere) and sums with one all_reduce; no gather of the table. */
static void test_partition_lookup_into_split_rows_sums(void **state)
{
    (void)state;
    static const char src[] =
        "func.func @main(%t: tensor<16x8xf32>, %ids: tensor<4x6x1xi32>) -> tensor<4x6x8xf32> {\n"
        "  %g = \"stablehlo.gather\"(%t, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [2], "
        "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, "
        "slice_sizes = array<i64: 1, 8>} : (tensor<16x8xf32>, tensor<4x6x1xi32>) -> tensor<4x6x8xf32>\n"
        "  return %g : tensor<4x6x8xf32>\n"
        "}\n";
    const char *sh[2] = {"model,_", "data,_,_"};
    struct parted p;
    partition_or_fail(src, "data=2,model=4", sh, 2, &p);
    assert_int_equal(p.rep.n_fallbacks, 0);
    assert_int_equal(count_colls(&p.rep, PART_ALL_GATHER), 0);
    assert_int_equal(count_colls(&p.rep, PART_ALL_REDUCE), 1);
    assert_int_equal(p.rep.results[0].n_axes[0], 1);
    int n = 0;
    struct base_tensor **in = random_inputs(p.src, test_seed(), &n);
    for (int64_t e = 0; e < in[1]->count; e++)
        base_elem_set_i64(BASE_DT_SI32, in[1]->data, (size_t)e, base_elem_get_i64(BASE_DT_SI32, in[1]->data, (size_t)e) % 16);
    struct interp_result a, b;
    run(p.src, NULL, in, n, 1, &a);
    run(p.out, NULL, in, n, 8, &b);
    for (int proc = 0; proc < 8; proc++) expect_same(a.outputs[0], b.outputs[proc], 0, "rows");
    interp_result_free(&a);
    interp_result_free(&b);
    free_inputs(in, n);
    expect_compiles(&p);
    parted_free(&p);
}

TEST_MAIN(NULL, NULL, T(test_partition_ops_keep_source_positions_and_outlive_the_source),
          T(test_partition_mlp_matches_interpreter), T(test_partition_megatron_pair_has_one_all_reduce),
          T(test_partition_megatron_compiles_for_tpu_and_trn), T(test_partition_data_parallel_is_local_and_exact),
          T(test_partition_reduce_over_split_dim), T(test_partition_reduce_with_nonidentity_init_gathers),
          T(test_partition_elementwise_mixed_shardings), T(test_partition_transpose_and_broadcast_map_the_split), T(test_partition_sliced_operand_runs_on_simulated_chips),
          T(test_partition_reshape_keeps_a_major_split), T(test_partition_reshape_of_minor_split_gathers),
          T(test_partition_unknown_op_falls_back_to_replicated), T(test_partition_slice_and_concat_keep_other_splits),
          T(test_partition_gather_over_two_axes_in_shard_order), T(test_partition_batched_dot_keeps_batch_split),
          T(test_partition_one_sided_contraction_gathers), T(test_partition_convolution_keeps_batch_and_features), T(test_partition_multi_input_reduce), T(test_partition_reduce_body_capturing_a_value),
          T(test_partition_reads_mhlo_sharding),
          T(test_partition_reads_sdy_sharding), T(test_partition_bad_mesh_strings_are_rejected),
          T(test_partition_unknown_axis_is_rejected), T(test_partition_non_dividing_dim_is_a_located_error), T(test_partition_refuses_an_spmd_program),
          T(test_partition_corpus_files_match_interpreter), T(test_partition_dynamic_slices_keep_whole_dims_split),
          T(test_partition_while_runs_its_body_on_shards), T(test_partition_while_with_split_weights_gathers_inside),
          T(test_partition_gather_and_scatter_add_rows), T(test_partition_pad_keeps_unpadded_splits),
          T(test_partition_expert_parallel_dots_move_the_split), T(test_partition_top_k_keeps_row_splits),
          T(test_partition_sharding_constraint_reduce_scatters_partial_sums),
          T(test_partition_lookup_into_split_rows_sums))
