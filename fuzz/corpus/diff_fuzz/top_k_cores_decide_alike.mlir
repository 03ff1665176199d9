// diff_fuzz: mode=eager cores=0 inputs=507954
// found with --seed 507954: run-error on trn2: rt_run: check failed: top_k: error: core 4 dma0 instruction 5 (dma): race: writes dst while core 1 dma1 instruction 0 (dma) writes dst, both touching hb
// A top_k whose cores took different ways: a core of fewer rows chose the segmented emission, one of more the
// tiled one, which split the rows differently, so two cores wrote the same row; every core now decides by the
// largest share (k_sort.c).
module {
  "func.func"() ({
  ^bb0(%c37: tensor<13x4x5x26xi32>):
    %_1, %_2 = "chlo.top_k"(%c37) {k = 2 : i64} : (tensor<13x4x5x26xi32>) -> (tensor<13x4x5x2xi32>, tensor<13x4x5x2xi32>)
    "func.return"(%_2) : (tensor<13x4x5x2xi32>) -> ()
  }) {function_type = (tensor<13x4x5x26xi32>) -> tensor<13x4x5x2xi32>, sym_name = "main"} : () -> ()
}
