func.func @main() {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  return %0 : tensor<f32>
