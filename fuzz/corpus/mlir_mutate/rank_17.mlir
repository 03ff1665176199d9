func.func @main(%a: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) {
  return
}
