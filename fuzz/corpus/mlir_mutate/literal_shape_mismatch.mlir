func.func @main() {
  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<2xi32>
  return
}
