// diff_fuzz: mode=compiled cores=0 inputs=100
// found with --seed 100: run-error on trn2: kernel digamma (chlo.digamma): more than 96 scratchpad buffers.  A tensor
// that is one tile makes the whole elementwise kernel resident (hoisted before the tiles), and residents each took
// a buffer of their own; residents that only hoisted instructions read now share buffers (k_elem.c alloc_buffers).
module {
  "func.func"() ({
  ^bb0(%a0: tensor<1x13x7xbf16>, %a1: tensor<3x4x4x3xui8>):
    %_2 = "stablehlo.reverse"(%a0) {dimensions = array<i64: 0, 1>} : (tensor<1x13x7xbf16>) -> tensor<1x13x7xbf16>
    %_3 = "chlo.digamma"(%a0) : (tensor<1x13x7xbf16>) -> tensor<1x13x7xbf16>
    "func.return"(%_3, %_2) : (tensor<1x13x7xbf16>, tensor<1x13x7xbf16>) -> ()
  }) {function_type = (tensor<1x13x7xbf16>, tensor<3x4x4x3xui8>) -> (tensor<1x13x7xbf16>, tensor<1x13x7xbf16>), sym_name = "main"} : () -> ()
}
