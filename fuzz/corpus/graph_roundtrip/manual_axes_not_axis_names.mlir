// mlir_mutate (issue 20): manual_axes holding a sharding list, not axis names: the printer read its
// items as strings (ASan: SEGV in graph_print_string). It now prints such an attribute as it is.
module {
  "func.func"() ({
  ^bb0(%c8: tensor<2x31x1xf16>):
    %_37 = "sdy.manual_computation"(%c8) ({
    ^bb0(%_34: tensor<2x31x1xf16>):
      %_35 = "stablehlo.constant"() {value = dense<[[[2], [128]]]> : tensor<1x2x1xf16>} : () -> tensor<1x2x1xf16>
      %_36 = "stablehlo.dot_general"(%_35, %_34) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [2], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<f8E5M2 HIGH>, #stablehlo<precision 0>]} : (tensor<1x2x1xf16>, tensor<2x31x1xf16>) -> tensor<1x1x31xf32>
      "sdy.return"(%_36) : (tensor<1x1x31xf32>) -> ()
    }) {function_type = #applies<[<@mesh, [{}, {}, {}]>]>, tensor = #sdy<manual_axes{"x", "y"}>, manual_axes = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : (tensor<2x31x1xf16>) -> tensor<1x1x31xf32>
  }) {function_type = (tensor<2x31x1xf16>) -> tensor<1x1x31xf32>, sym_name = "main"} : () -> ()
}
