// diff_fuzz: mode=compiled cores=0 inputs=11470
// found with --seed 11470: run-error on trn2: kernel fusion(iota,abs,reduce): scratchpad: 2 x 26432 bytes per partition
// do not fit.  The size estimate of a fused prologue counted an iota's scratch tile (4-byte elements at least) as
// its own element size, so a reduction to one value took a chunk too long (compiler/k_elem.c buffer_bytes).
module {
  "func.func"() ({
    %_0 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<22x24x25xbf16>
    %_1 = "stablehlo.abs"(%_0) : (tensor<22x24x25xbf16>) -> tensor<22x24x25xbf16>
    %_2 = "stablehlo.constant"() {value = dense<0xFF80> : tensor<bf16>} : () -> tensor<bf16>
    %_6 = "stablehlo.reduce"(%_1, %_2) ({
    ^bb0(%_3: tensor<bf16>, %_4: tensor<bf16>):
      %_5 = "stablehlo.maximum"(%_3, %_4) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
      "stablehlo.return"(%_5) : (tensor<bf16>) -> ()
    }) {dimensions = array<i64: 0, 1, 2>} : (tensor<22x24x25xbf16>, tensor<bf16>) -> tensor<bf16>
    "func.return"(%_6) : (tensor<bf16>) -> ()
  }) {function_type = () -> tensor<bf16>, sym_name = "main"} : () -> ()
}
