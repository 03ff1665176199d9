/* A stand-in for a generated model's training step, for timing the
 * estimator (bench/estimate_bench.c): the program one partition of an
 * fsdp x tp mesh runs, with the kernel shapes and collectives of a dense
 * decoder layer, its layers two stablehlo.while loops over stacked weights
 * (the forward, saving each layer's input; the backward, recomputing each
 * layer from it), as model/ generates them.  Per layer, forward: the FSDP
 * all_gathers of the layer's weights (qkv, o, gate/up, down), x @ Wqkv, the
 * attention's two batched matmuls (q from the qkv product; k and v stand-ins
 * of the GQA-expanded keys and values), exp for the softmax, @ Wo, a TP
 * all_reduce, the residual, x @ Wgu, SiLU x up, @ Wd, a TP all_reduce, the
 * residual.  Backward: the gathers and the forward again, then every
 * matmul's data and weight gradients, the attention's four gradient
 * matmuls, the weight gradients' FSDP reduce_scatters written into the
 * gradient stacks, TP all_reduces of the input gradient.  Not the model's
 * exact program (no norms, RoPE, loss or optimiser): the same matmuls,
 * collectives and loop structure, which is what an estimate's host time
 * depends on. */
#ifndef NPUSIM_BENCH_TRAIN_STEP_H
#define NPUSIM_BENCH_TRAIN_STEP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ts_dims {
    int layers, hidden, heads, kv_heads, head_dim, ffn; /* the model */
    int batch, seq;                                     /* global sequences, tokens each */
    int fsdp, tp;                                       /* the mesh: fsdp x tp partitions */
};

struct ts_buf {
    char *s;
    size_t n, cap;
    bool oom;
};

