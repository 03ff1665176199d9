%c = stablehlo.constant dense<1> : tensor<i64>
func.func @f() {
  %c = stablehlo.constant dense<2> : tensor<i64>
  return
}
