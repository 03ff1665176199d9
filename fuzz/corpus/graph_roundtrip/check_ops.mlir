func.func @main(%a: tensor<2xf32>) {
  check.expect_almost_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf32>, tolerance = 1.000000e-03
  check.expect_close %a, %a, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  %p = interpreter.probe %a, probe_id = "p0" : tensor<2xf32>
  check.expect_serialized_eq %p, probe_id = "p0", iter = 1 : tensor<2xf32>
  return
}
