/* The generated training step (model/generate.c build_train, ad.c): the
 * backward is the gradient (each weight's directional derivative against
 * central finite differences of the loss, in f32 on the interpreter, every
 * family), the cross-entropy is what it should be, the optimiser step is
 * optax's AdamW with global-norm clipping (checked against a C
 * implementation), and the whole step compiled on trn2 and tpu-v5e gives
 * the interpreter's outputs. */
#include "tests/model/model_test_util.h"

/* The trainable weights' argument indices of a grads-only program: the
 * arguments after tokens and targets whose gradient is an output (the
 * outputs after the loss, in the same order). */
static int trainable_args(const struct mdl_config *c, int *idx)
{
    struct mdl_weights ws;
    mdl_weights_of(c, &ws);
    int n = 0;
    for (int i = 0; i < ws.n; i++)
        if (ws.w[i].trainable) idx[n++] = 2 + i;
    return n;
}

static double loss_of(const struct graph_module *m, struct base_tensor *const *in, int n,
                      struct interp_result *keep)
{
    struct interp_result r;
    interp_or_fail(m, in, n, &r);
    double l = base_elem_get_f64(r.outputs[0]->dtype, r.outputs[0]->data, 0);
    if (keep) *keep = r;
    else interp_result_free(&r);
    return l;
}

/* The loss at p + t u (p restored after). */
static double loss_along(const struct graph_module *m, struct base_tensor **in, int n, int arg,
                         const struct base_tensor *p0, const struct base_tensor *u, double t)
{
    struct base_tensor *p = in[arg];
    for (int64_t e = 0; e < p->count; e++)
        base_elem_set_f64(p->dtype, p->data, (size_t)e,
                          base_elem_get_f64(p0->dtype, p0->data, (size_t)e) +
                              t * base_elem_get_f64(u->dtype, u->data, (size_t)e));
    double l = loss_of(m, in, n, NULL);
    memcpy(p->data, p0->data, base_tensor_nbytes(p));
    return l;
}

/* Central differences of the loss along a random direction of each
 * trainable weight in turn, against the gradient's inner product with it.
 * The loss is piecewise smooth (top-k routing, expert capacity, clamps): a
 * direction whose differences at two step sizes disagree crosses a kink
 * and is replaced by another (at most 5 tries). */
static void test_train_gradients_match_finite_differences(void **state)
{
    (void)state;
    for (int f = 0; f < N_TINY; f++) {
        struct mdl_config c = tiny_config(f, "dtype=f32,master_dtype=f32");
        struct mdl_workload w = tiny_workload(MDL_TRAIN, 2, 8);
        w.grads_only = true;
        struct graph_module *m = gen_or_fail(&c, &w);
        int n = n_args(m);
        struct base_tensor **in = inputs_or_fail(&c, &w, m, test_seed());
        struct interp_result g;
        double l0 = loss_of(m, in, n, &g);
        assert_true(isfinite(l0) && l0 > 0);
        int idx[MDL_MAX_WEIGHTS];
        int nt = trainable_args(&c, idx);
        assert_int_equal(g.n_outputs, 1 + nt);
        struct base_rng r;
        base_rng_seed(&r, test_seed() * 7919 + (uint64_t)f);
        int nonzero = 0;
        for (int k = 0; k < nt; k++) {
            struct base_tensor *p = in[idx[k]], *keep = NULL, *u = NULL;
            assert_int_equal(base_tensor_clone(p, &keep), BASE_OK);
            assert_int_equal(base_tensor_create_like(p, &u), BASE_OK);
            double ps = 0;
            for (int64_t e = 0; e < p->count; e++) ps += pow(base_elem_get_f64(p->dtype, p->data, (size_t)e), 2);
            ps = ps > 0 ? sqrt(ps / (double)p->count) : 1.0; /* the weight's rms */
            const struct base_tensor *gk = g.outputs[1 + k];
            const double eps = 5e-4;
            double fd = 0, dot = 0, tol = 0;
            bool smooth = false;
            for (int tries = 0; tries < 5 && !smooth; tries++) {
                dot = 0;
                for (int64_t e = 0; e < p->count; e++) {
                    double x = ps * base_rng_normal(&r);
                    base_elem_set_f64(u->dtype, u->data, (size_t)e, x);
                    dot += x * base_elem_get_f64(gk->dtype, gk->data, (size_t)e);
                }
                double fd1 = (loss_along(m, in, n, idx[k], keep, u, eps) - loss_along(m, in, n, idx[k], keep, u, -eps)) /
                             (2 * eps);
                double fd2 = (loss_along(m, in, n, idx[k], keep, u, eps / 2) -
                              loss_along(m, in, n, idx[k], keep, u, -eps / 2)) /
                             eps;
                /* f32 rounding of the loss (~1e-7 l0 per evaluation) over the step */
                tol = 2e-2 * fabs(fd2) + 2e-3 * fmax(1.0, l0);
                smooth = fabs(fd1 - fd2) <= tol;
                fd = fd2;
            }
            if (!smooth) fail_msg("%s: weight argument %d: no smooth direction in 5", tiny_models[f].label, idx[k]);
            if (fabs(fd - dot) > tol)
                fail_msg("%s: weight argument %d: finite differences %.6g, gradient %.6g", tiny_models[f].label,
                         idx[k], fd, dot);
            nonzero += fabs(dot) > 1e-3;
            base_tensor_release(keep);
            base_tensor_release(u);
        }
        /* most weights move the loss: the comparison is not of zeros */
        assert_true(nonzero >= nt / 2);
        interp_result_free(&g);
        free_inputs(in, n);
        graph_module_destroy(m);
    }
}

