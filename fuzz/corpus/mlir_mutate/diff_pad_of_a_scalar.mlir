// diff_fuzz: mode=compiled cores=0 inputs=2189
// found with --seed 2189: mismatch on trn2: output 0 (i32): got 0 want 7.  A pad of a rank-0 operand
// (no padding: the operand itself) wrote nothing: the tiling gives a scalar one dim of 1, the pad
// kernel walked its own rank 0 (compiler/k_move.c cc_emit_pad).
module {
  "func.func"() ({
  ^bb0(%c2: tensor<i32>, %c13: tensor<i32>):
    %_2 = "stablehlo.pad"(%c2, %c13) {edge_padding_high = array<i64>, edge_padding_low = array<i64>, interior_padding = array<i64>} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%_2) : (tensor<i32>) -> ()
  }) {function_type = (tensor<i32>, tensor<i32>) -> tensor<i32>, sym_name = "main"} : () -> ()
}
