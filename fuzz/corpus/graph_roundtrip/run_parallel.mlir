func.func @main(%a: tensor<2xi64>) -> tensor<2x4xi64> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@f], [@f]]} : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2x4xi64>, tensor<2x4xi64>)
  return %0#1 : tensor<2x4xi64>
}
