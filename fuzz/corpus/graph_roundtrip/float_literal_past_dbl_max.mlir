// mlir_mutate (issue 20): index_vector_dim = 2.0e308 read as inf, printed bare as 'inf', read back as
// a word: print / re-parse was not equal. A decimal literal past the largest double is an error, as in MLIR.
// of: mode=compiled cores=0 inputs=3
// scatter indices.  Indices that are a bitcast view of a buffer of another f16 width (i32[n$ 7] read as
func.func @main(%x: tensor<16x8xf32>, %i: tensor<2xi32>, %j: tensor<3x2xi32>) -> (tensor<4x8xf32>, tensor<f64>) {
  %s = stablehlo.bitcast_convert %i : (tensor<2xi32>) -> tensor<i64>
  %z = stablehlo.constant dense<0> : tensor<i64>
  %d = stablehlo.dynamic_slice %x, %s, %z, sizes = [4, 1] : (tensor<16x8xf32>, tensor<i64>, tensor<i64>) -> tensor<4x8xf32>
  %g = stablehlo.bitcast_convert %j : (tensor<3x2xi32>) -> tensor<3xi64>
  %g2 = stablehlo.reshape %g : (tensor<3xi64>) -> tensor<3x1xi64>
  %r = "stablehlo.gather"(%x, %g2) {r = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [255], index_vector_dim = 2.0e308>, slice_sizes = array<i64: 0x7FC00000, 8>} : (tensor<16x8xf32>, tensor<3x1xi64>) -> tensor<3x8xf32>
  return %d, %r : tensor<4x8xf32>, tensor<3x8xf32>
  return %d, %r : tensor<4x8xf32>, tensor<3x8xf32>
  return %d, %r : tensor<4x8xf32>, tensor<3x8xf32>
// scatter indices.  Indices that are a bitcast view of a buffer of another f16 width (i32[n$ 7] read as
}
