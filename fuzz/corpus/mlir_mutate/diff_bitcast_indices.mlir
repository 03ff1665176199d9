// diff_fuzz: mode=compiled cores=0 inputs=3
// found with --seed 22428 (a scatter; the same for dynamic_slice and gather): run-error on trn2: cannot read the
// scatter indices.  Indices that are a bitcast view of a buffer of another element width (i32[n, 2] read as
// i64[n]) were refused when the runtime handed their bytes to the kernel (compiler/k_index.c dyn_at).
func.func @main(%x: tensor<16x8xf32>, %i: tensor<2xi32>, %j: tensor<3x2xi32>) -> (tensor<4x8xf32>, tensor<3x8xf32>) {
  %s = stablehlo.bitcast_convert %i : (tensor<2xi32>) -> tensor<i64>
  %z = stablehlo.constant dense<0> : tensor<i64>
  %d = stablehlo.dynamic_slice %x, %s, %z, sizes = [4, 8] : (tensor<16x8xf32>, tensor<i64>, tensor<i64>) -> tensor<4x8xf32>
  %g = stablehlo.bitcast_convert %j : (tensor<3x2xi32>) -> tensor<3xi64>
  %g2 = stablehlo.reshape %g : (tensor<3xi64>) -> tensor<3x1xi64>
  %r = "stablehlo.gather"(%x, %g2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>} : (tensor<16x8xf32>, tensor<3x1xi64>) -> tensor<3x8xf32>
  return %d, %r : tensor<4x8xf32>, tensor<3x8xf32>
}
