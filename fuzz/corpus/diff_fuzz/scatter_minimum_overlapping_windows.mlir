// diff_fuzz: mode=compiled cores=0 inputs=2403417
// found with --seed 2403417: killed for memory (24 GB) during: run on trn2
// a minimum scatter of 130 overlapping 20 x 468 windows whose window dims precede a scatter dim went
// position by position (1.2 M read-modify-writes, one instruction program past the machine's memory);
// float maximum and minimum commute exactly, so the windows now go one by one (emitted: 130).
module {
  "sdy.mesh"() {mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"} : () -> ()
  "func.func"() ({
  ^bb0(%c3: tensor<20x473xbf16>, %c14: tensor<13x10x1xi64>, %c16: tensor<13x20x468x10xbf16>):
    %___10 = "sdy.manual_computation"(%c3, %c14, %c16) ({
    ^bb0(%_4: tensor<20x473xbf16>, %__3: tensor<13x10x1xi64>, %___5: tensor<13x20x468x10xbf16>):
      %___9 = "stablehlo.scatter"(%_4, %__3, %___5) ({
      ^bb0(%___6: tensor<bf16>, %___7: tensor<bf16>):
        %___8 = "stablehlo.minimum"(%___6, %___7) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%___8) : (tensor<bf16>) -> ()
      }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>} : (tensor<20x473xbf16>, tensor<13x10x1xi64>, tensor<13x20x468x10xbf16>) -> tensor<20x473xbf16>
      "sdy.return"(%___9) : (tensor<20x473xbf16>) -> ()
    }) {in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{}, {}, {}]>, <@mesh, [{}, {}, {}, {}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<20x473xbf16>, tensor<13x10x1xi64>, tensor<13x20x468x10xbf16>) -> tensor<20x473xbf16>
    "func.return"(%___10) : (tensor<20x473xbf16>) -> ()
  }) {function_type = (tensor<20x473xbf16>, tensor<13x10x1xi64>, tensor<13x20x468x10xbf16>) -> tensor<20x473xbf16>, sym_name = "main"} : () -> ()
}
