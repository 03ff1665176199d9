#loc1 = loc("x")
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.1:3>>) {
  return loc(fused[#loc1, callsite("a" at "b":1:2)])
} loc(#loc1)
