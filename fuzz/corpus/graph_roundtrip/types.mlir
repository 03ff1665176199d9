func.func @main(%a: tensor<?x3xf32>, %b: tensor<*xf32>, %c: tensor<?xf32, #stablehlo.bounds<4>>, %t: !stablehlo.token, %u: tuple<tensor<f32>, tuple<!stablehlo.token>>) {
  return
}
