func.func @main(%a: tensor<3x4xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.slice %a [1:3, 0:4:2] : (tensor<3x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
