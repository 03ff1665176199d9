// diff_fuzz: mode=compiled cores=0 inputs=10369
// found with --seed 10369: run-error on trn2: kernel fusion(dot_general,multiply) (stablehlo.dot_general) on trn2:
// stablehlo.multiply: operand not available in the kernel (the scalar case).
module {
  "func.func"() ({
  ^bb0(%c5: tensor<f32>):
    %_1 = "stablehlo.dot_general"(%c5, %c5) {dot_dimension_numbers = #stablehlo.dot<>} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %_2 = "stablehlo.multiply"(%c5, %_1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%_2) : (tensor<f32>) -> ()
  }) {function_type = (tensor<f32>) -> tensor<f32>, sym_name = "main"} : () -> ()
}
