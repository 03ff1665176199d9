func.func public @main(%a: tensor<16x5376xbf16>, %b: tensor<5376x12288xbf16>) -> tensor<16x12288xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x5376xbf16>, tensor<5376x12288xbf16>) -> tensor<16x12288xbf16>
  return %0 : tensor<16x12288xbf16>
}
