func.func @main(%a: tensor<f32>) {
  %0 = arith.addf %a, %a : tensor<f32>
  return
}
