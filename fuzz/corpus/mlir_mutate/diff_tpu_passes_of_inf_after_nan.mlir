// diff_fuzz: mode=compiled cores=0 inputs=1
// found with --seed 10229 (a grouped f32 convolution, tpu-v5e): got -nan want -inf.  The check for non-finite
// operands of the TPU passes (sim/exec_matmul.c max_abs) lost an inf once a NaN followed it and a finite
// value followed the NaN, and the passes turned -inf x y into NaN.
func.func @main(%y: tensor<4x3xf32>) -> tensor<3x3xf32> {
  %x = stablehlo.constant dense<[[0xFF800000, 1.0, 2.0, 3.0], [1.0, 0x7FC00000, 1.0, 1.0], [65536.0, 2.0, 0.5, 1.0]]> : tensor<3x4xf32>
  %w = stablehlo.constant dense<[[1.5, 0x7F800000, 2.0], [0x7FC00000, 1.0, 1.0], [65536.0, 2.0, 0.25], [1.0, 1.0, 1.0]]> : tensor<4x3xf32>
  %s = stablehlo.add %w, %y : tensor<4x3xf32>
  %r = stablehlo.dot_general %x, %s, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
