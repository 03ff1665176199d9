// diff_fuzz: mode=compiled cores=2 inputs=818521
// found with --seed 818521: mismatch on tpu-v5e: output 0 (24x17x32xf32, got 24x17x32xf32): 2352 element(s) beyond the bound (0 allowed), worst at 3: got 0 want 1.12103877e-44 (ratio 2.47e+05, rtol 2.02e-06 atol 2.27e-50, max abs err 1.12e-44)
// a TPU's f32 matmul (bf16 passes) flushed a subnormal product to 0 in an output of subnormals only:
// the check's atol is now at least the type's smallest normal.
module {
  "sdy.mesh"() {mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"} : () -> ()
  "func.func"() ({
  ^bb0(%_0: tensor<360xf32>, %_1: tensor<16x13x21xf16>, %_2: tensor<168xui8>):
    %_3 = "stablehlo.slice"(%_2) {limit_indices = array<i64: 7>, start_indices = array<i64: 6>, strides = array<i64: 1>} : (tensor<168xui8>) -> tensor<1xui8>
    %_4 = "stablehlo.reshape"(%_1) : (tensor<16x13x21xf16>) -> tensor<4368xf16>
    %_5 = "stablehlo.slice"(%_4) {limit_indices = array<i64: 3892>, start_indices = array<i64: 3877>, strides = array<i64: 2>} : (tensor<4368xf16>) -> tensor<8xf16>
    %_6 = "stablehlo.convert"(%_5) : (tensor<8xf16>) -> tensor<8xui8>
    %_7 = "stablehlo.concatenate"(%_2, %_3, %_6) {dimension = 0 : i64} : (tensor<168xui8>, tensor<1xui8>, tensor<8xui8>) -> tensor<177xui8>
    %_8 = "stablehlo.convert"(%_2) : (tensor<168xui8>) -> tensor<168xf16>
    %_9 = "stablehlo.constant"() {value = dense<0.0> : tensor<f16>} : () -> tensor<f16>
    %_10 = "stablehlo.pad"(%_8, %_9) {edge_padding_high = array<i64: 75>, edge_padding_low = array<i64: 52>, interior_padding = array<i64: 1>} : (tensor<168xf16>, tensor<f16>) -> tensor<462xf16>
    %_11 = "stablehlo.reshape"(%_10) : (tensor<462xf16>) -> tensor<6x7x11xf16>
    "func.return"(%_11) : (tensor<6x7x11xf16>) -> ()
  }) {function_type = (tensor<360xf32>, tensor<16x13x21xf16>, tensor<168xui8>) -> tensor<6x7x11xf16>, sym_name = "f0", sym_visibility = "private"} : () -> ()
  "func.func"() ({
  ^bb0(%_12: tensor<51x1x17xf32>):
    %_13 = "stablehlo.multiply"(%_12, %_12) : (tensor<51x1x17xf32>, tensor<51x1x17xf32>) -> tensor<51x1x17xf32>
    %_14 = "stablehlo.reshape"(%_13) : (tensor<51x1x17xf32>) -> tensor<867xf32>
    %_15 = "stablehlo.slice"(%_14) {limit_indices = array<i64: 380>, start_indices = array<i64: 379>, strides = array<i64: 2>} : (tensor<867xf32>) -> tensor<1xf32>
    %_16 = "stablehlo.reshape"(%_15) : (tensor<1xf32>) -> tensor<f32>
    %_17 = "stablehlo.pad"(%_13, %_16) {edge_padding_high = array<i64: -3, 2, 0>, edge_padding_low = array<i64: 0, 0, 0>, interior_padding = array<i64: 0, 0, 0>} : (tensor<51x1x17xf32>, tensor<f32>) -> tensor<48x3x17xf32>
    %_18 = "stablehlo.slice"(%_14) {limit_indices = array<i64: 612>, start_indices = array<i64: 601>, strides = array<i64: 1>} : (tensor<867xf32>) -> tensor<11xf32>
    "func.return"(%_18) : (tensor<11xf32>) -> ()
  }) {function_type = (tensor<51x1x17xf32>) -> tensor<11xf32>, sym_name = "f1", sym_visibility = "private"} : () -> ()
  "func.func"() ({
  ^bb0(%a0: tensor<112x2xi64>, %a1: tensor<20x21x13xi32>, %a2: tensor<21x340x1xi8>, %a3: tensor<f32>, %a4: tensor<24x1x5x1xi32>):
    %_78, %_79, %_80, %_81, %_82, %_83, %_84 = "sdy.manual_computation"(%a0, %a1, %a2, %a3, %a4) ({
    ^bb0(%l0: tensor<28x2xi64>, %l1: tensor<20x21x13xi32>, %l2: tensor<21x85x1xi8>, %l3: tensor<f32>, %l4: tensor<6x1x5x1xi32>):
      %_29 = "stablehlo.reshape"(%l4) : (tensor<6x1x5x1xi32>) -> tensor<30xi32>
      %_30 = "stablehlo.reshape"(%l2) : (tensor<21x85x1xi8>) -> tensor<1785xi8>
      %_31 = "stablehlo.slice"(%_30) {limit_indices = array<i64: 1566>, start_indices = array<i64: 1565>, strides = array<i64: 1>} : (tensor<1785xi8>) -> tensor<1xi8>
      %_32 = "stablehlo.reshape"(%_31) : (tensor<1xi8>) -> tensor<i8>
      %_33 = "stablehlo.convert"(%_32) : (tensor<i8>) -> tensor<i1>
      %_34 = "stablehlo.convert"(%_33) : (tensor<i1>) -> tensor<i64>
      %_35 = "stablehlo.broadcast_in_dim"(%_34) {broadcast_dimensions = array<i64>} : (tensor<i64>) -> tensor<28x2xi64>
      %_36 = "stablehlo.select"(%_33, %l0, %_35) : (tensor<i1>, tensor<28x2xi64>, tensor<28x2xi64>) -> tensor<28x2xi64>
      %_37 = "stablehlo.subtract"(%l3, %l3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %_38 = "stablehlo.convert"(%l1) : (tensor<20x21x13xi32>) -> tensor<20x21x13xi1>
      %_39 = "stablehlo.select"(%_38, %l1, %l1) : (tensor<20x21x13xi1>, tensor<20x21x13xi32>, tensor<20x21x13xi32>) -> tensor<20x21x13xi32>
      %_40 = "stablehlo.slice"(%_30) {limit_indices = array<i64: 881>, start_indices = array<i64: 0>, strides = array<i64: 3>} : (tensor<1785xi8>) -> tensor<294xi8>
      %_41 = "stablehlo.divide"(%_40, %_40) : (tensor<294xi8>, tensor<294xi8>) -> tensor<294xi8>
      %_42 = "stablehlo.bitcast_convert"(%_36) : (tensor<28x2xi64>) -> tensor<28x2x2xf32>
      %_43 = "stablehlo.slice"(%_30) {limit_indices = array<i64: 849>, start_indices = array<i64: 848>, strides = array<i64: 2>} : (tensor<1785xi8>) -> tensor<1xi8>
      %_44 = "stablehlo.minimum"(%_43, %_31) : (tensor<1xi8>, tensor<1xi8>) -> tensor<1xi8>
      %_45 = "stablehlo.slice"(%_39) {limit_indices = array<i64: 20, 11, 13>, start_indices = array<i64: 1, 0, 12>, strides = array<i64: 1, 1, 1>} : (tensor<20x21x13xi32>) -> tensor<19x11x1xi32>
      %_46 = "stablehlo.transpose"(%_39) {permutation = array<i64: 2, 1, 0>} : (tensor<20x21x13xi32>) -> tensor<13x21x20xi32>
      %_47 = "stablehlo.reshape"(%_39) : (tensor<20x21x13xi32>) -> tensor<5460xi32>
      %_48 = "stablehlo.slice"(%_47) {limit_indices = array<i64: 3020>, start_indices = array<i64: 2964>, strides = array<i64: 1>} : (tensor<5460xi32>) -> tensor<56xi32>
      %_49 = "stablehlo.reshape"(%_48) : (tensor<56xi32>) -> tensor<28x2xi32>
      %_50 = "stablehlo.convert"(%_49) : (tensor<28x2xi32>) -> tensor<28x2xi1>
      %_51 = "stablehlo.select"(%_50, %l0, %_36) : (tensor<28x2xi1>, tensor<28x2xi64>, tensor<28x2xi64>) -> tensor<28x2xi64>
      %_52 = "stablehlo.reshape"(%_46) : (tensor<13x21x20xi32>) -> tensor<5460xi32>
      %_53 = "stablehlo.slice"(%_52) {limit_indices = array<i64: 3188>, start_indices = array<i64: 3149>, strides = array<i64: 2>} : (tensor<5460xi32>) -> tensor<20xi32>
      %_54 = "stablehlo.reshape"(%_53) : (tensor<20xi32>) -> tensor<2x10xi32>
      %_55 = "stablehlo.convert"(%_54) : (tensor<2x10xi32>) -> tensor<2x10xf32>
      %_56 = "stablehlo.reshape"(%_39) : (tensor<20x21x13xi32>) -> tensor<5460xi32>
      %_57 = "stablehlo.slice"(%_56) {limit_indices = array<i64: 1009>, start_indices = array<i64: 553>, strides = array<i64: 1>} : (tensor<5460xi32>) -> tensor<456xi32>
      %_58 = "stablehlo.reshape"(%_57) : (tensor<456xi32>) -> tensor<19x12x2xi32>
      %_59 = "stablehlo.convert"(%_58) : (tensor<19x12x2xi32>) -> tensor<19x12x2xf32>
      %_60 = "stablehlo.dot_general"(%_55, %_59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [2]>} : (tensor<2x10xf32>, tensor<19x12x2xf32>) -> tensor<2x10x19x12xf32>
      %_61 = "stablehlo.reshape"(%_45) : (tensor<19x11x1xi32>) -> tensor<209xi32>
      %_62 = "stablehlo.slice"(%_61) {limit_indices = array<i64: 81>, start_indices = array<i64: 67>, strides = array<i64: 1>} : (tensor<209xi32>) -> tensor<14xi32>
      %_63 = "stablehlo.reshape"(%_62) : (tensor<14xi32>) -> tensor<7x2x1x1x1xi32>
      %_64 = "stablehlo.convert"(%_63) : (tensor<7x2x1x1x1xi32>) -> tensor<7x2x1x1x1xbf16>
      %_65 = "stablehlo.slice"(%_52) {limit_indices = array<i64: 4729>, start_indices = array<i64: 4561>, strides = array<i64: 1>} : (tensor<5460xi32>) -> tensor<168xi32>
      %_66 = "stablehlo.reshape"(%_65) : (tensor<168xi32>) -> tensor<2x2x3x2x7xi32>
      %_67 = "stablehlo.convert"(%_66) : (tensor<2x2x3x2x7xi32>) -> tensor<2x2x3x2x7xbf16>
      %_68 = "stablehlo.convolution"(%_64, %_67) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[1, f, b, 0, 2]x[i, 0, 1, 2, o]->[b, 0, f, 2, 1]>, feature_group_count = 1 : i64, padding = dense<[[0, 1], [2, 0], [0, 1]]> : tensor<3x2xi64>, window_reversal = array<i1: false, false, true>, window_strides = array<i64: 1, 2, 1>} : (tensor<7x2x1x1x1xbf16>, tensor<2x2x3x2x7xbf16>) -> tensor<1x1x7x1x4xbf16>
      %_69 = "stablehlo.sign"(%_44) : (tensor<1xi8>) -> tensor<1xi8>
      %_70 = "stablehlo.convert"(%_41) : (tensor<294xi8>) -> tensor<294xf32>
      %_71 = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
      %_72 = "stablehlo.pad"(%_70, %_71) {edge_padding_high = array<i64: 114>, edge_padding_low = array<i64: 0>, interior_padding = array<i64: 0>} : (tensor<294xf32>, tensor<f32>) -> tensor<408xf32>
      %_73 = "stablehlo.reshape"(%_72) : (tensor<408xf32>) -> tensor<24x1x17xf32>
      %_74 = "stablehlo.reshape"(%_42) : (tensor<28x2x2xf32>) -> tensor<112xf32>
      %_75 = "stablehlo.slice"(%_74) {limit_indices = array<i64: 69>, start_indices = array<i64: 61>, strides = array<i64: 1>} : (tensor<112xf32>) -> tensor<8xf32>
      %_76 = "stablehlo.reshape"(%_75) : (tensor<8xf32>) -> tensor<8x1xf32>
      %_77 = "stablehlo.dot_general"(%_73, %_76) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<24x1x17xf32>, tensor<8x1xf32>) -> tensor<24x17x8xf32>
      "sdy.return"(%_77, %_69, %_68, %_60, %_51, %_37, %_29) : (tensor<24x17x8xf32>, tensor<1xi8>, tensor<1x1x7x1x4xbf16>, tensor<2x10x19x12xf32>, tensor<28x2xi64>, tensor<f32>, tensor<30xi32>) -> ()
    }) {in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>, <@mesh, [{}, {}, {}]>, <@mesh, [{}, {"x", "y"}, {}]>, <@mesh, []>, <@mesh, [{"x", "y"}, {}, {}, {}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"x", "y"}]>, <@mesh, [{"x", "y"}]>, <@mesh, [{}, {}, {}, {}, {}]>, <@mesh, [{}, {}, {}, {}]>, <@mesh, [{}, {"x", "y"}]>, <@mesh, []>, <@mesh, [{"x", "y"}]>]>} : (tensor<112x2xi64>, tensor<20x21x13xi32>, tensor<21x340x1xi8>, tensor<f32>, tensor<24x1x5x1xi32>) -> (tensor<24x17x32xf32>, tensor<4xi8>, tensor<1x1x7x1x4xbf16>, tensor<2x10x19x12xf32>, tensor<28x8xi64>, tensor<f32>, tensor<120xi32>)
    "func.return"(%_78, %_79, %_80, %_81, %_82, %_83, %_84) : (tensor<24x17x32xf32>, tensor<4xi8>, tensor<1x1x7x1x4xbf16>, tensor<2x10x19x12xf32>, tensor<28x8xi64>, tensor<f32>, tensor<120xi32>) -> ()
  }) {function_type = (tensor<112x2xi64>, tensor<20x21x13xi32>, tensor<21x340x1xi8>, tensor<f32>, tensor<24x1x5x1xi32>) -> (tensor<24x17x32xf32>, tensor<4xi8>, tensor<1x1x7x1x4xbf16>, tensor<2x10x19x12xf32>, tensor<28x8xi64>, tensor<f32>, tensor<120xi32>), sym_name = "main"} : () -> ()
}
