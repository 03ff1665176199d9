func.func @f(%a: tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tuple<tensor<f32>>>>>>>>>>>>>>>>>>) {
  return
}
