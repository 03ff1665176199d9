func.func @main() {
  %i = stablehlo.constant dense<0> : tensor<i64>
  %r = stablehlo.while(%iterArg = %i) : tensor<i64>
  cond {
    %t = stablehlo.constant dense<10> : tensor<i64>
    %c = stablehlo.compare LT, %iterArg, %t, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %o = stablehlo.constant dense<1> : tensor<i64>
    %n = stablehlo.add %iterArg, %o : tensor<i64>
    stablehlo.return %n : tensor<i64>
  }
  check.expect_eq_const %r, dense<10> : tensor<i64>
  func.return
}
