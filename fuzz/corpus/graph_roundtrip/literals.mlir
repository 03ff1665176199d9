func.func @main() {
  %0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xui8>
  %1 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %2 = stablehlo.constant dense<[-8, 7]> : tensor<2xi4>
  %3 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %4 = stablehlo.constant dense<[0x7FC00000, -0.0]> : tensor<2xf32>
  %5 = stablehlo.constant dense<1.1> : tensor<3xbf16>
  %6 = stablehlo.constant dense<[(1.0, -2.0)]> : tensor<1xcomplex<f32>>
  return
}
