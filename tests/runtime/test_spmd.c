/* SPMD plans (compiler/compile.c, runtime/runtime.c): an entry function
 * that is one sdy.manual_computation compiles to the program of one
 * partition, on its shards; its collectives become COLLECTIVE steps, timed
 * by the interconnect model in a timing-only run of one representative
 * partition. */
#include "tests/prog.h"

#include "compiler/compiler.h"
#include "runtime/runtime.h"
#include "tests/runtime/rt_test_util.h"
#include "tests/runtime/spmd_programs.h"
#include "interp/interp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void load_chip(const char *name, struct chip_desc *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (chip_load(name, c, &d) != BASE_OK) fail_msg("cannot load %s", name);
}

static struct cc_plan *compile_ok(struct graph_module *m, const struct chip_desc *chip)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct cc_plan *p = NULL;
    if (cc_compile(m, chip, NULL, &p, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail_msg("cc_compile on %s", chip->name);
    }
    return p;
}

static void test_spmd_plan_is_one_partitions_program(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct graph_module *m = prog_parse(k_tp);
    struct cc_plan *p = compile_ok(m, &chip);
    assert_int_equal(cc_plan_num_partitions(p), 4);
    /* the inputs are the shards */
    assert_int_equal(cc_plan_n_inputs(p), 2);
    const struct cc_buffer *x = cc_plan_buffer(p, cc_plan_input_buffer(p, 0));
    const struct cc_buffer *w = cc_plan_buffer(p, cc_plan_input_buffer(p, 1));
    assert_int_equal(x->dims[0], 64);
    assert_int_equal(x->dims[1], 64);
    assert_int_equal(w->dims[0], 64);
    assert_int_equal(w->dims[1], 512);
    /* one collective step, from the dot's result to the output */
    int n_coll = 0;
    for (uint32_t i = 0; i < cc_plan_n_steps(p); i++) {
        const struct cc_step *s = cc_plan_step(p, i);
        if (s->kind != CC_STEP_COLLECTIVE) continue;
        n_coll++;
        assert_int_equal(s->op->kind, GRAPH_OP_ALL_REDUCE);
        assert_int_equal(s->n_in, 1);
        assert_int_equal(s->n_out, 1);
        const struct cc_buffer *in = cc_plan_buffer(p, s->io_buffers[0]);
        const struct cc_buffer *out = cc_plan_buffer(p, s->io_buffers[1]);
        assert_int_equal(in->bytes, 64 * 512 * 2);
        assert_int_equal(out->kind, CC_BUF_OUTPUT);
    }
    assert_int_equal(n_coll, 1);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* Timing-only: the run takes the kernels' time plus the all_reduce's time
 * on the chip's links (the interconnect model, run alone on the same
 * topology), and says how many bytes it moved.  The sims run whole chips,
 * so the 4 partitions are 4 chips (a rank per chip); with one rank's share
 * of trn2 (chip_rank_view, 4 ranks per chip) they are the 4 ranks of one
 * chip, and the all_reduce goes through its HBM, never a link. */
