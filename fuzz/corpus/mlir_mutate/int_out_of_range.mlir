func.func @main() {
  %0 = stablehlo.constant dense<300> : tensor<i8>
  return
}
