func.func @main(%a: tensor<2xf32>) {
  %0 = "tensor.cast"(%a) : (tensor<2xf32>) -> tensor<?xf32>
  return
}
