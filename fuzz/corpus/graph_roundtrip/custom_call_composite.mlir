func.func @main(%a: tensor<2xf32>) {
  %b = stablehlo.custom_call @foo(%a) {backend_config = "x", has_side_effect = true, api_version = 2 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  %c = stablehlo.composite "my.op" %a {composite_attributes = {k = 1 : i64}, decomposition = @dec, version = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  return
}
