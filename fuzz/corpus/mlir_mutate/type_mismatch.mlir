func.func @main(%a: tensor<f32>) -> tensor<f64> {
  %0 = stablehlo.add %a, %a : tensor<f64>
  return %0 : tensor<f64>
}
