/* SPMD plans (compiler/compile.c, runtime/runtime.c): an entry function
 * that is one sdy.manual_computation compiles to the program of one
 * partition, on its shards; its collectives become COLLECTIVE steps, timed
 * by the interconnect model in a timing-only run of one representative
 * partition. */
#include "tests/prog.h"

#include "compiler/compiler.h"
#include "runtime/runtime.h"

#include <stdio.h>
#include <string.h>

/* Tensor parallel on 4 partitions: x (64 x 256) split along the contraction,
 * w (256 x 512) along its rows; each partition multiplies its 64 x 64 by
 * 64 x 512 shard and an all_reduce sums the partial products. */
static const char k_tp[] =
    "sdy.mesh @mesh = <[\"tp\"=4]>\n"
    "func.func @main(%x: tensor<64x256xbf16>, %w: tensor<256x512xbf16>) -> tensor<64x512xbf16> {\n"
    "  %r = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{}, {\"tp\"}]>, <@mesh, [{\"tp\"}, {}]>]\n"
    "      out_shardings=[<@mesh, [{}, {}]>] manual_axes={\"tp\"}\n"
    "      (%lx: tensor<64x64xbf16>, %lw: tensor<64x512xbf16>) {\n"
    "    %p = stablehlo.dot_general %lx, %lw, contracting_dims = [1] x [0] : (tensor<64x64xbf16>, tensor<64x512xbf16>) "
    "-> tensor<64x512xbf16>\n"
    "    %s = \"stablehlo.all_reduce\"(%p) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, "
    "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> ({\n"
    "    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):\n"
    "      %t = stablehlo.add %a, %b : tensor<bf16>\n"
    "      stablehlo.return %t : tensor<bf16>\n"
    "    }) : (tensor<64x512xbf16>) -> tensor<64x512xbf16>\n"
    "    sdy.return %s : tensor<64x512xbf16>\n"
    "  } : (tensor<64x256xbf16>, tensor<256x512xbf16>) -> tensor<64x512xbf16>\n"
    "  return %r : tensor<64x512xbf16>\n"
    "}\n";

static void load_chip(const char *name, struct sim_chip_desc *c)
{
    struct base_diag d;
    base_diag_clear(&d);
    if (sim_chip_load(name, c, &d) != BASE_OK) fail_msg("cannot load %s", name);
}

static struct cc_plan *compile_ok(struct graph_module *m, const struct sim_chip_desc *chip)
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
    struct sim_chip_desc chip;
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
        assert_int_equal(s->n_coll_in, 1);
        assert_int_equal(s->n_coll_out, 1);
        const struct cc_buffer *in = cc_plan_buffer(p, s->coll_buffers[0]);
        const struct cc_buffer *out = cc_plan_buffer(p, s->coll_buffers[1]);
        assert_int_equal(in->bytes, 64 * 512 * 2);
        assert_int_equal(out->kind, CC_BUF_OUTPUT);
    }
    assert_int_equal(n_coll, 1);
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

/* Timing-only: the run takes the kernels' time plus the all_reduce's time
 * on the chip's links (the interconnect model, run alone on the same
 * topology), and says how many bytes it moved. */
static void test_spmd_collective_time_is_the_interconnect_models(void **state)
{
    (void)state;
    const char *chips[] = {"trn2", "tpu-v5e"};
    for (int c = 0; c < 2; c++) {
        struct sim_chip_desc chip;
        load_chip(chips[c], &chip);
        struct graph_module *m = prog_parse(k_tp);
        struct cc_plan *p = compile_ok(m, &chip);
        struct base_diag d;
        base_diag_clear(&d);
        /* the same network, timed alone */
        char shape[32];
        rt_default_shape(&chip, 4, shape, sizeof shape);
        struct icn_topo topo;
        assert_int_equal(icn_topo_from_chip(&chip, shape, ICN_WRAP_AUTO, NULL, &topo, &d), BASE_OK);
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
        assert_int_equal(icn_run(&topo, &pl, 1, &res, NULL), BASE_OK);
        icn_plan_deinit(&ip);
        assert_true(res.time_ps > 0);

        struct sim_options so;
        sim_options_default(&so);
        so.timing_only = true;
        struct sim *s = NULL;
        assert_int_equal(sim_create(&chip, &so, &s, &d), BASE_OK);
        struct rt_options ro;
        rt_options_default(&ro);
        ro.timing_only = true;
        struct rt_report rep;
        struct base_tensor *outs[1] = {NULL};
        if (rt_run(p, s, NULL, 2, &ro, outs, &rep, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("rt_run on %s", chips[c]);
        }
        assert_int_equal(rep.collectives, 1);
        assert_true(rep.collective_bytes == 64 * 512 * 2);
        assert_int_equal(rep.collective_ps, res.time_ps);
        /* the total is the kernels, the host gaps and the collective */
        assert_int_equal(rep.total_ps, rep.device_ps + rep.dispatch_ps + rep.collective_ps);
        rt_report_free(&rep);
        sim_destroy(s);
        cc_plan_destroy(p);
        graph_module_destroy(m);
    }
}

/* A functional run of one partition cannot have the other partitions'
 * values: refused at the collective, located. */
static void test_spmd_functional_collective_is_refused_located(void **state)
{
    (void)state;
    struct sim_chip_desc chip;
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

TEST_MAIN(NULL, NULL, T(test_spmd_plan_is_one_partitions_program), T(test_spmd_collective_time_is_the_interconnect_models),
          T(test_spmd_functional_collective_is_refused_located))
