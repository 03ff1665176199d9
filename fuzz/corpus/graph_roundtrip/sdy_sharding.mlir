sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], replicated={"y"}>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}
