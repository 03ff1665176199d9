func.func @main() {
  %0 = stablehlo.constant dense<[0x7FC00000, -0.0, 1.5, inf]> : tensor<4xf32>
  %1 = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f64>>
  return
}
