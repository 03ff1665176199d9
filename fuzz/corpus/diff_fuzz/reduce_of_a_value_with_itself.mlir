// diff_fuzz: mode=compiled cores=2 inputs=201629
// found with --seed 201629: run-error on trn2: rt_run: check failed: fusion.tanh.reduce: error: core 1 vec instruction 1 (reduce): uninitialised read: src0 reads sp partitio
// A variadic reduce whose two inputs are the same fused value: both sinks were 'direct', so the prologue wrote
// only the last one and the reduce read the other uninitialised; a value two sinks take is now copied to each, and
// sink buffers live to the end of the tile (k_elem.c).
module {
  "func.func"() ({
  ^bb0(%a0: tensor<5x321xf32>):
    %_1 = "stablehlo.tanh"(%a0) : (tensor<5x321xf32>) -> tensor<5x321xf32>
    %_2 = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %_3 = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %_10, %_11 = "stablehlo.reduce"(%_1, %_1, %_2, %_3) ({
    ^bb0(%_4: tensor<f32>, %_5: tensor<f32>, %_6: tensor<f32>, %_7: tensor<f32>):
      %_8 = "stablehlo.add"(%_4, %_6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %_9 = "stablehlo.add"(%_5, %_7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%_8, %_9) : (tensor<f32>, tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<5x321xf32>, tensor<5x321xf32>, tensor<f32>, tensor<f32>) -> (tensor<321xf32>, tensor<321xf32>)
    "func.return"(%_11) : (tensor<321xf32>) -> ()
  }) {function_type = (tensor<5x321xf32>) -> tensor<321xf32>, sym_name = "main"} : () -> ()
}
