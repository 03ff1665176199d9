func.func @main(%a: tensor<16xf32>) -> tensor<9xcomplex<f32>> {
  %0 = stablehlo.fft %a, type = RFFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
  return %0 : tensor<9xcomplex<f32>>
}
