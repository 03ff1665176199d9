// diff_fuzz: mode=eager cores=0 inputs=817759
// found with --seed 817759: mismatch on trn2: output 0 (11x13xf16, got 11x13xf16): 3 element(s) beyond the bound (0 allowed), worst at 16: got inf want 65504 (ratio inf, rtol 0.0176 atol 1.15e+03, max abs err 0.0625)
// an f16 sum reaching 65504 is inf on chip (f32 chunks rounded once) and 65504 in the interpreter
// (rounded per step): inputs near the type's largest value and a sum count as a documented difference.
module {
  "func.func"() ({
  ^bb0(%a5: tensor<7x7x11x13xf16>):
    %_1 = "stablehlo.abs"(%a5) : (tensor<7x7x11x13xf16>) -> tensor<7x7x11x13xf16>
    %_2 = "stablehlo.constant"() {value = dense<0.0> : tensor<f16>} : () -> tensor<f16>
    %_6 = "stablehlo.reduce"(%_1, %_2) ({
    ^bb0(%_3: tensor<f16>, %_4: tensor<f16>):
      %_5 = "stablehlo.add"(%_3, %_4) : (tensor<f16>, tensor<f16>) -> tensor<f16>
      "stablehlo.return"(%_5) : (tensor<f16>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<7x7x11x13xf16>, tensor<f16>) -> tensor<11x13xf16>
    "func.return"(%_6) : (tensor<11x13xf16>) -> ()
  }) {function_type = (tensor<7x7x11x13xf16>) -> tensor<11x13xf16>, sym_name = "main"} : () -> ()
}
