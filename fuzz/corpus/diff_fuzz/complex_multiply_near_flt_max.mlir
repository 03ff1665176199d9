// diff_fuzz: mode=compiled cores=0 inputs=1302457
// found with --seed 1302457: mismatch on trn2: output 0 (5x4x4xf32, got 5x4x4xf32): 1 element(s) beyond the bound (0 allowed), worst at 2: got -inf want -2.53420778e+38 (ratio inf, rtol 4.77e-07 atol 1.21e+32, max abs err 2.38e-07)
// a complex multiply of parts near FLT_MAX: the chips' f32 products overflow to -inf where the
// interpreter's doubles round to a finite value; a documented difference for the fuzzer (run.c).
module {
  "sdy.mesh"() {mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"} : () -> ()
  "func.func"() ({
  ^bb0(%a0: tensor<20x4x4xf32>, %c7: tensor<5x4x4xcomplex<f32>>):
    %_8 = "sdy.manual_computation"(%a0, %c7) ({
    ^bb0(%l0: tensor<5x4x4xf32>, %_3: tensor<5x4x4xcomplex<f32>>):
      %_4 = "stablehlo.complex"(%l0, %l0) : (tensor<5x4x4xf32>, tensor<5x4x4xf32>) -> tensor<5x4x4xcomplex<f32>>
      %_5 = "stablehlo.multiply"(%_4, %_3) : (tensor<5x4x4xcomplex<f32>>, tensor<5x4x4xcomplex<f32>>) -> tensor<5x4x4xcomplex<f32>>
      %_6 = "stablehlo.negate"(%_5) : (tensor<5x4x4xcomplex<f32>>) -> tensor<5x4x4xcomplex<f32>>
      %_7 = "stablehlo.imag"(%_6) : (tensor<5x4x4xcomplex<f32>>) -> tensor<5x4x4xf32>
      "sdy.return"(%_7) : (tensor<5x4x4xf32>) -> ()
    }) {in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>, <@mesh, [{}, {}, {}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : (tensor<20x4x4xf32>, tensor<5x4x4xcomplex<f32>>) -> tensor<5x4x4xf32>
    "func.return"(%_8) : (tensor<5x4x4xf32>) -> ()
  }) {function_type = (tensor<20x4x4xf32>, tensor<5x4x4xcomplex<f32>>) -> tensor<5x4x4xf32>, sym_name = "main"} : () -> ()
}
