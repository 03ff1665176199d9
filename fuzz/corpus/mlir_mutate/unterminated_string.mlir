func.func @main() {
  %0 = stablehlo.constant dense<"0x0100> : tensor<i32>
