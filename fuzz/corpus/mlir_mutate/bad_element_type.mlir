func.func @main(%a: tensor<2xfoo>) {
  return
}