static void test_spmd_collective_time_is_the_interconnect_models(void **state)
{
    (void)state;
    const char *chips[] = {"trn2", "tpu-v5e", "trn2"};
    for (int c = 0; c < 3; c++) {
        struct chip_desc chip;
        load_chip(chips[c], &chip);
        bool ranks = c == 2;
        if (ranks) chip_rank_view(&chip, &chip);
        struct graph_module *m = prog_parse(k_tp);
        struct cc_plan *p = compile_ok(m, &chip);
        struct base_diag d;
        base_diag_clear(&d);
        /* the same network, timed alone: whole chips have a partition each */
        struct chip_desc net_chip = chip;
        if (!ranks) net_chip.ranks_per_chip = 1;
        char shape[32];
        rt_default_shape(&net_chip, ranks ? 1 : 4, shape, sizeof shape);
        struct icn_topo topo;
        assert_int_equal(icn_topo_from_chip(&net_chip, shape, ICN_WRAP_AUTO, NULL, &topo, &d), BASE_OK);
        assert_int_equal(topo.n_ranks, 4);
        assert_int_equal(topo.n_chips, ranks ? 1 : 4);
        struct icn_coll_desc cd;
        memset(&cd, 0, sizeof cd);
        cd.coll = ICN_COLL_ALL_REDUCE;
        cd.bytes = 64 * 512 * 2;
        cd.representative = true;
        struct icn_plan ip;
        memset(&ip, 0, sizeof ip);
        assert_int_equal(icn_plan_build(&topo, &cd, &ip, &d), BASE_OK);
        struct icn_run_result res;
        const struct icn_plan *pl = &ip;
        double *link_bytes = calloc(topo.n_links, sizeof *link_bytes);
        assert_non_null(link_bytes);
        assert_int_equal(icn_run(&topo, &pl, 1, &res, link_bytes), BASE_OK);
        icn_plan_deinit(&ip);
        assert_true(res.time_ps > 0);
        /* on one chip: only the ranks' on-chip paths carry bytes */
        for (uint32_t l = 0; l < topo.n_links; l++) {
            struct icn_link_info li;
            icn_link_get(&topo, l, &li);
            if (link_bytes[l] > 0) assert_int_equal(li.cls == ICN_LINK_LOCAL, ranks);
        }
        free(link_bytes);

        struct rt_report rep;
        run_timing_only(p, &rep);
        assert_int_equal(rep.collectives, 1);
        assert_true(rep.collective_bytes == 64 * 512 * 2);
        assert_int_equal(rep.collective_ps, res.time_ps);
        /* nothing follows the all_reduce: all of it is exposed, and the
         * total is the kernels, the host gaps and the collective */
        assert_int_equal(rep.collective_exposed_ps, rep.collective_ps);
        assert_int_equal(rep.total_ps, rep.device_ps + rep.dispatch_ps + rep.collective_ps);
        assert_int_equal(rep.n_colls, 1);
        assert_int_equal(rep.colls[0].time_ps, res.time_ps);
        assert_true(rep.colls[0].busbw_gbps > 0);
        rt_report_free(&rep);
        cc_plan_destroy(p);
        graph_module_destroy(m);
    }
}


static void test_spmd_collective_overlaps_independent_kernels(void **state)
{
    (void)state;
    const char *chips[] = {"trn2", "tpu-v5e"};
    for (int c = 0; c < 2; c++) {
        struct chip_desc chip;
        load_chip(chips[c], &chip);
        struct graph_module *m = prog_parse(k_overlap);
        struct cc_plan *p = compile_ok(m, &chip);
        struct rt_report rep;
        run_timing_only(p, &rep);
        assert_int_equal(rep.n_colls, 1);
        /* the second matmul's kernel hides part of the all_reduce */
        uint64_t second = rep.kernels[rep.n_kernels - 1].time_ps;
        assert_true(rep.collective_ps > 0);
        assert_true(rep.collective_exposed_ps < rep.collective_ps);
        if (rep.collective_ps > second + rep.kernels[rep.n_kernels - 1].dispatch_ps)
            assert_true(rep.collective_exposed_ps > 0);
        assert_int_equal(rep.colls[0].exposed_ps, rep.collective_exposed_ps);
        assert_int_equal(rep.total_ps, rep.device_ps + rep.dispatch_ps + rep.collective_exposed_ps);
        rt_report_free(&rep);
        cc_plan_destroy(p);
        graph_module_destroy(m);
    }
}

/* Collectives in flight share the links: the second all_reduce starts when
 * the first is done, neither blocks the chip, and the matmul after them
 * runs while they do. */
