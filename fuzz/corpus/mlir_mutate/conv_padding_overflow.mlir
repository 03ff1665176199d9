// mlir_mutate (issue 20): a convolution's padded size lo + dilated input + hi overflowed int64
// for padding near -2^63 (UBSan); the verifier checks each step and refuses the op.
func.func @main(%x: tensor<1x8x1xf32>, %w: tensor<3x1x1xf32>) -> tensor<1x1x1xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, padding = dense<[[-9223372036854775806, -2147483648]]> : tensor<1x2xi64>} : (tensor<1x8x1xf32>, tensor<3x1x1xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}
