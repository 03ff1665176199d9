/* The StableHLO text of one data-parallel training step of a stack of GEMM
 * layers, unsharded (as JAX exports it before SPMD partitioning); shared by
 * bench/multichip_bench.c and tests/runtime/test_dp_gemm.c.
 *
 *   @main(%x: RxW, %t: RxW, %w0 .. %w{L-1}: WxW) -> (WxW) x L
 *   forward    h0 = x, h{l+1} = h{l} @ w{l}
 *   loss       sum (hL - t)^2 / 2, so dy = hL - t (the mean's 1/R is in lr)
 *   backward   dw{l} = h{l}^T @ g{l+1}   (contracts the batch: R rows)
 *              g{l} = g{l+1} @ w{l}^T    (not for l = 0: nobody needs dx)
 *   update     w{l}' = w{l} - lr * dw{l}, returned
 *
 * With x and t split on dim 0 (the batch) and the weights replicated, the
 * partitioner keeps every activation split, contracts dw locally and sums
 * it with one all_reduce per layer: W*W elements, the data-parallel
 * gradient all_reduce. */
#ifndef NPUSIM_BENCH_DP_GEMM_H
#define NPUSIM_BENCH_DP_GEMM_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct dp_gemm_buf {
    char *s;
    size_t len, cap;
    int failed; /* out of memory */
};

static inline void dp_gemm_put(struct dp_gemm_buf *b, const char *fmt, ...)
{
    if (b->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap : 4096;
        while (cap <= b->len + (size_t)n) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

/* The program for `layers` layers of width `width`, `rows` rows of global
 * batch, element type dtype ("bf16", "f32"), learning rate lr.  Returns the
 * text (heap, free()) and its length, or NULL when out of memory. */
static inline char *dp_gemm_text(int layers, int64_t rows, int64_t width, const char *dtype, double lr,
                                 size_t *len_out)
{
    struct dp_gemm_buf b = {NULL, 0, 0, 0};
    char act[64], wt[64];
    snprintf(act, sizeof act, "tensor<%lldx%lldx%s>", (long long)rows, (long long)width, dtype);
    snprintf(wt, sizeof wt, "tensor<%lldx%lldx%s>", (long long)width, (long long)width, dtype);
    dp_gemm_put(&b, "func.func @main(%%x: %s, %%t: %s", act, act);
    for (int l = 0; l < layers; l++) dp_gemm_put(&b, ", %%w%d: %s", l, wt);
    dp_gemm_put(&b, ") -> (");
    for (int l = 0; l < layers; l++) dp_gemm_put(&b, "%s%s", l ? ", " : "", wt);
    dp_gemm_put(&b, ") {\n");
    /* forward: %h0 is %x */
    for (int l = 0; l < layers; l++) {
        char in[16];
        if (l) snprintf(in, sizeof in, "%%h%d", l);
        else snprintf(in, sizeof in, "%%x");
        dp_gemm_put(&b, "  %%h%d = stablehlo.dot_general %s, %%w%d, contracting_dims = [1] x [0] : (%s, %s) -> %s\n",
                    l + 1, in, l, act, wt, act);
    }
    /* the loss gradient */
    dp_gemm_put(&b, "  %%g%d = stablehlo.subtract %%h%d, %%t : %s\n", layers, layers, act);
    /* backward */
    for (int l = layers - 1; l >= 0; l--) {
        char in[16];
        if (l) snprintf(in, sizeof in, "%%h%d", l);
        else snprintf(in, sizeof in, "%%x");
        dp_gemm_put(&b, "  %%dw%d = stablehlo.dot_general %s, %%g%d, contracting_dims = [0] x [0] : (%s, %s) -> %s\n",
                    l, in, l + 1, act, act, wt);
        if (l)
            dp_gemm_put(&b, "  %%g%d = stablehlo.dot_general %%g%d, %%w%d, contracting_dims = [1] x [1] : (%s, %s) -> %s\n",
                        l, l + 1, l, act, wt, act);
    }
    /* update */
    dp_gemm_put(&b, "  %%lr = stablehlo.constant dense<%.9e> : tensor<%s>\n", lr, dtype);
    dp_gemm_put(&b, "  %%lrb = stablehlo.broadcast_in_dim %%lr, dims = [] : (tensor<%s>) -> %s\n", dtype, wt);
    for (int l = 0; l < layers; l++) {
        dp_gemm_put(&b, "  %%s%d = stablehlo.multiply %%lrb, %%dw%d : %s\n", l, l, wt);
        dp_gemm_put(&b, "  %%n%d = stablehlo.subtract %%w%d, %%s%d : %s\n", l, l, l, wt);
    }
    dp_gemm_put(&b, "  return");
    for (int l = 0; l < layers; l++) dp_gemm_put(&b, "%s %%n%d", l ? "," : "", l);
    dp_gemm_put(&b, " : ");
    for (int l = 0; l < layers; l++) dp_gemm_put(&b, "%s%s", l ? ", " : "", wt);
    dp_gemm_put(&b, "\n}\n");
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    *len_out = b.len;
    return b.s;
}

#endif
