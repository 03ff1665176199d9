module {
  func.func @f() {
    %c = stablehlo.constant dense<1> : tensor<i32> loc(#loc9)
    return
  }
}
