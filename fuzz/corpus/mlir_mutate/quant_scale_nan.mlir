#loc1 = loc("x")
func.func @inf(%a: tensor<2x!quant.uniform<i8:f32, nan:64>>) {
} loc(#loc1)
