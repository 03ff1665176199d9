func.func @forms(%i64: tensor<i64>, %i32: tensor<i32>, %f: tensor<3xf32>, %c: tensor<2xcomplex<f32>>, %m: tensor<4x4xi32>, %u: tensor<2x2xi32>, %t: tuple<tensor<2xf32>, tuple<tensor<i32>>>, %k: !stablehlo.token, %a33: tensor<3x3xf64>, %s: tensor<2xui64>, %d: tensor<?xf32>, %shape: tensor<2xindex>, %x: tensor<1xindex>) {
  %0 = stablehlo.iota dim = 0 : tensor<4x5xi32>
  %1 = stablehlo.dynamic_iota %x, dim = 0 : (tensor<1xindex>) -> tensor<4xi32>
  %2 = stablehlo.create_token : !stablehlo.token
  %3 = stablehlo.abs %m : tensor<4x4xi32>
  %4 = stablehlo.cbrt %f : tensor<3xf32>
  %5 = stablehlo.convert %m : (tensor<4x4xi32>) -> tensor<4x4xcomplex<f64>>
  %6 = stablehlo.count_leading_zeros %m : tensor<4x4xi32>
  %7 = stablehlo.imag %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %8 = stablehlo.is_finite %f : (tensor<3xf32>) -> tensor<3xi1>
  %9 = stablehlo.complex %7, %7 : tensor<2xcomplex<f32>>
  %10 = stablehlo.replica_id : tensor<ui32>
  %11 = stablehlo.partition_id : tensor<ui32>
  %12 = stablehlo.after_all %k, %2 : !stablehlo.token
  %13 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tensor<2xf32>
  %14 = stablehlo.tuple %13, %i32 : tuple<tensor<2xf32>, tensor<i32>>
  %15 = stablehlo.compare LT, %f, %f : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %16 = stablehlo.dynamic_slice %m, %i64, %i64, sizes = [2, 2] : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>
  %17 = stablehlo.dynamic_update_slice %m, %u, %i64, %i64 : (tensor<4x4xi32>, tensor<2x2xi32>, tensor<i64>, tensor<i64>) -> tensor<4x4xi32>
  %18 = stablehlo.broadcast %f, sizes = [1, 2] : (tensor<3xf32>) -> tensor<1x2x3xf32>
  %19 = stablehlo.cholesky %a33, lower = true : tensor<3x3xf64>
  %20 = stablehlo.clamp %i32, %m, %i32 : (tensor<i32>, tensor<4x4xi32>, tensor<i32>) -> tensor<4x4xi32>
  %21 = stablehlo.dot %m, %m, precision = [DEFAULT, DEFAULT] : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
  %22 = stablehlo.einsum %m, %m, config = "ab,bc->ac" : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
  %23 = stablehlo.fft %c, type = FFT, length = [2] : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  %24 = stablehlo.get_dimension_size %m, dim = 1 : (tensor<4x4xi32>) -> tensor<i32>
  %25 = stablehlo.set_dimension_size %m, %i32, dim = 1 : (tensor<4x4xi32>, tensor<i32>) -> tensor<4x4xi32>
  %26 = stablehlo.reverse %m, dims = [1] : tensor<4x4xi32>
  %27 = stablehlo.pad %u, %i32, low = [0, 1], high = [2, 1], interior = [1, 2] : (tensor<2x2xi32>, tensor<i32>) -> tensor<5x7xi32>
  %28:2 = stablehlo.optimization_barrier %f, %i32 : tensor<3xf32>, tensor<i32>
  stablehlo.optimization_barrier ()
  %29 = stablehlo.rng %i32, %i32, %shape, distribution = NORMAL : (tensor<i32>, tensor<i32>, tensor<2xindex>) -> tensor<3x3xi32>
  %30:2 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
  %31 = stablehlo.uniform_quantize %f : (tensor<3xf32>) -> tensor<3x!quant.uniform<ui8:f32, 34.0:16>>
  %32 = stablehlo.uniform_dequantize %31 : (tensor<3x!quant.uniform<ui8:f32, 34.0:16>>) -> tensor<3xf32>
  %33 = stablehlo.reduce_precision %f, format = e5m2 : tensor<3xf32>
  %34 = stablehlo.real_dynamic_slice %d, %x, %x, %x : (tensor<?xf32>, tensor<1xindex>, tensor<1xindex>, tensor<1xindex>) -> tensor<?xf32>
  %35 = stablehlo.dynamic_pad %d, %i32, %x, %x, %x : (tensor<?xf32>, tensor<i32>, tensor<1xindex>, tensor<1xindex>, tensor<1xindex>) -> tensor<?xf32>
  %36 = stablehlo.dynamic_reshape %d, %shape : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %37 = stablehlo.dynamic_broadcast_in_dim %d, %shape, dims = [1] : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %38 = stablehlo.composite "my_namespace.my_op" %f {composite_attributes = {my_attribute = "my_value"}, decomposition = @forms, version = 1 : i32} : (tensor<3xf32>) -> tensor<3xf32>
  %39 = stablehlo.custom_call @"quoted.target"(%f) {backend_config = "bar", called_computations = [@forms], api_version = 2 : i32} : (tensor<3xf32>) -> tensor<3xf32>
  %40 = stablehlo.tanh %f {result_accuracy = #stablehlo.result_accuracy<atol = 0.000000e+00, rtol = 0.000000e+00, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<3xf32>
  stablehlo.while() cond {
    %b = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %b : tensor<i1>
  } do {
    stablehlo.return
  }
  %42 = stablehlo.bitcast_convert %f : (tensor<3xf32>) -> tensor<3xi32>
  %43 = stablehlo.reshape %f : (tensor<3xf32>) -> tensor<1x3xf32>
  %44 = stablehlo.shift_left %m, %m : tensor<4x4xi32>
  %45 = stablehlo.select %15, %f, %f : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %46 = stablehlo.logistic %f : tensor<3xf32>
  %47 = chlo.lgamma %f : tensor<3xf32> -> tensor<3xf32>
  %48 = "stablehlo.case"(%i32) ({
    stablehlo.return %f : tensor<3xf32>
  }, {
    stablehlo.return %46 : tensor<3xf32>
  }) : (tensor<i32>) -> tensor<3xf32>
  %49 = "stablehlo.batch_norm_inference"(%a33, %f, %f, %f, %f) {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<3x3xf64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x3xf64>
  %50 = "stablehlo.send"(%f, %k) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true} : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  %51:2 = "stablehlo.recv"(%k) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)
  %52 = "stablehlo.collective_permute"(%f) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>} : (tensor<3xf32>) -> tensor<3xf32>
  %53 = "stablehlo.all_gather"(%f) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<3xf32>) -> tensor<6xf32>
  %54 = "stablehlo.triangular_solve"(%a33, %a33) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %55 = "stablehlo.reduce_window"(%f, %f) <{window_dimensions = array<i64: 2>, padding = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = stablehlo.maximum %p, %q : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %56 = "stablehlo.map"(%f, %f) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = stablehlo.multiply %p, %q : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {dimensions = dense<0> : tensor<1xi64>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}