static void test_spmd_collectives_queue_on_the_links(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct graph_module *m = prog_parse(k_two_colls);
    struct cc_plan *p = compile_ok(m, &chip);
    struct rt_report rep;
    run_timing_only(p, &rep);
    assert_int_equal(rep.n_colls, 2);
    const struct rt_collective *a = &rep.colls[0], *b = &rep.colls[1];
    assert_true(a->time_ps > 0 && a->time_ps == b->time_ps);
    assert_int_equal(b->start_ps, a->start_ps + a->time_ps); /* one after the other on the links */
    /* the chip did not wait for the first at the second: the matmul ran
     * during the first too, and the total counts only the wait */
    assert_true(a->exposed_ps < a->time_ps);
    assert_true(rep.collective_exposed_ps < rep.collective_ps);
    assert_int_equal(a->exposed_ps + b->exposed_ps, rep.collective_exposed_ps);
    assert_int_equal(rep.total_ps, rep.device_ps + rep.dispatch_ps + rep.collective_exposed_ps);
    rt_report_free(&rep);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* A functional run of one partition cannot have the other partitions'
 * values: refused at the collective, located. */
static void test_spmd_functional_collective_is_refused_located(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct graph_module *m = prog_parse(k_tp);
    struct cc_plan *p = compile_ok(m, &chip);
    struct base_diag d;
    base_diag_clear(&d);
    struct sim_options so;
    sim_options_default(&so);
    struct sim *s = NULL;
    assert_int_equal(sim_create(&chip, &so, &s, &d), BASE_OK);
    struct base_tensor *in[2] = {NULL, NULL};
    int64_t dx[2] = {64, 64}, dw[2] = {64, 512};
    assert_int_equal(base_tensor_create(BASE_DT_BF16, 2, dx, &in[0]), BASE_OK);
    assert_int_equal(base_tensor_create(BASE_DT_BF16, 2, dw, &in[1]), BASE_OK);
    struct rt_options ro;
    rt_options_default(&ro);
    struct base_tensor *outs[1] = {NULL};
    assert_int_equal(rt_run(p, s, in, 2, &ro, outs, NULL, &d), BASE_ERR_UNSUPPORTED);
    assert_int_equal(d.line, 7); /* the all_reduce */
    if (!strstr(d.msg, "stablehlo.all_reduce")) fail_msg("%s", d.msg);
    base_tensor_release(in[0]);
    base_tensor_release(in[1]);
    sim_destroy(s);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* ------------------------------------------------------------ multi-chip */

/* Every kind of collective on 4 chips, each partition's x a local 8 x 4
 * block (the global x is 32 x 4, split on dim 0); every result goes back
 * split on dim 0. */
static const char k_colls[] =
    "sdy.mesh @mesh = <[\"x\"=4]>\n"
    "func.func @main(%x: tensor<32x4xf32>) -> (tensor<128x4xf32>, tensor<8x4xf32>, tensor<32x4xf32>, "
    "tensor<32x4xf32>, tensor<32x4xf32>, tensor<32x4xf32>) {\n"
    "  %r:6 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{\"x\"}, {}]>]\n"
    "      out_shardings=[<@mesh, [{\"x\"}, {}]>, <@mesh, [{\"x\"}, {}]>, <@mesh, [{\"x\"}, {}]>, "
    "<@mesh, [{\"x\"}, {}]>, <@mesh, [{\"x\"}, {}]>, <@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"}\n"
    "      (%a: tensor<8x4xf32>) {\n"
    "    %g = \"stablehlo.all_gather\"(%a) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : "
    "tensor<1x4xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<8x4xf32>) -> "
    "tensor<32x4xf32>\n"
    "    %rs = \"stablehlo.reduce_scatter\"(%a) ({\n"
    "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
    "      %t = stablehlo.add %p, %q : tensor<f32>\n"
    "      stablehlo.return %t : tensor<f32>\n"
    "    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, "
    "channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<8x4xf32>) -> tensor<2x4xf32>\n"
    "    %aa = \"stablehlo.all_to_all\"(%a) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 4 : "
    "i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, channel_handle = "
    "#stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<8x4xf32>) -> tensor<8x4xf32>\n"
    "    %cp = \"stablehlo.collective_permute\"(%a) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : "
    "tensor<4x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>} : (tensor<8x4xf32>) -> "
    "tensor<8x4xf32>\n"
    "    %cb = \"stablehlo.collective_broadcast\"(%a) {replica_groups = dense<[[2, 0, 1, 3]]> : tensor<1x4xi64>, "
    "channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<8x4xf32>) -> tensor<8x4xf32>\n"
    "    %ar = \"stablehlo.all_reduce\"(%a) ({\n"
    "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
    "      %t = stablehlo.maximum %p, %q : tensor<f32>\n"
    "      stablehlo.return %t : tensor<f32>\n"
    "    }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, channel_handle = "
    "#stablehlo.channel_handle<handle = 6, type = 1>} : (tensor<8x4xf32>) -> tensor<8x4xf32>\n"
    "    sdy.return %g, %rs, %aa, %cp, %cb, %ar : tensor<32x4xf32>, tensor<2x4xf32>, tensor<8x4xf32>, "
    "tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>\n"
    "  } : (tensor<32x4xf32>) -> (tensor<128x4xf32>, tensor<8x4xf32>, tensor<32x4xf32>, tensor<32x4xf32>, "
    "tensor<32x4xf32>, tensor<32x4xf32>)\n"
    "  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<128x4xf32>, tensor<8x4xf32>, tensor<32x4xf32>, "
    "tensor<32x4xf32>, tensor<32x4xf32>, tensor<32x4xf32>\n"
    "}\n";

/* x[i][j] = i * 4 + j (exact in f32 through every collective). */
static struct base_tensor *iota_32x4(void)
{
    int64_t dims[2] = {32, 4};
    struct base_tensor *t = NULL;
    assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &t), BASE_OK);
    for (int64_t i = 0; i < t->count; i++) ((float *)t->data)[i] = (float)i;
    return t;
}

