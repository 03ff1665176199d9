/* Layer-loop programs for the loop-reuse tests: a stablehlo.while over
 * stacked weights sliced by the layer index, as a generated model's layer
 * loop is (model/model.h).  Each trip: h = x @ w1[i] (d -> f), a GELU-like
 * tanh epilogue, y = h @ w2[i] (f -> d), and with tp > 1 (an SPMD program
 * of tp partitions, the weights split along f) an all_reduce of y, then the
 * residual add.  With overlap, a second product of the same operands runs
 * between the all_reduce and the add, while the all_reduce is in flight. */
#ifndef NPUSIM_TESTS_LOOP_PROGRAMS_H
#define NPUSIM_TESTS_LOOP_PROGRAMS_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Writes the program into buf (cap bytes); returns the length, or 0 when
 * it does not fit.  layers trips; x is batch x d; w1 layers x d x f, w2
 * layers x f x d (f is the per-partition width when tp > 1). */
static inline size_t loop_program(char *buf, size_t cap, int layers, int batch, int d, int f, int tp, bool overlap)
{
    size_t n = 0;
#define P(...)                                                                                                         \
    do {                                                                                                               \
        int k_ = snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__);                                                 \
        if (k_ < 0 || (size_t)k_ >= cap - n) return 0;                                                                 \
        n += (size_t)k_;                                                                                               \
    } while (0)
    char xt[64], w1t[64], w2t[64], w1s[64], w2s[64], w1l[64], w2l[64], ht[64];
    snprintf(xt, sizeof xt, "tensor<%dx%dxbf16>", batch, d);
    snprintf(w1t, sizeof w1t, "tensor<%dx%dx%dxbf16>", layers, d, f * tp);
    snprintf(w2t, sizeof w2t, "tensor<%dx%dx%dxbf16>", layers, f * tp, d);
    snprintf(w1l, sizeof w1l, "tensor<%dx%dx%dxbf16>", layers, d, f);
    snprintf(w2l, sizeof w2l, "tensor<%dx%dx%dxbf16>", layers, f, d);
    snprintf(w1s, sizeof w1s, "tensor<1x%dx%dxbf16>", d, f);
    snprintf(w2s, sizeof w2s, "tensor<1x%dx%dxbf16>", f, d);
    snprintf(ht, sizeof ht, "tensor<%dx%dxbf16>", batch, f);
    const char *W1 = tp > 1 ? w1l : w1t, *W2 = tp > 1 ? w2l : w2t;
    if (tp > 1) P("sdy.mesh @mesh = <[\"tp\"=%d]>\n", tp);
    P("func.func @main(%%x: %s, %%w1: %s, %%w2: %s) -> %s {\n", xt, w1t, w2t, xt);
    if (tp > 1) {
        P("  %%r = sdy.manual_computation(%%x, %%w1, %%w2) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}, "
          "{\"tp\"}]>, <@mesh, [{}, {\"tp\"}, {}]>]\n"
          "      out_shardings=[<@mesh, [{}, {}]>] manual_axes={\"tp\"}\n"
          "      (%%lx: %s, %%lw1: %s, %%lw2: %s) {\n",
          xt, W1, W2);
    }
    const char *X = tp > 1 ? "%lx" : "%x", *A = tp > 1 ? "%lw1" : "%w1", *B = tp > 1 ? "%lw2" : "%w2";
    P("  %%c0 = stablehlo.constant dense<0> : tensor<i32>\n");
    P("  %%o:2 = stablehlo.while(%%i = %%c0, %%v = %s) : tensor<i32>, %s\n", X, xt);
    P("  cond {\n"
      "    %%n = stablehlo.constant dense<%d> : tensor<i32>\n"
      "    %%p = stablehlo.compare LT, %%i, %%n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %%p : tensor<i1>\n"
      "  } do {\n",
      layers);
    P("    %%one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %%z = stablehlo.constant dense<0> : tensor<i32>\n");
    P("    %%a = stablehlo.dynamic_slice %s, %%i, %%z, %%z, sizes = [1, %d, %d] : (%s, tensor<i32>, tensor<i32>, "
      "tensor<i32>) -> %s\n",
      A, d, f, W1, w1s);
    P("    %%b = stablehlo.dynamic_slice %s, %%i, %%z, %%z, sizes = [1, %d, %d] : (%s, tensor<i32>, tensor<i32>, "
      "tensor<i32>) -> %s\n",
      B, f, d, W2, w2s);
    P("    %%a2 = stablehlo.reshape %%a : (%s) -> tensor<%dx%dxbf16>\n", w1s, d, f);
    P("    %%b2 = stablehlo.reshape %%b : (%s) -> tensor<%dx%dxbf16>\n", w2s, f, d);
    P("    %%h = stablehlo.dot_general %%v, %%a2, contracting_dims = [1] x [0] : (%s, tensor<%dx%dxbf16>) -> %s\n", xt,
      d, f, ht);
    P("    %%g = stablehlo.tanh %%h : %s\n", ht);
    P("    %%y = stablehlo.dot_general %%g, %%b2, contracting_dims = [1] x [0] : (%s, tensor<%dx%dxbf16>) -> %s\n", ht,
      f, d, xt);
    const char *Y = "%y";
    if (tp > 1) {
        P("%s", "    %s = \"stablehlo.all_reduce\"(%y) <{replica_groups = dense<[[");
        for (int k = 0; k < tp; k++) P("%s%d", k ? ", " : "", k);
        P("]]> : tensor<1x%dxi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> ({\n"
          "    ^bb0(%%e: tensor<bf16>, %%q: tensor<bf16>):\n"
          "      %%t = stablehlo.add %%e, %%q : tensor<bf16>\n"
          "      stablehlo.return %%t : tensor<bf16>\n"
          "    }) : (%s) -> %s\n",
          tp, xt, xt);
        Y = "%s";
    }
    if (overlap) {
        P("    %%y2 = stablehlo.dot_general %%g, %%b2, contracting_dims = [1] x [0] : (%s, tensor<%dx%dxbf16>) -> %s\n",
          ht, f, d, xt);
        P("    %%v1 = stablehlo.add %%v, %s : %s\n", Y, xt);
        P("    %%v2 = stablehlo.add %%v1, %%y2 : %s\n", xt);
    } else {
        P("    %%v2 = stablehlo.add %%v, %s : %s\n", Y, xt);
    }
    P("    %%i2 = stablehlo.add %%i, %%one : tensor<i32>\n"
      "    stablehlo.return %%i2, %%v2 : tensor<i32>, %s\n"
      "  }\n",
      xt);
    if (tp > 1) {
        P("    sdy.return %%o#1 : %s\n  } : (%s, %s, %s) -> %s\n  return %%r : %s\n}\n", xt, xt, w1t, w2t, xt, xt);
    } else {
        P("  func.return %%o#1 : %s\n}\n", xt);
    }
#undef P
    return n;
}

#endif
