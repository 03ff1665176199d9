// diff_fuzz: mode=compiled cores=0 inputs=10693
// found with --seed 10693: mismatch on trn2: output 0 (4x1x2xbf16): got nan want 1.3359375.  The vector engines' max
// and min gave a canonical +NaN, the interpreter the NaN operand itself (here -NaN from log of a negative):
// top_k (on the host, in total order) then ranked the clamped values differently (sim/exec_elem.c fmax_nan).
module {
  "func.func"() ({
  ^bb0(%a0: tensor<4x1x7xbf16>, %c12: tensor<4x1x2xi1>, %c16: tensor<bf16>):
    %_3 = "stablehlo.log"(%a0) : (tensor<4x1x7xbf16>) -> tensor<4x1x7xbf16>
    %_4 = "stablehlo.clamp"(%c16, %_3, %c16) : (tensor<bf16>, tensor<4x1x7xbf16>, tensor<bf16>) -> tensor<4x1x7xbf16>
    %_5, %_6 = "chlo.top_k"(%_4) {k = 2 : i64} : (tensor<4x1x7xbf16>) -> (tensor<4x1x2xbf16>, tensor<4x1x2xi32>)
    %_7 = "stablehlo.select"(%c12, %_5, %_5) : (tensor<4x1x2xi1>, tensor<4x1x2xbf16>, tensor<4x1x2xbf16>) -> tensor<4x1x2xbf16>
    "func.return"(%_7) : (tensor<4x1x2xbf16>) -> ()
  }) {function_type = (tensor<4x1x7xbf16>, tensor<4x1x2xi1>, tensor<bf16>) -> tensor<4x1x2xbf16>, sym_name = "main"} : () -> ()
}
