// mlir_mutate (issue 20): a slice's result size as (limit - start + stride - 1) / stride
// overflowed int64 for stride 2^63 - 1 (UBSan); the verifier computes it without passing 2^63.
func.func @main(%x: tensor<30xf32>) -> tensor<1xf32> {
  %0 = "stablehlo.slice"(%x) {start_indices = array<i64: 9>, limit_indices = array<i64: 30>, strides = array<i64: 9223372036854775807>} : (tensor<30xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