/* With a zero output projection every logit is 0: the loss is ln V. */
static void test_train_loss_is_the_cross_entropy(void **state)
{
    (void)state;
    struct mdl_config c = tiny_config(0, "dtype=f32");
    struct mdl_workload w = tiny_workload(MDL_TRAIN, 2, 8);
    w.grads_only = true;
    struct graph_module *m = gen_or_fail(&c, &w);
    int n = n_args(m);
    struct base_tensor **in = inputs_or_fail(&c, &w, m, test_seed());
    struct mdl_weights ws;
    mdl_weights_of(&c, &ws);
    int head = 2 + mdl_weight_find(&ws, -1, "lm_head");
    memset(in[head]->data, 0, base_tensor_nbytes(in[head]));
    double l = loss_of(m, in, n, NULL);
    assert_true(fabs(l - log((double)c.vocab)) < 1e-5);
    free_inputs(in, n);
    graph_module_destroy(m);
}

/* The full step's new weights and Adam moments are optax's adamw (b1 0.9,
 * b2 0.95, eps 1e-8, weight decay 0.1, learning rate 3e-5) after
 * clip_by_global_norm(1.0), from the gradients of the grads-only program. */
static void test_train_step_is_adamw_after_clipping(void **state)
{
    (void)state;
    struct mdl_config c = tiny_config(0, "dtype=f32");
    struct mdl_workload wg = tiny_workload(MDL_TRAIN, 2, 8), ws_ = wg;
    wg.grads_only = true;
    struct graph_module *mg = gen_or_fail(&c, &wg), *ms = gen_or_fail(&c, &ws_);
    int ng = n_args(mg), ns = n_args(ms);
    struct base_tensor **in = inputs_or_fail(&c, &ws_, ms, test_seed());
    struct interp_result gr, st;
    interp_or_fail(mg, in, ng, &gr); /* the step's first arguments are the grads-only program's */
    interp_or_fail(ms, in, ns, &st);
    int nt = gr.n_outputs - 1;
    assert_int_equal(st.n_outputs, 1 + 3 * nt + 1);
    assert_int_equal(ns, 2 + (ng - 2) + 2 * nt + 1);
    double sq = 0;
    for (int k = 0; k < nt; k++)
        for (int64_t e = 0; e < gr.outputs[1 + k]->count; e++) {
            double x = base_elem_get_f64(BASE_DT_F32, gr.outputs[1 + k]->data, (size_t)e);
            sq += x * x;
        }
    double norm = sqrt(sq), clip = norm < 1.0 ? 1.0 : 1.0 / norm;
    assert_true(norm > 1.0); /* the clipping is exercised */
    int64_t step = base_elem_get_i64(BASE_DT_SI32, in[ns - 1]->data, 0);
    double t = (double)(step + 1), bc1 = 1 - pow(0.9, t), bc2 = 1 - pow(0.95, t);
    double worst = 0;
    for (int k = 0; k < nt; k++) {
        const struct base_tensor *p = in[2 + k], *m0 = in[ng + k], *v0 = in[ng + nt + k], *gk = gr.outputs[1 + k];
        for (int64_t e = 0; e < p->count; e++) {
            double g = clip * base_elem_get_f64(BASE_DT_F32, gk->data, (size_t)e);
            double mm = 0.9 * base_elem_get_f64(BASE_DT_F32, m0->data, (size_t)e) + 0.1 * g;
            double vv = 0.95 * base_elem_get_f64(BASE_DT_F32, v0->data, (size_t)e) + 0.05 * g * g;
            double pp = base_elem_get_f64(BASE_DT_F32, p->data, (size_t)e);
            double np_ = pp - 3e-5 * (mm / bc1 / (sqrt(vv / bc2) + 1e-8) + 0.1 * pp);
            double got[3] = {base_elem_get_f64(BASE_DT_F32, st.outputs[1 + k]->data, (size_t)e),
                             base_elem_get_f64(BASE_DT_F32, st.outputs[1 + nt + k]->data, (size_t)e),
                             base_elem_get_f64(BASE_DT_F32, st.outputs[1 + 2 * nt + k]->data, (size_t)e)};
            double want[3] = {np_, mm, vv};
            /* judged at the size of the terms summed (m may cancel to ~0) */
            double size[3] = {fabs(pp) + fabs(pp - np_),
                              0.9 * fabs(base_elem_get_f64(BASE_DT_F32, m0->data, (size_t)e)) + 0.1 * fabs(g),
                              vv};
            for (int q = 0; q < 3; q++) worst = fmax(worst, fabs(got[q] - want[q]) / (size[q] + 1e-30));
        }
    }
    if (worst >= 1e-5) fail_msg("worst relative error %g", worst);
    assert_int_equal(base_elem_get_i64(BASE_DT_SI32, st.outputs[st.n_outputs - 1]->data, 0), step + 1);
    interp_result_free(&gr);
    interp_result_free(&st);
    free_inputs(in, ns);
    graph_module_destroy(mg);
    graph_module_destroy(ms);
}

