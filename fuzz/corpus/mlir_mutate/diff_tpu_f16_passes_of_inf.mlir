// diff_fuzz: mode=compiled cores=0 inputs=2045
// found with --seed 2045: mismatch on tpu-v5e: output 0 (1x11xbf16): got -nan want inf.  A TPU runs
// f32 and f16 matmuls as bf16 passes; the split of inf (ui16 65535 converted to f16) was inf + (inf - inf),
// and the low passes turned inf x y into NaN (sim/exec_matmul.c, base_f32_bf16_parts).
module {
  "func.func"() ({
  ^bb0(%c15: tensor<1xf16>, %c36: tensor<4x14x1x33xui16>):
    %_2 = "stablehlo.negate"(%c36) : (tensor<4x14x1x33xui16>) -> tensor<4x14x1x33xui16>
    %_3 = "stablehlo.reshape"(%_2) : (tensor<4x14x1x33xui16>) -> tensor<1848xui16>
    %_4 = "stablehlo.slice"(%_3) {limit_indices = array<i64: 1606>, start_indices = array<i64: 1585>, strides = array<i64: 2>} : (tensor<1848xui16>) -> tensor<11xui16>
    %_5 = "stablehlo.convert"(%_4) : (tensor<11xui16>) -> tensor<11xf16>
    %_6 = "stablehlo.dot_general"(%c15, %_5) {dot_dimension_numbers = #stablehlo.dot<>} : (tensor<1xf16>, tensor<11xf16>) -> tensor<1x11xf16>
    %_7 = "stablehlo.convert"(%_6) : (tensor<1x11xf16>) -> tensor<1x11xbf16>
    "func.return"(%_7) : (tensor<1x11xbf16>) -> ()
  }) {function_type = (tensor<1xf16>, tensor<4x14x1x33xui16>) -> tensor<1x11xbf16>, sym_name = "main"} : () -> ()
}
