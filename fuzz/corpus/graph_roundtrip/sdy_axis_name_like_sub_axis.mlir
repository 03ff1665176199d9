sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}], replicated={"y:(1)2", "x":(2)2}>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}
