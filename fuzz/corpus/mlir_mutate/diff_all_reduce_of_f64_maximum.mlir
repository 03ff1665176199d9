// diff_fuzz: mode=compiled cores=0 inputs=2138
// found with --seed 2138: compile-error on trn2: stablehlo.all_reduce is not lowered for trn2: the body op
// is not add, multiply, maximum, minimum, and, or or xor on f32/bf16/f16/fp8/integers.  A collective's
// values are the interpreter's (the runtime evaluates it), so an f64 maximum all_reduce runs.
module {
  "sdy.mesh"() {mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"} : () -> ()
  "func.func"() ({
  ^bb0(%c2: tensor<f64>):
    %_23 = "sdy.manual_computation"(%c2) ({
    ^bb0(%_18: tensor<f64>):
      %_22 = "stablehlo.all_reduce"(%_18) ({
      ^bb0(%_19: tensor<f64>, %_20: tensor<f64>):
        %_21 = "stablehlo.maximum"(%_19, %_20) : (tensor<f64>, tensor<f64>) -> tensor<f64>
        "stablehlo.return"(%_21) : (tensor<f64>) -> ()
      }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[3, 1, 2, 0]]> : tensor<1x4xi64>} : (tensor<f64>) -> tensor<f64>
      "sdy.return"(%_22) : (tensor<f64>) -> ()
    }) {in_shardings = #sdy.sharding_per_value<[<@mesh, []>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, []>]>} : (tensor<f64>) -> tensor<f64>
    "func.return"(%_23) : (tensor<f64>) -> ()
  }) {function_type = (tensor<f64>) -> tensor<f64>, sym_name = "main"} : () -> ()
}
