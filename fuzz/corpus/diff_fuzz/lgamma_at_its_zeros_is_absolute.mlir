// diff_fuzz: mode=compiled cores=2 inputs=200428
// found with --seed 200428: mismatch on trn2: output 0 (7x5x8xbf16, got 7x5x8xbf16): 276 element(s) beyond the bound (0 allowed), worst at 0: got 4.76837158e-07 want 0 (rati
// lgamma(1) and lgamma(2) are 0 in the interpreter and ~5e-7 on chip: an output of zeros has no scale for a
// relative bound; the decompositions' absolute bound where they cross zero (2e-6) is now the tolerance's floor.
module {
  "func.func"() ({
  ^bb0(%c3: tensor<3x1x2x56xf32>, %c4: tensor<1xf32>, %c12: tensor<16x22xf32>, %c30: tensor<6x46x1xi64>):
    %_4 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %_5 = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %_29, %_30, %_31, %_32 = "stablehlo.while"(%_4, %c30, %c4, %c12) ({
    ^bb0(%_6: tensor<i32>, %_7: tensor<6x46x1xi64>, %_8: tensor<1xf32>, %_9: tensor<16x22xf32>):
      %_10 = "stablehlo.compare"(%_6, %_5) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%_10) : (tensor<i1>) -> ()
    }, {
    ^bb0(%_11: tensor<i32>, %_12: tensor<6x46x1xi64>, %_13: tensor<1xf32>, %_14: tensor<16x22xf32>):
      %_15 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      %_16 = "stablehlo.add"(%_11, %_15) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %_17 = "stablehlo.abs"(%_5) : (tensor<i32>) -> tensor<i32>
      %_18 = "stablehlo.convert"(%_16) : (tensor<i32>) -> tensor<i16>
      %_19 = "stablehlo.convert"(%c3) : (tensor<3x1x2x56xf32>) -> tensor<3x1x2x56xbf16>
      %_20 = "stablehlo.reshape"(%_19) : (tensor<3x1x2x56xbf16>) -> tensor<336xbf16>
      %_21 = "stablehlo.constant"() {value = dense<0.0> : tensor<bf16>} : () -> tensor<bf16>
      %_22 = "stablehlo.pad"(%_20, %_21) {edge_padding_high = array<i64: 5>, edge_padding_low = array<i64: 43>, interior_padding = array<i64: 0>} : (tensor<336xbf16>, tensor<bf16>) -> tensor<384xbf16>
      %_23 = "stablehlo.reshape"(%_22) : (tensor<384xbf16>) -> tensor<2x12x16xbf16>
      %_24 = "stablehlo.convert"(%_18) : (tensor<i16>) -> tensor<bf16>
      %_25 = "stablehlo.broadcast_in_dim"(%_24) {broadcast_dimensions = array<i64>} : (tensor<bf16>) -> tensor<2x16x3xbf16>
      %_26 = "stablehlo.dot_general"(%_23, %_25) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<2x12x16xbf16>, tensor<2x16x3xbf16>) -> tensor<2x12x3xbf16>
      %_27 = "stablehlo.convert"(%_17) : (tensor<i32>) -> tensor<i64>
      %_28 = "stablehlo.broadcast_in_dim"(%_27) {broadcast_dimensions = array<i64>} : (tensor<i64>) -> tensor<6x46x1xi64>
      "stablehlo.return"(%_16, %_28, %_13, %_14) : (tensor<i32>, tensor<6x46x1xi64>, tensor<1xf32>, tensor<16x22xf32>) -> ()
    }) : (tensor<i32>, tensor<6x46x1xi64>, tensor<1xf32>, tensor<16x22xf32>) -> (tensor<i32>, tensor<6x46x1xi64>, tensor<1xf32>, tensor<16x22xf32>)
    %_33 = "stablehlo.convert"(%_30) : (tensor<6x46x1xi64>) -> tensor<6x46x1xbf16>
    %_34 = "stablehlo.reshape"(%_33) : (tensor<6x46x1xbf16>) -> tensor<276xbf16>
    %_35 = "stablehlo.constant"() {value = dense<0.0> : tensor<bf16>} : () -> tensor<bf16>
    %_36 = "stablehlo.pad"(%_34, %_35) {edge_padding_high = array<i64: 4>, edge_padding_low = array<i64: 0>, interior_padding = array<i64: 0>} : (tensor<276xbf16>, tensor<bf16>) -> tensor<280xbf16>
    %_37 = "stablehlo.reshape"(%_36) : (tensor<280xbf16>) -> tensor<7x5x8xbf16>
    %_38 = "stablehlo.reduce_precision"(%_37) {exponent_bits = 2 : i32, mantissa_bits = 10 : i32} : (tensor<7x5x8xbf16>) -> tensor<7x5x8xbf16>
    %_39 = "chlo.lgamma"(%_38) : (tensor<7x5x8xbf16>) -> tensor<7x5x8xbf16>
    "func.return"(%_39) : (tensor<7x5x8xbf16>) -> ()
  }) {function_type = (tensor<3x1x2x56xf32>, tensor<1xf32>, tensor<16x22xf32>, tensor<6x46x1xi64>) -> tensor<7x5x8xbf16>, sym_name = "main"} : () -> ()
}
