func.func @main(%a: tensor<5x3xf32>) -> (tensor<5x2xf32>, tensor<5x2xi32>) {
  %v, %i = chlo.top_k(%a, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
  return %v, %i : tensor<5x2xf32>, tensor<5x2xi32>
}
