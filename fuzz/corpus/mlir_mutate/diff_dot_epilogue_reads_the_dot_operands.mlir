// diff_fuzz: mode=compiled cores=0 inputs=1
// found with --seed 10369 (as a scalar dot): run-error on trn2 and tpu-v5e: kernel fusion(dot_general,multiply):
// stablehlo.multiply: operand not available in the kernel.  An epilogue that reads an operand of its dot
// (here the transposed %t and %b) did not get it as an input (compiler/k_dot.c).
func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = stablehlo.dot_general %t, %b, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = stablehlo.multiply %c, %t : tensor<64x64xf32>
  %e = stablehlo.add %d, %b : tensor<64x64xf32>
  return %e : tensor<64x64xf32>
}
