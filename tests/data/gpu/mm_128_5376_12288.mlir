func.func public @main(%a: tensor<128x5376xbf16>, %b: tensor<5376x12288xbf16>) -> tensor<128x12288xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<128x5376xbf16>, tensor<5376x12288xbf16>) -> tensor<128x12288xbf16>
  return %0 : tensor<128x12288xbf16>
}
