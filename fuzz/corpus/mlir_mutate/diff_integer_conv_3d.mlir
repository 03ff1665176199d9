// diff_fuzz: mode=compiled cores=0 inputs=198
// found with --seed 198: run-error on trn2: kernel convolution: integer sums over more than 3 moving dims.  An
// integer 3-D convolution's moving rows (batch and three spatial dims) take one DMA per outer index when they
// need more dims than an access pattern has (compiler/k_dot.c run_int).
module {
  "func.func"() ({
  ^bb0(%c14: tensor<2x4x8x2x26xi8>, %c20: tensor<4x2x2x13x14xi8>):
    %_2 = "stablehlo.convolution"(%c14, %c20) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f]>, feature_group_count = 2 : i64, lhs_dilation = array<i64: 2, 2, 1>, padding = dense<[[0, 0], [1, 0], [0, 2]]> : tensor<3x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x8x2x26xi8>, tensor<4x2x2x13x14xi8>) -> tensor<2x4x15x3x14xi32>
    "func.return"(%_2) : (tensor<2x4x15x3x14xi32>) -> ()
  }) {function_type = (tensor<2x4x8x2x26xi8>, tensor<4x2x2x13x14xi8>) -> tensor<2x4x15x3x14xi32>, sym_name = "main"} : () -> ()
}