static void ts_put(struct ts_buf *b, const char *fmt, ...)
{
    if (b->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = true;
            return;
        }
        if ((size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = 2 * b->cap + (size_t)k + 1;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = true;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

/* "tensor<AxBxbf16>" of up to 3 dims (0: absent). */
static const char *ts_t(char *buf, int a, int b, int c)
{
    if (c) snprintf(buf, 64, "tensor<%dx%dx%dxbf16>", a, b, c);
    else if (b) snprintf(buf, 64, "tensor<%dx%dxbf16>", a, b);
    else snprintf(buf, 64, "tensor<%dxbf16>", a);
    return buf;
}

/* Replica groups: the tp groups (tp neighbours) or the fsdp groups (stride tp). */
static void ts_groups(struct ts_buf *b, const struct ts_dims *d, bool tp)
{
    int n = tp ? d->fsdp : d->tp, g = tp ? d->tp : d->fsdp;
    ts_put(b, "dense<[");
    for (int i = 0; i < n; i++) {
        ts_put(b, "%s[", i ? ", " : "");
        for (int j = 0; j < g; j++) ts_put(b, "%s%d", j ? ", " : "", tp ? i * d->tp + j : j * d->tp + i);
        ts_put(b, "]");
    }
    ts_put(b, "]> : tensor<%dx%dxi64>", n, g);
}

static int ts_channel;

/* %out = dot_general %a, %b contracting ca x cb (2-D), a [m, k] or [k, m] etc. */
static void ts_dot(struct ts_buf *b, const char *out, const char *x, const char *xt, const char *y, const char *yt,
                   int cx, int cy, const char *ot)
{
    ts_put(b, "    %s = stablehlo.dot_general %s, %s, contracting_dims = [%d] x [%d] : (%s, %s) -> %s\n", out, x, y, cx,
           cy, xt, yt, ot);
}

/* batched over dim 0, contracting cx x cy */
static void ts_bdot(struct ts_buf *b, const char *out, const char *x, const char *xt, const char *y, const char *yt,
                    int cx, int cy, const char *ot)
{
    ts_put(b,
           "    %s = stablehlo.dot_general %s, %s, batching_dims = [0] x [0], contracting_dims = [%d] x [%d] : (%s, %s) "
           "-> %s\n",
           out, x, y, cx, cy, xt, yt, ot);
}

static void ts_all_reduce(struct ts_buf *b, const struct ts_dims *d, const char *out, const char *in, const char *t)
{
    ts_put(b, "    %s = \"stablehlo.all_reduce\"(%s) <{replica_groups = ", out, in);
    ts_groups(b, d, true);
    ts_put(b,
           ", channel_handle = #stablehlo.channel_handle<handle = %d, type = 1>}> ({\n"
           "    ^bb0(%%ra: tensor<bf16>, %%rb: tensor<bf16>):\n"
           "      %%rs = stablehlo.add %%ra, %%rb : tensor<bf16>\n"
           "      stablehlo.return %%rs : tensor<bf16>\n"
           "    }) : (%s) -> %s\n",
           ++ts_channel, t, t);
}

/* The layer's weight i from a stack (local [L, K/fsdp, N]), gathered over fsdp to [K, N]. */
static void ts_gather(struct ts_buf *b, const struct ts_dims *d, const char *out, const char *stack, int k, int n)
{
    char st[64], sl[64], s2[64], g[64];
    ts_t(st, d->layers, k / d->fsdp, n);
    ts_t(sl, 1, k / d->fsdp, n);
    ts_t(s2, k / d->fsdp, n, 0);
    ts_t(g, k, n, 0);
    ts_put(b,
           "    %s_s = stablehlo.dynamic_slice %s, %%i, %%z, %%z, sizes = [1, %d, %d] : (%s, tensor<i32>, "
           "tensor<i32>, tensor<i32>) -> %s\n",
           out, stack, k / d->fsdp, n, st, sl);
    ts_put(b, "    %s_r = stablehlo.reshape %s_s : (%s) -> %s\n", out, out, sl, s2);
    ts_put(b, "    %s = \"stablehlo.all_gather\"(%s_r) <{all_gather_dim = 0 : i64, replica_groups = ", out, out);
    ts_groups(b, d, false);
    ts_put(b, ", channel_handle = #stablehlo.channel_handle<handle = %d, type = 1>}> : (%s) -> %s\n", ++ts_channel, s2,
           g);
}

/* A weight gradient g [K, N] reduce-scattered over fsdp and written into the gradient stack. */
static void ts_scatter(struct ts_buf *b, const struct ts_dims *d, const char *out, const char *stack, const char *g,
                       int k, int n)
{
    char gt[64], lt[64], l3[64], st[64];
    ts_t(gt, k, n, 0);
    ts_t(lt, k / d->fsdp, n, 0);
    ts_t(l3, 1, k / d->fsdp, n);
    ts_t(st, d->layers, k / d->fsdp, n);
    ts_put(b, "    %s_rs = \"stablehlo.reduce_scatter\"(%s) <{scatter_dimension = 0 : i64, replica_groups = ", out, g);
    ts_groups(b, d, false);
    ts_put(b,
           ", channel_handle = #stablehlo.channel_handle<handle = %d, type = 1>}> ({\n"
           "    ^bb0(%%ra: tensor<bf16>, %%rb: tensor<bf16>):\n"
           "      %%rs = stablehlo.add %%ra, %%rb : tensor<bf16>\n"
           "      stablehlo.return %%rs : tensor<bf16>\n"
           "    }) : (%s) -> %s\n",
           ++ts_channel, gt, lt);
    ts_put(b, "    %s_r3 = stablehlo.reshape %s_rs : (%s) -> %s\n", out, out, lt, l3);
    ts_put(b,
           "    %s = stablehlo.dynamic_update_slice %s, %s_r3, %%i, %%z, %%z : (%s, %s, tensor<i32>, tensor<i32>, "
           "tensor<i32>) -> %s\n",
           out, stack, out, st, l3, st);
}

/* The forward of one layer from %xin (the layer's input) to %xout; names prefixed p. */
static void ts_forward(struct ts_buf *b, const struct ts_dims *d, const char *p, const char *xin, bool tail)
{
    int T = d->batch / d->fsdp * d->seq, H = d->hidden, hd = d->head_dim;
    int Q = d->heads / d->tp * hd, KV = (d->kv_heads >= d->tp ? d->kv_heads / d->tp : 1) * hd;
    int F = d->ffn / d->tp, NH = d->batch / d->fsdp * (d->heads / d->tp), S = d->seq;
    char tH[64], tQKV[64], tQ[64], t3[64], tS[64], tF2[64], tF[64], wqkv[64], wo[64], wgu[64], wd[64];
    ts_t(tH, T, H, 0);
    ts_t(tQKV, T, Q + 2 * KV, 0);
    ts_t(tQ, T, Q, 0);
    ts_t(t3, NH, S, hd);
    ts_t(tS, NH, S, S);
    ts_t(tF2, T, 2 * F, 0);
    ts_t(tF, T, F, 0);
    ts_t(wqkv, H, Q + 2 * KV, 0);
    ts_t(wo, Q, H, 0);
    ts_t(wgu, H, 2 * F, 0);
    ts_t(wd, F, H, 0);
    char n1[32], n2[32], n3[32], n4[32];
    snprintf(n1, sizeof n1, "%%%swqkv", p);
    snprintf(n2, sizeof n2, "%%%swo", p);
    snprintf(n3, sizeof n3, "%%%swgu", p);
    snprintf(n4, sizeof n4, "%%%swd", p);
    ts_gather(b, d, n1, "%Wqkv", H, Q + 2 * KV);
    ts_gather(b, d, n2, "%Wo", Q, H);
    ts_gather(b, d, n3, "%Wgu", H, 2 * F);
    ts_gather(b, d, n4, "%Wd", F, H);
    ts_put(b, "    %%%sqkv = stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : (%s, %s) -> %s\n", p, xin, n1,
           tH, wqkv, tQKV);
    ts_put(b, "    %%%sq = stablehlo.slice %%%sqkv [0:%d, 0:%d] : (%s) -> %s\n", p, p, T, Q, tQKV, tQ);
    ts_put(b, "    %%%sq3 = stablehlo.reshape %%%sq : (%s) -> %s\n", p, p, tQ, t3);
    char s1[32], s2[32], s3[32];
    snprintf(s1, sizeof s1, "%%%sq3", p);
    snprintf(s2, sizeof s2, "%%%ssc", p);
    ts_bdot(b, s2, s1, t3, "%k", t3, 2, 2, tS);
    ts_put(b, "    %%%sp = stablehlo.exponential %%%ssc : %s\n", p, p, tS);
    snprintf(s1, sizeof s1, "%%%sp", p);
    snprintf(s3, sizeof s3, "%%%sat", p);
    ts_bdot(b, s3, s1, tS, "%v", t3, 2, 1, t3);
    ts_put(b, "    %%%sat2 = stablehlo.reshape %%%sat : (%s) -> %s\n", p, p, t3, tQ);
    snprintf(s1, sizeof s1, "%%%sat2", p);
    snprintf(s2, sizeof s2, "%%%so", p);
    ts_dot(b, s2, s1, tQ, n2, wo, 1, 0, tH);
    snprintf(s3, sizeof s3, "%%%sor", p);
    ts_all_reduce(b, d, s3, s2, tH);
    ts_put(b, "    %%%sx1 = stablehlo.add %s, %%%sor : %s\n", p, xin, p, tH);
    snprintf(s1, sizeof s1, "%%%sx1", p);
    snprintf(s2, sizeof s2, "%%%sgu", p);
    ts_dot(b, s2, s1, tH, n3, wgu, 1, 0, tF2);
    ts_put(b, "    %%%sg = stablehlo.slice %%%sgu [0:%d, 0:%d] : (%s) -> %s\n", p, p, T, F, tF2, tF);
    ts_put(b, "    %%%su = stablehlo.slice %%%sgu [0:%d, %d:%d] : (%s) -> %s\n", p, p, T, F, 2 * F, tF2, tF);
    ts_put(b, "    %%%ssg = stablehlo.logistic %%%sg : %s\n", p, p, tF);
    ts_put(b, "    %%%ssl = stablehlo.multiply %%%sg, %%%ssg : %s\n", p, p, p, tF);
    ts_put(b, "    %%%sa = stablehlo.multiply %%%ssl, %%%su : %s\n", p, p, p, tF);
    if (!tail) return;
    snprintf(s1, sizeof s1, "%%%sa", p);
    snprintf(s2, sizeof s2, "%%%sdn", p);
    ts_dot(b, s2, s1, tF, n4, wd, 1, 0, tH);
    snprintf(s3, sizeof s3, "%%%sdr", p);
    ts_all_reduce(b, d, s3, s2, tH);
    ts_put(b, "    %%%sx2 = stablehlo.add %%%sx1, %%%sdr : %s\n", p, p, p, tH);
}

/* The whole program; the caller frees *out.  0 when out of memory. */
static size_t ts_program(const struct ts_dims *d, char **out)
{
    struct ts_buf b = {NULL, 0, 0, false};
    ts_channel = 0;
    int L = d->layers, T = d->batch / d->fsdp * d->seq, H = d->hidden, hd = d->head_dim;
    int Q = d->heads / d->tp * hd, KV = (d->kv_heads >= d->tp ? d->kv_heads / d->tp : 1) * hd;
    int F = d->ffn / d->tp, NH = d->batch / d->fsdp * (d->heads / d->tp), S = d->seq, FS = d->fsdp;
    char tH[64], tQ[64], t3[64], tS[64], tF2[64], tF[64], tsv[64], wqkv[64], wo[64], wgu[64], wd[64];
    char sqkv[64], so[64], sgu[64], sd[64], gH[64], g3[64], gsq[64], gso[64], gsgu[64], gsd[64], wq[64], sq[64];
    ts_t(tH, T, H, 0);
    ts_t(tQ, T, Q, 0);
    ts_t(t3, NH, S, hd);
    ts_t(tS, NH, S, S);
    ts_t(tF2, T, 2 * F, 0);
    ts_t(tF, T, F, 0);
    ts_t(tsv, L, T, H);
    ts_t(wqkv, H, Q + 2 * KV, 0);
    ts_t(wo, Q, H, 0);
    ts_t(wgu, H, 2 * F, 0);
    ts_t(wd, F, H, 0);
    ts_t(wq, H, Q, 0);
    ts_t(sqkv, L, H / FS, Q + 2 * KV);
    ts_t(so, L, Q / FS, H);
    ts_t(sgu, L, H / FS, 2 * F);
    ts_t(sd, L, F / FS, H);
    ts_t(sq, L, H / FS, Q);
    /* the global types: dim 0 of activations and dim 1 of the stacks split over fsdp, the last over tp */
    ts_t(gH, T * FS, H, 0);
    ts_t(g3, NH * FS, S, hd * d->tp);
    ts_t(gsq, L, H, (Q + 2 * KV) * d->tp);
    ts_t(gso, L, Q, H * d->tp);
    ts_t(gsgu, L, H, 2 * F * d->tp);
    ts_t(gsd, L, F, H * d->tp);
    char gsqq[64];
    ts_t(gsqq, L, H, Q * d->tp);
    ts_put(&b, "sdy.mesh @mesh = <[\"fsdp\"=%d, \"tp\"=%d]>\n", FS, d->tp);
    ts_put(&b,
           "func.func @main(%%gx: %s, %%gk: %s, %%gv: %s, %%gWqkv: %s, %%gWo: %s, %%gWgu: %s, %%gWd: %s) -> (%s, %s, %s, %s, "
           "%s, %s) {\n",
           gH, g3, g3, gsq, gso, gsgu, gsd, gH, gsqq, gso, gsgu, gsd, g3);
    ts_put(&b,
           "  %%r:6 = sdy.manual_computation(%%gx, %%gk, %%gv, %%gWqkv, %%gWo, %%gWgu, %%gWd) in_shardings=[<@mesh, "
           "[{\"fsdp\"}, {}]>, <@mesh, [{\"fsdp\"}, {}, {\"tp\"}]>, <@mesh, [{\"fsdp\"}, {}, {\"tp\"}]>, <@mesh, [{}, "
           "{\"fsdp\"}, {\"tp\"}]>, <@mesh, [{}, {\"fsdp\"}, {\"tp\"}]>, <@mesh, [{}, {\"fsdp\"}, {\"tp\"}]>, <@mesh, "
           "[{}, {\"fsdp\"}, {\"tp\"}]>]\n"
           "      out_shardings=[<@mesh, [{\"fsdp\"}, {}]>, <@mesh, [{}, {\"fsdp\"}, {\"tp\"}]>, <@mesh, [{}, "
           "{\"fsdp\"}, {\"tp\"}]>, <@mesh, [{}, {\"fsdp\"}, {\"tp\"}]>, <@mesh, [{}, {\"fsdp\"}, {\"tp\"}]>, <@mesh, "
           "[{\"fsdp\"}, {}, {\"tp\"}]>] manual_axes={\"fsdp\", \"tp\"}\n"
           "      (%%x: %s, %%k: %s, %%v: %s, %%Wqkv: %s, %%Wo: %s, %%Wgu: %s, %%Wd: %s) {\n",
           tH, t3, t3, sqkv, so, sgu, sd);
    ts_put(&b, "    %%c0 = stablehlo.constant dense<0> : tensor<i32>\n");
    ts_put(&b, "    %%zf = stablehlo.constant dense<0.0> : tensor<bf16>\n");
    ts_put(&b, "    %%sv0 = stablehlo.broadcast_in_dim %%zf, dims = [] : (tensor<bf16>) -> %s\n", tsv);
    /* the forward loop: saves each layer's input */
    ts_put(&b, "    %%f:3 = stablehlo.while(%%i = %%c0, %%h = %%x, %%sv = %%sv0) : tensor<i32>, %s, %s\n", tH, tsv);
    ts_put(&b,
           "    cond {\n"
           "      %%n = stablehlo.constant dense<%d> : tensor<i32>\n"
           "      %%pr = stablehlo.compare LT, %%i, %%n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
           "      stablehlo.return %%pr : tensor<i1>\n"
           "    } do {\n",
           L);
    ts_put(&b, "    %%z = stablehlo.constant dense<0> : tensor<i32>\n    %%one = stablehlo.constant dense<1> : tensor<i32>\n");
    char t3h[64];
    ts_t(t3h, 1, T, H);
    ts_put(&b, "    %%h3 = stablehlo.reshape %%h : (%s) -> %s\n", tH, t3h);
    ts_put(&b,
           "    %%sv2 = stablehlo.dynamic_update_slice %%sv, %%h3, %%i, %%z, %%z : (%s, %s, tensor<i32>, tensor<i32>, "
           "tensor<i32>) -> %s\n",
           tsv, t3h, tsv);
    ts_forward(&b, d, "f", "%h", true);
    ts_put(&b, "    %%i2 = stablehlo.add %%i, %%one : tensor<i32>\n");
    ts_put(&b, "    stablehlo.return %%i2, %%fx2, %%sv2 : tensor<i32>, %s, %s\n    }\n", tH, tsv);
    /* the backward loop, layers in reverse: recompute, then the gradients */
    ts_put(&b, "    %%g0 = stablehlo.broadcast_in_dim %%zf, dims = [] : (tensor<bf16>) -> %s\n", sq);
    ts_put(&b, "    %%o0 = stablehlo.broadcast_in_dim %%zf, dims = [] : (tensor<bf16>) -> %s\n", so);
    ts_put(&b, "    %%u0 = stablehlo.broadcast_in_dim %%zf, dims = [] : (tensor<bf16>) -> %s\n", sgu);
    ts_put(&b, "    %%d0 = stablehlo.broadcast_in_dim %%zf, dims = [] : (tensor<bf16>) -> %s\n", sd);
    ts_put(&b, "    %%kv0 = stablehlo.broadcast_in_dim %%zf, dims = [] : (tensor<bf16>) -> %s\n", t3);
    ts_put(&b,
           "    %%bw:7 = stablehlo.while(%%j = %%c0, %%dx = %%f#1, %%GWq = %%g0, %%GWo = %%o0, %%GWgu = %%u0, %%GWd = "
           "%%d0, %%dkv = %%kv0) : tensor<i32>, %s, %s, %s, %s, %s, %s\n",
           tH, sq, so, sgu, sd, t3);
    ts_put(&b,
           "    cond {\n"
           "      %%n = stablehlo.constant dense<%d> : tensor<i32>\n"
           "      %%pr = stablehlo.compare LT, %%j, %%n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
           "      stablehlo.return %%pr : tensor<i1>\n"
           "    } do {\n",
           L);
    ts_put(&b, "    %%z = stablehlo.constant dense<0> : tensor<i32>\n    %%one = stablehlo.constant dense<1> : tensor<i32>\n");
    ts_put(&b, "    %%last = stablehlo.constant dense<%d> : tensor<i32>\n", L - 1);
    ts_put(&b, "    %%i = stablehlo.subtract %%last, %%j : tensor<i32>\n");
    ts_put(&b,
           "    %%xs = stablehlo.dynamic_slice %%f#2, %%i, %%z, %%z, sizes = [1, %d, %d] : (%s, tensor<i32>, "
           "tensor<i32>, tensor<i32>) -> %s\n",
           T, H, tsv, t3h);
    ts_put(&b, "    %%xin = stablehlo.reshape %%xs : (%s) -> %s\n", t3h, tH);
    ts_forward(&b, d, "b", "%xin", false);
    /* the down projection: dh = dx Wd^T, dWd = a^T dx */
    ts_dot(&b, "%dh", "%dx", tH, "%bwd", wd, 1, 1, tF);
    ts_dot(&b, "%gd", "%ba", tF, "%dx", tH, 0, 0, wd);
    ts_scatter(&b, d, "%GWd2", "%GWd", "%gd", F, H);
    /* SiLU x up: the gate's and up's gradients, side by side */
    ts_put(&b, "    %%dg = stablehlo.multiply %%dh, %%bu : %s\n", tF);
    ts_put(&b, "    %%du = stablehlo.multiply %%dh, %%bsl : %s\n", tF);
    ts_put(&b, "    %%dgu = stablehlo.concatenate %%dg, %%du, dim = 1 : (%s, %s) -> %s\n", tF, tF, tF2);
    ts_dot(&b, "%dx1p", "%dgu", tF2, "%bwgu", wgu, 1, 1, tH);
    ts_dot(&b, "%ggu", "%bx1", tH, "%dgu", tF2, 0, 0, wgu);
    ts_scatter(&b, d, "%GWgu2", "%GWgu", "%ggu", H, 2 * F);
    ts_all_reduce(&b, d, "%dx1r", "%dx1p", tH);
    ts_put(&b, "    %%dx1 = stablehlo.add %%dx, %%dx1r : %s\n", tH);
    /* the output projection */
    ts_dot(&b, "%dat", "%dx1", tH, "%bwo", wo, 1, 1, tQ);
    ts_dot(&b, "%go", "%bat2", tQ, "%dx1", tH, 0, 0, wo);
    ts_scatter(&b, d, "%GWo2", "%GWo", "%go", Q, H);
    /* attention: dp = dat v^T, ds = dp p, dq = ds k, dk = ds^T q, dv = p^T dat */
    ts_put(&b, "    %%dat3 = stablehlo.reshape %%dat : (%s) -> %s\n", tQ, t3);
    ts_bdot(&b, "%dp", "%dat3", t3, "%v", t3, 2, 2, tS);
    ts_put(&b, "    %%ds = stablehlo.multiply %%dp, %%bp : %s\n", tS);
    ts_bdot(&b, "%dq", "%ds", tS, "%k", t3, 2, 1, t3);
    ts_bdot(&b, "%dk", "%ds", tS, "%bq3", t3, 1, 1, t3);
    ts_bdot(&b, "%dv", "%bp", tS, "%dat3", t3, 1, 1, t3);
    ts_put(&b, "    %%dkv1 = stablehlo.add %%dkv, %%dk : %s\n", t3);
    ts_put(&b, "    %%dkv2 = stablehlo.add %%dkv1, %%dv : %s\n", t3);
    /* q's projection (the qkv product's first Q columns) */
    ts_put(&b, "    %%dq2 = stablehlo.reshape %%dq : (%s) -> %s\n", t3, tQ);
    ts_put(&b, "    %%bwq = stablehlo.slice %%bwqkv [0:%d, 0:%d] : (%s) -> %s\n", H, Q, wqkv, wq);
    ts_dot(&b, "%dxq", "%dq2", tQ, "%bwq", wq, 1, 1, tH);
    ts_dot(&b, "%gq", "%xin", tH, "%dq2", tQ, 0, 0, wq);
    ts_scatter(&b, d, "%GWq2", "%GWq", "%gq", H, Q);
    ts_all_reduce(&b, d, "%dxqr", "%dxq", tH);
    ts_put(&b, "    %%dx2 = stablehlo.add %%dx1, %%dxqr : %s\n", tH);
    ts_put(&b, "    %%j2 = stablehlo.add %%j, %%one : tensor<i32>\n");
    ts_put(&b,
           "    stablehlo.return %%j2, %%dx2, %%GWq2, %%GWo2, %%GWgu2, %%GWd2, %%dkv2 : tensor<i32>, %s, %s, %s, %s, %s, "
           "%s\n    }\n",
           tH, sq, so, sgu, sd, t3);
    ts_put(&b, "    sdy.return %%bw#1, %%bw#2, %%bw#3, %%bw#4, %%bw#5, %%bw#6 : %s, %s, %s, %s, %s, %s\n", tH, sq, so, sgu,
           sd, t3);
    ts_put(&b, "  } : (%s, %s, %s, %s, %s, %s, %s) -> (%s, %s, %s, %s, %s, %s)\n", gH, g3, g3, gsq, gso, gsgu, gsd, gH,
           gsqq, gso, gsgu, gsd, g3);
    ts_put(&b, "  return %%r#0, %%r#1, %%r#2, %%r#3, %%r#4, %%r#5 : %s, %s, %s, %s, %s, %s\n}\n", gH, gsqq, gso, gsgu, gsd,
           g3);
    if (b.oom) {
        free(b.s);
        return 0;
    }
    *out = b.s;
    return b.n;
}

#endif
