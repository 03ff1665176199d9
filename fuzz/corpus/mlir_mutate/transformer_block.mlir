// A small decoder transformer block, written by hand in StableHLO as JAX and
// torch_xla print it: RMSNorm -> causal multi-head attention -> residual ->
// RMSNorm -> SwiGLU feed-forward -> residual.  bf16 weights and activations,
// f32 for the norms and the softmax, as real LLM exports do.
//
//   sequence 8, model width 64, 4 heads of 16, feed-forward width 128
//
// Weights are function arguments (as in torch_xla exports): run it with
//   npusim interp examples/transformer_block.mlir --random-inputs 1
module @transformer_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<8x64xbf16>, %ln1_w: tensor<64xbf16>,
                         %wq: tensor<64x64xbf16>, %wk: tensor<64x64xbf16>,
                         %wv: tensor<64x64xbf16>, %wo: tensor<64x64xbf16>,
                         %ln2_w: tensor<64xbf16>, %w_gate: tensor<64x128xbf16>,
                         %w_up: tensor<64x128xbf16>, %w_down: tensor<128x64xbf16>) -> tensor<8x64xbf16> {
    // ---- attention ----
    %h = call @rms_norm(%x, %ln1_w) : (tensor<8x64xbf16>, tensor<64xbf16>) -> tensor<8x64xbf16>
    %q = stablehlo.dot_general %h, %wq, contracting_dims = [1] x [0] : (tensor<8x64xbf16>, tensor<64x64xbf16>) -> tensor<8x64xbf16>
    %k = stablehlo.dot_general %h, %wk, contracting_dims = [1] x [0] : (tensor<8x64xbf16>, tensor<64x64xbf16>) -> tensor<8x64xbf16>
    %v = stablehlo.dot_general %h, %wv, contracting_dims = [1] x [0] : (tensor<8x64xbf16>, tensor<64x64xbf16>) -> tensor<8x64xbf16>
    %q3 = stablehlo.reshape %q : (tensor<8x64xbf16>) -> tensor<8x4x16xbf16>
    %k3 = stablehlo.reshape %k : (tensor<8x64xbf16>) -> tensor<8x4x16xbf16>
    %v3 = stablehlo.reshape %v : (tensor<8x64xbf16>) -> tensor<8x4x16xbf16>
    %qh = stablehlo.transpose %q3, dims = [1, 0, 2] : (tensor<8x4x16xbf16>) -> tensor<4x8x16xbf16>
    %kh = stablehlo.transpose %k3, dims = [1, 0, 2] : (tensor<8x4x16xbf16>) -> tensor<4x8x16xbf16>
    %vh = stablehlo.transpose %v3, dims = [1, 0, 2] : (tensor<8x4x16xbf16>) -> tensor<4x8x16xbf16>
    // scores[h, i, j] = q[h, i, :] . k[h, j, :] / sqrt(16), accumulated in f32
    %s = stablehlo.dot_general %qh, %kh, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<4x8x16xbf16>, tensor<4x8x16xbf16>) -> tensor<4x8x8xf32>
    %scale = stablehlo.constant dense<2.500000e-01> : tensor<4x8x8xf32>
    %ss = stablehlo.multiply %s, %scale : tensor<4x8x8xf32>
    // causal mask: position j > i gets -inf
    %row = stablehlo.iota dim = 1 : tensor<4x8x8xi32>
    %col = stablehlo.iota dim = 2 : tensor<4x8x8xi32>
    %visible = stablehlo.compare  GE, %row, %col,  SIGNED : (tensor<4x8x8xi32>, tensor<4x8x8xi32>) -> tensor<4x8x8xi1>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<4x8x8xf32>
    %masked = stablehlo.select %visible, %ss, %ninf : tensor<4x8x8xi1>, tensor<4x8x8xf32>
    // softmax over j
    %neg_big = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %mx = stablehlo.reduce(%masked init: %neg_big) applies stablehlo.maximum across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %mxb = stablehlo.broadcast_in_dim %mx, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x8xf32>
    %shifted = stablehlo.subtract %masked, %mxb : tensor<4x8x8xf32>
    %e = stablehlo.exponential %shifted : tensor<4x8x8xf32>
    %den = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %denb = stablehlo.broadcast_in_dim %den, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x8xf32>
    %p = stablehlo.divide %e, %denb : tensor<4x8x8xf32>
    %pb = stablehlo.convert %p : (tensor<4x8x8xf32>) -> tensor<4x8x8xbf16>
    // context[h, i, :] = sum_j p[h, i, j] v[h, j, :]
    %ctx = stablehlo.dot_general %pb, %vh, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x8xbf16>, tensor<4x8x16xbf16>) -> tensor<4x8x16xbf16>
    %ctxt = stablehlo.transpose %ctx, dims = [1, 0, 2] : (tensor<4x8x16xbf16>) -> tensor<8x4x16xbf16>
    %ctx2 = stablehlo.reshape %ctxt : (tensor<8x4x16xbf16>) -> tensor<8x64xbf16>
    %attn = stablehlo.dot_general %ctx2, %wo, contracting_dims = [1] x [0] : (tensor<8x64xbf16>, tensor<64x64xbf16>) -> tensor<8x64xbf16>
    %x1 = stablehlo.add %x, %attn : tensor<8x64xbf16>
    // ---- feed-forward (SwiGLU) ----
    %h2 = call @rms_norm(%x1, %ln2_w) : (tensor<8x64xbf16>, tensor<64xbf16>) -> tensor<8x64xbf16>
    %g = stablehlo.dot_general %h2, %w_gate, contracting_dims = [1] x [0] : (tensor<8x64xbf16>, tensor<64x128xbf16>) -> tensor<8x128xbf16>
    %u = stablehlo.dot_general %h2, %w_up, contracting_dims = [1] x [0] : (tensor<8x64xbf16>, tensor<64x128xbf16>) -> tensor<8x128xbf16>
    %sig = stablehlo.logistic %g : tensor<8x128xbf16>
    %silu = stablehlo.multiply %g, %sig : tensor<8x128xbf16>
    %gu = stablehlo.multiply %silu, %u : tensor<8x128xbf16>
    %down = stablehlo.dot_general %gu, %w_down, contracting_dims = [1] x [0] : (tensor<8x128xbf16>, tensor<128x64xbf16>) -> tensor<8x64xbf16>
    %y = stablehlo.add %x1, %down : tensor<8x64xbf16>
    return %y : tensor<8x64xbf16>
  }

  // RMSNorm in f32: x * rsqrt(mean(x^2) + eps) * w
  func.func private @rms_norm(%x: tensor<8x64xbf16>, %w: tensor<64xbf16>) -> tensor<8x64xbf16> {
    %xf = stablehlo.convert %x : (tensor<8x64xbf16>) -> tensor<8x64xf32>
    %sq = stablehlo.multiply %xf, %xf : tensor<8x64xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %sum = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %inv_n = stablehlo.constant dense<1.562500e-02> : tensor<8xf32>
    %mean = stablehlo.multiply %sum, %inv_n : tensor<8xf32>
    %eps = stablehlo.constant dense<9.99999997E-7> : tensor<8xf32>
    %var = stablehlo.add %mean, %eps : tensor<8xf32>
    %r = stablehlo.rsqrt %var : tensor<8xf32>
    %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %n = stablehlo.multiply %xf, %rb : tensor<8x64xf32>
    %nb = stablehlo.convert %n : (tensor<8x64xf32>) -> tensor<8x64xbf16>
    %wb = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<64xbf16>) -> tensor<8x64xbf16>
    %out = stablehlo.multiply %nb, %wb : tensor<8x64xbf16>
    return %out : tensor<8x64xbf16>
  }
}