static void test_train_step_compiled_matches_interpreter(void **state)
{
    (void)state;
    static const char *const chips[] = {"trn2", "tpu-v5e"};
    for (int f = 0; f < N_TINY; f++) {
        struct mdl_config c = tiny_config(f, NULL);
        struct mdl_workload w = tiny_workload(MDL_TRAIN, 2, 16);
        struct graph_module *m = gen_or_fail(&c, &w);
        struct base_tensor **in = inputs_or_fail(&c, &w, m, test_seed());
        char label[160];
        snprintf(label, sizeof label, "%s train", tiny_models[f].label);
        for (size_t ch = 0; ch < ARRAY_LEN(chips); ch++) check_compiled(label, m, chips[ch], in, n_args(m), 1e-3);
        free_inputs(in, n_args(m));
        graph_module_destroy(m);
    }
}

static void test_train_without_remat_is_refused(void **state)
{
    (void)state;
    struct mdl_config c = tiny_config(0, NULL);
    struct mdl_workload w = tiny_workload(MDL_TRAIN, 2, 16);
    w.remat = false;
    struct graph_module *m = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(mdl_generate(&c, &w, &m, &d), BASE_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.msg, "remat"));
}

TEST_MAIN(NULL, NULL, T(test_train_gradients_match_finite_differences), T(test_train_loss_is_the_cross_entropy),
          T(test_train_step_is_adamw_after_clipping), T(test_train_step_compiled_matches_interpreter),
          T(test_train_without_remat_is_refused))
