// diff_fuzz: mode=compiled cores=0 inputs=22428
// found with --seed 22428: run-error on trn2: kernel scatter: cannot read the scatter indices (bitcast i32 -> i64
// indices; compiler/k_index.c dyn_at).
module {
  "func.func"() ({
  ^bb0(%c6: tensor<1x9x8xf32>, %c14: tensor<9x8xf32>, %c17: tensor<2x2xi32>):
    %_3 = "stablehlo.bitcast_convert"(%c17) : (tensor<2x2xi32>) -> tensor<2xi64>
    %_7 = "stablehlo.scatter"(%c6, %_3, %c14) ({
    ^bb0(%_4: tensor<f32>, %_5: tensor<f32>):
      %_6 = "stablehlo.maximum"(%_4, %_5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%_6) : (tensor<f32>) -> ()
    }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 0>} : (tensor<1x9x8xf32>, tensor<2xi64>, tensor<9x8xf32>) -> tensor<1x9x8xf32>
    "func.return"(%_7) : (tensor<1x9x8xf32>) -> ()
  }) {function_type = (tensor<1x9x8xf32>, tensor<9x8xf32>, tensor<2x2xi32>) -> tensor<1x9x8xf32>, sym_name = "main"} : () -> ()
}
