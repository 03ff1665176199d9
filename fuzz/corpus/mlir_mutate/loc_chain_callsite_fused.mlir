func.func @main(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<256x256xbf16> loc(#loc3)
  %e = stablehlo.exponential %c : tensor<256x256xbf16> loc("jit(f)/exp"("model.py":7:4))
  return %e : tensor<256x256xbf16>
}
#loc1 = loc("model.py":5:8)
#loc2 = loc("train.py":9:0)
#loc3 = loc("jit(f)/dot_general"(callsite("f"(#loc1) at "<module>"(#loc2))))
