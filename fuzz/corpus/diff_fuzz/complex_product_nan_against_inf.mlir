// diff_fuzz: mode=compiled cores=2 inputs=2127340
// found with --seed 2127340: mismatch on trn2: output 0 (1x4x7x6xf32, got 1x4x7x6xf32): 1 element(s) beyond the bound (0 allowed), worst at 134: got nan want inf (ratio inf, rtol 4.77e-07 atol 6.47e+05, max abs err 1.31e+05)
// z conj(z) of a value past 1.8e19: its f32 parts overflow, the imaginary one inf - inf = NaN where doubles
// give 0; abs of the product is NaN on chip, inf in the interpreter: a documented difference.
module {
  "func.func"() ({
  ^bb0(%a3: tensor<1x4x7x6xf32>, %c5: tensor<1x4x7x6xcomplex<f32>>):
    %_2 = "stablehlo.complex"(%a3, %a3) : (tensor<1x4x7x6xf32>, tensor<1x4x7x6xf32>) -> tensor<1x4x7x6xcomplex<f32>>
    %_3 = "chlo.conj"(%_2) : (tensor<1x4x7x6xcomplex<f32>>) -> tensor<1x4x7x6xcomplex<f32>>
    %_4 = "stablehlo.multiply"(%_2, %_3) : (tensor<1x4x7x6xcomplex<f32>>, tensor<1x4x7x6xcomplex<f32>>) -> tensor<1x4x7x6xcomplex<f32>>
    %_5 = "stablehlo.multiply"(%_4, %c5) : (tensor<1x4x7x6xcomplex<f32>>, tensor<1x4x7x6xcomplex<f32>>) -> tensor<1x4x7x6xcomplex<f32>>
    %_6 = "stablehlo.abs"(%_5) : (tensor<1x4x7x6xcomplex<f32>>) -> tensor<1x4x7x6xf32>
    "func.return"(%_6) : (tensor<1x4x7x6xf32>) -> ()
  }) {function_type = (tensor<1x4x7x6xf32>, tensor<1x4x7x6xcomplex<f32>>) -> tensor<1x4x7x6xf32>, sym_name = "main"} : () -> ()
}
