func.func @main() {
  %0 = stablehlo.constant dense<"0x0G000000"> : tensor<i32>
  return
}
