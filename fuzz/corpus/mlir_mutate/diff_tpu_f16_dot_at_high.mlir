// diff_fuzz: mode=compiled cores=0 inputs=3189
// found with --seed 3189: mismatch on tpu-v5e: output 0 (1x1x31xf32): got -28.3198242 want -28.3200989 (ratio 1.57,
// rtol 8.14e-07).  An f16 dot asking for HIGH runs 3 bf16 passes on a TPU; the tolerance counted no pass error
// for f16 operands, and took the plan's default (HIGHEST) over the op's HIGH (runtime/runtime.c f32_dot_eps,
// now cc_plan_op_precision).
module {
  "sdy.mesh"() {mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"} : () -> ()
  "func.func"() ({
  ^bb0(%c8: tensor<2x31x1xf16>):
    %_37 = "sdy.manual_computation"(%c8) ({
    ^bb0(%_34: tensor<2x31x1xf16>):
      %_35 = "stablehlo.constant"() {value = dense<[[[0.260254], [-0.722168]]]> : tensor<1x2x1xf16>} : () -> tensor<1x2x1xf16>
      %_36 = "stablehlo.dot_general"(%_35, %_34) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [2], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGH>, #stablehlo<precision HIGH>]} : (tensor<1x2x1xf16>, tensor<2x31x1xf16>) -> tensor<1x1x31xf32>
      "sdy.return"(%_36) : (tensor<1x1x31xf32>) -> ()
    }) {in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : (tensor<2x31x1xf16>) -> tensor<1x1x31xf32>
    "func.return"(%_37) : (tensor<1x1x31xf32>) -> ()
  }) {function_type = (tensor<2x31x1xf16>) -> tensor<1x1x31xf32>, sym_name = "main"} : () -> ()
}
