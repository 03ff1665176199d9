// diff_fuzz: mode=eager cores=0 inputs=200412
// found with --seed 200412: mismatch on trn2: output 0 (16x4x7x1xf32, got 16x4x7x1xf32): 14 element(s) beyond the bound (0 allowed), worst at 142: got 0.202460229 want 0.202
// lgamma's Lanczos sequence is within 40 f32 ulps of the interpreter (docs/compiler.md), but --check's
// tolerance did not know it: rt_tolerance_for now adds each special function's documented bound (cc_decomposition_ulps).
module {
  "func.func"() ({
  ^bb0(%c2: tensor<16x4x4x1xf32>):
    %_1 = "chlo.lgamma"(%c2) : (tensor<16x4x4x1xf32>) -> tensor<16x4x4x1xf32>
    %_2 = "stablehlo.reshape"(%_1) : (tensor<16x4x4x1xf32>) -> tensor<256xf32>
    %_3 = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %_4 = "stablehlo.pad"(%_2, %_3) {edge_padding_high = array<i64: 192>, edge_padding_low = array<i64: 0>, interior_padding = array<i64: 0>} : (tensor<256xf32>, tensor<f32>) -> tensor<448xf32>
    %_5 = "stablehlo.reshape"(%_4) : (tensor<448xf32>) -> tensor<16x4x7x1xf32>
    %_6 = "stablehlo.cbrt"(%_5) : (tensor<16x4x7x1xf32>) -> tensor<16x4x7x1xf32>
    "func.return"(%_6) : (tensor<16x4x7x1xf32>) -> ()
  }) {function_type = (tensor<16x4x4x1xf32>) -> tensor<16x4x7x1xf32>, sym_name = "main"} : () -> ()
}