static float at(const struct base_tensor *t, int64_t r, int64_t c) { return ((const float *)t->data)[r * t->dims[1] + c]; }

/* The values every collective moves between the 4 chips, against the
 * spec's definitions worked out here by hand (row r of x is partition
 * r / 8's local row r % 8). */
static void test_spmd_multichip_collectives_move_the_specs_values(void **state)
{
    (void)state;
    /* whole chips, and the 4 ranks of one trn2 (LNC=2): the same values */
    const char *chips[] = {"trn2", "tpu-v5e", "trn2"};
    uint64_t chip_coll_ps[6] = {0};
    for (int c = 0; c < 3; c++) {
        struct chip_desc chip;
        load_chip(chips[c], &chip);
        if (c == 2) chip_rank_view(&chip, &chip);
        struct graph_module *m = prog_parse(k_colls);
        struct cc_plan *p = compile_ok(m, &chip);
        assert_int_equal(cc_plan_num_partitions(p), 4);
        struct sim **sims = make_sims(&chip, 4, false);
        struct base_tensor *x = iota_32x4(), *out[6] = {NULL};
        struct rt_report reps[4];
        struct base_diag d;
        base_diag_clear(&d);
        if (rt_run_spmd(p, sims, 4, &x, 1, NULL, out, reps, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("rt_run_spmd on %s", chips[c]);
        }
        for (int q = 0; q < 4; q++) {
            for (int64_t r = 0; r < 32; r++)
                for (int64_t k = 0; k < 4; k++) {
                    /* all_gather: every partition holds all of x */
                    assert_true(at(out[0], q * 32 + r, k) == at(x, r, k));
                }
            for (int64_t r = 0; r < 8; r++)
                for (int64_t k = 0; k < 4; k++) {
                    int64_t lr = r % 8;
                    /* all_to_all: block j of partition q's result is block q of partition j's x */
                    assert_true(at(out[2], q * 8 + r, k) == at(x, (r / 2) * 8 + q * 2 + r % 2, k));
                    /* collective_permute q -> q + 1 */
                    assert_true(at(out[3], q * 8 + r, k) == at(x, ((q + 3) % 4) * 8 + lr, k));
                    /* collective_broadcast from the group's first member, partition 2 */
                    assert_true(at(out[4], q * 8 + r, k) == at(x, 2 * 8 + lr, k));
                    /* all_reduce max over {0, 2} and {1, 3}: the later partition's rows */
                    assert_true(at(out[5], q * 8 + r, k) == at(x, (q % 2 + 2) * 8 + lr, k));
                }
            for (int64_t r = 0; r < 2; r++)
                for (int64_t k = 0; k < 4; k++) {
                    /* reduce_scatter: partition q gets rows 2q, 2q+1 of the sum of the 4 local blocks */
                    float want = 0;
                    for (int j = 0; j < 4; j++) want += at(x, j * 8 + q * 2 + r, k);
                    assert_true(at(out[1], q * 2 + r, k) == want);
                }
            assert_int_equal(reps[q].collectives, 6);
            assert_int_equal(reps[q].total_ps, reps[0].total_ps); /* the chips meet at every collective */
        }
        assert_int_equal(reps[0].n_colls, 6);
        for (uint32_t i = 0; i < 6; i++) {
            assert_true(reps[0].colls[i].time_ps > 0);
            /* one chip's 4 ranks (2 cores each) talk through its HBM share (362 B/ns, 0.5 us), faster than
             * 4 whole chips over their links (128 B/ns, 1 us a hop) */
            if (c == 0) chip_coll_ps[i] = reps[0].colls[i].time_ps;
            if (c == 2) assert_true(reps[0].colls[i].time_ps < chip_coll_ps[i]);
        }
        if (c == 2) assert_int_equal(cc_plan_n_cores(p), 2);
        for (int i = 0; i < 6; i++) base_tensor_release(out[i]);
        for (int q = 0; q < 4; q++) rt_report_free(&reps[q]);
        base_tensor_release(x);
        free_sims(sims, 4);
        cc_plan_destroy(p);
        graph_module_destroy(m);
    }
}

/* Tensor parallel matmul on 4 chips: the product of the global x and w
 * (each partition's bf16 partial product, summed by the all_reduce), equal
 * to the golden interpreter's 4-process run, and timed like the
 * representative run: the same total on every chip. */
static void test_spmd_multichip_matmul_matches_product_and_interpreter(void **state)
{
    (void)state;
    const char *chips[] = {"trn2", "tpu-v5e"};
    for (int c = 0; c < 2; c++) {
        struct chip_desc chip;
        load_chip(chips[c], &chip);
        struct graph_module *m = prog_parse(k_tp);
        struct cc_plan *p = compile_ok(m, &chip);
        int64_t dx[2] = {64, 256}, dw[2] = {256, 512};
        struct base_tensor *in[2] = {NULL, NULL};
        assert_int_equal(base_tensor_create(BASE_DT_BF16, 2, dx, &in[0]), BASE_OK);
        assert_int_equal(base_tensor_create(BASE_DT_BF16, 2, dw, &in[1]), BASE_OK);
        assert_int_equal(base_tensor_fill_random(in[0], 11, 1.0), BASE_OK);
        assert_int_equal(base_tensor_fill_random(in[1], 12, 0.0625), BASE_OK);
        struct sim **sims = make_sims(&chip, 4, false);
        struct base_tensor *out[1] = {NULL};
        struct rt_report reps[4];
        struct base_diag d;
        base_diag_clear(&d);
        if (rt_run_spmd(p, sims, 4, in, 2, NULL, out, reps, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("rt_run_spmd on %s", chips[c]);
        }
        /* the product in f64: 4 bf16 partial sums add at most ~4 bf16 roundings */
        double worst = 0, mx = 0;
        for (int64_t i = 0; i < 64; i++)
            for (int64_t j = 0; j < 512; j++) {
                double want = 0;
                for (int64_t k = 0; k < 256; k++)
                    want += base_elem_get_f64(BASE_DT_BF16, in[0]->data, (size_t)(i * 256 + k)) *
                            base_elem_get_f64(BASE_DT_BF16, in[1]->data, (size_t)(k * 512 + j));
                double got = base_elem_get_f64(BASE_DT_BF16, out[0]->data, (size_t)(i * 512 + j));
                if (fabs(got - want) > worst) worst = fabs(got - want);
                if (fabs(want) > mx) mx = fabs(want);
            }
        if (worst > 5 * ldexp(1.0, -8) * mx) fail_msg("%s: worst error %g of max %g", chips[c], worst, mx);
        /* the interpreter's 4-process run */
        struct interp_options io;
        memset(&io, 0, sizeof io);
        io.num_partitions = 4;
        struct interp_result gold;
        assert_int_equal(interp_run(m, NULL, in, 2, &io, &gold, &d), BASE_OK);
        struct rt_compare cmp;
        rt_compare_output(p, out[0], gold.outputs[0], &cmp);
        if (!cmp.passed) fail_msg("%s: %lld elements differ from the interpreter's", chips[c], (long long)cmp.n_bad);
        /* the same time as the representative partition's timing-only run */
        struct rt_report rep1;
        run_timing_only(p, &rep1);
        for (int q = 0; q < 4; q++) {
            assert_int_equal(reps[q].total_ps, rep1.total_ps);
            assert_int_equal(reps[q].collective_ps, rep1.collective_ps);
            rt_report_free(&reps[q]);
        }
        rt_report_free(&rep1);
        interp_result_free(&gold);
        base_tensor_release(out[0]);
        base_tensor_release(in[0]);
        base_tensor_release(in[1]);
        free_sims(sims, 4);
        cc_plan_destroy(p);
        graph_module_destroy(m);
    }
}

/* stablehlo.partition_id is each chip's own partition: partition p adds p
 * to its rows of x and returns p. */
static void test_spmd_multichip_partition_id_is_the_chips_partition(void **state)
{
    (void)state;
    static const char src[] =
        "sdy.mesh @mesh = <[\"x\"=4]>\n"
        "func.func @main(%a: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<4xui32>) {\n"
        "  %r:2 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{\"x\"}, {}]>] out_shardings=[<@mesh, "
        "[{\"x\"}, {}]>, <@mesh, [{\"x\"}]>] manual_axes={\"x\"} (%la: tensor<2x4xf32>) {\n"
        "    %p = stablehlo.partition_id : tensor<ui32>\n"
        "    %f = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>\n"
        "    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x4xf32>\n"
        "    %s = stablehlo.add %la, %b : tensor<2x4xf32>\n"
        "    %p1 = stablehlo.reshape %p : (tensor<ui32>) -> tensor<1xui32>\n"
        "    sdy.return %s, %p1 : tensor<2x4xf32>, tensor<1xui32>\n"
        "  } : (tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<4xui32>)\n"
        "  return %r#0, %r#1 : tensor<8x4xf32>, tensor<4xui32>\n"
        "}\n";
    const char *chips[] = {"trn2", "tpu-v5e"};
    for (int c = 0; c < 2; c++) {
        struct chip_desc chip;
        load_chip(chips[c], &chip);
        struct graph_module *m = prog_parse(src);
        struct cc_plan *p = compile_ok(m, &chip);
        struct sim **sims = make_sims(&chip, 4, false);
        int64_t dims[2] = {8, 4};
        struct base_tensor *a = NULL, *out[2] = {NULL, NULL};
        assert_int_equal(base_tensor_create(BASE_DT_F32, 2, dims, &a), BASE_OK);
        for (int64_t i = 0; i < a->count; i++) ((float *)a->data)[i] = (float)i * 0.5f;
        struct base_diag d;
        base_diag_clear(&d);
        if (rt_run_spmd(p, sims, 4, &a, 1, NULL, out, NULL, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("rt_run_spmd on %s", chips[c]);
        }
        const uint64_t ids[4] = {0, 1, 2, 3};
        prog_expect_u64(out[1], ids, 4);
        for (int64_t i = 0; i < a->count; i++)
            assert_true(((float *)out[0]->data)[i] == (float)i * 0.5f + (float)(i / 8)); /* rows 2p, 2p+1: 8 elements */
        base_tensor_release(a);
        base_tensor_release(out[0]);
        base_tensor_release(out[1]);
        free_sims(sims, 4);
        cc_plan_destroy(p);
        graph_module_destroy(m);
    }
}

/* The program's partitions need as many chips. */
static void test_spmd_multichip_wrong_chip_count_is_refused(void **state)
{
    (void)state;
    struct chip_desc chip;
    load_chip("trn2", &chip);
    struct graph_module *m = prog_parse(k_tp);
    struct cc_plan *p = compile_ok(m, &chip);
    struct sim **sims = make_sims(&chip, 2, true);
    struct rt_options ro;
    rt_options_default(&ro);
    ro.timing_only = true;
    struct base_tensor *out[1] = {NULL};
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(rt_run_spmd(p, sims, 2, NULL, 2, &ro, out, NULL, &d), BASE_ERR_INVALID);
    if (!strstr(d.msg, "4 partitions, 2 chips")) fail_msg("%s", d.msg);
    assert_true(d.line > 0);
    free_sims(sims, 2);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

TEST_MAIN(NULL, NULL, T(test_spmd_plan_is_one_partitions_program), T(test_spmd_collective_time_is_the_interconnect_models),
          T(test_spmd_functional_collective_is_refused_located), T(test_spmd_collective_overlaps_independent_kernels),
          T(test_spmd_collectives_queue_on_the_links), T(test_spmd_multichip_collectives_move_the_specs_values),
          T(test_spmd_multichip_matmul_matches_product_and_interpreter),
          T(test_spmd_multichip_partition_id_is_the_chips_partition), T(test_spmd_multichip_wrong_chip_count_is_refused))
