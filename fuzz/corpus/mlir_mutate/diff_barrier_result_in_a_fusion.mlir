// diff_fuzz: mode=compiled cores=0 inputs=64
// found with --seed 64: run-error on trn2: kernel fusion(popcnt,subtract) (stablehlo.subtract) on trn2:
// stablehlo.subtract: operand not available in the kernel.  The subtract joined popcnt's kernel through the
// optimization_barrier's result, which the kernel does not know (compiler/compile.c can_join).
module {
  "func.func"() ({
  ^bb0(%c9: tensor<i8>):
    %_1 = "stablehlo.popcnt"(%c9) : (tensor<i8>) -> tensor<i8>
    %_2 = "stablehlo.optimization_barrier"(%_1) : (tensor<i8>) -> tensor<i8>
    %_3 = "stablehlo.subtract"(%_2, %_2) : (tensor<i8>, tensor<i8>) -> tensor<i8>
    "func.return"(%_3) : (tensor<i8>) -> ()
  }) {function_type = (tensor<i8>) -> tensor<i8>, sym_name = "main"} : () -> ()
}
