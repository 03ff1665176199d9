/* SPMD programs the runtime and traces tests run (sdy.manual_computation
 * entries, as JAX and torch_xla export tensor-parallel models). */
#ifndef NPUSIM_TESTS_SPMD_PROGRAMS_H
#define NPUSIM_TESTS_SPMD_PROGRAMS_H

/* Tensor parallel on 4 partitions: x (64 x 256) split along the contraction,
 * w (256 x 512) along its rows; each partition multiplies its 64 x 64 by
 * 64 x 512 shard and an all_reduce sums the partial products. */
static const char k_tp[] =
    "sdy.mesh @mesh = <[\"tp\"=4]>\n"
    "func.func @main(%x: tensor<64x256xbf16>, %w: tensor<256x512xbf16>) -> tensor<64x512xbf16> {\n"
    "  %r = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{}, {\"tp\"}]>, <@mesh, [{\"tp\"}, {}]>]\n"
    "      out_shardings=[<@mesh, [{}, {}]>] manual_axes={\"tp\"}\n"
    "      (%lx: tensor<64x64xbf16>, %lw: tensor<64x512xbf16>) {\n"
    "    %p = stablehlo.dot_general %lx, %lw, contracting_dims = [1] x [0] : (tensor<64x64xbf16>, tensor<64x512xbf16>) "
    "-> tensor<64x512xbf16>\n"
    "    %s = \"stablehlo.all_reduce\"(%p) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, "
    "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> ({\n"
    "    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):\n"
    "      %t = stablehlo.add %a, %b : tensor<bf16>\n"
    "      stablehlo.return %t : tensor<bf16>\n"
    "    }) : (tensor<64x512xbf16>) -> tensor<64x512xbf16>\n"
    "    sdy.return %s : tensor<64x512xbf16>\n"
    "  } : (tensor<64x256xbf16>, tensor<256x512xbf16>) -> tensor<64x512xbf16>\n"
    "  return %r : tensor<64x512xbf16>\n"
    "}\n";

/* Two independent matmuls, the first one's partial products all-reduced:
 * the second matmul does not touch the all_reduce's buffers, so it runs
 * while the all_reduce does. */
static const char k_overlap[] =
    "sdy.mesh @mesh = <[\"tp\"=4]>\n"
    "func.func @main(%x: tensor<64x256xbf16>, %w: tensor<256x512xbf16>, %y: tensor<512x512xbf16>, %v: "
    "tensor<512x512xbf16>) -> (tensor<64x512xbf16>, tensor<512x512xbf16>) {\n"
    "  %r:2 = sdy.manual_computation(%x, %w, %y, %v) in_shardings=[<@mesh, [{}, {\"tp\"}]>, <@mesh, [{\"tp\"}, {}]>, "
    "<@mesh, [{}, {}]>, <@mesh, [{}, {}]>]\n"
    "      out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>] manual_axes={\"tp\"}\n"
    "      (%lx: tensor<64x64xbf16>, %lw: tensor<64x512xbf16>, %ly: tensor<512x512xbf16>, %lv: tensor<512x512xbf16>) {\n"
    "    %p = stablehlo.dot_general %lx, %lw, contracting_dims = [1] x [0] : (tensor<64x64xbf16>, tensor<64x512xbf16>) "
    "-> tensor<64x512xbf16>\n"
    "    %s = \"stablehlo.all_reduce\"(%p) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, "
    "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> ({\n"
    "    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):\n"
    "      %t = stablehlo.add %a, %b : tensor<bf16>\n"
    "      stablehlo.return %t : tensor<bf16>\n"
    "    }) : (tensor<64x512xbf16>) -> tensor<64x512xbf16>\n"
    "    %q = stablehlo.dot_general %ly, %lv, contracting_dims = [1] x [0] : (tensor<512x512xbf16>, "
    "tensor<512x512xbf16>) -> tensor<512x512xbf16>\n"
    "    sdy.return %s, %q : tensor<64x512xbf16>, tensor<512x512xbf16>\n"
    "  } : (tensor<64x256xbf16>, tensor<256x512xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>) -> "
    "(tensor<64x512xbf16>, tensor<512x512xbf16>)\n"
    "  return %r#0, %r#1 : tensor<64x512xbf16>, tensor<512x512xbf16>\n"
    "}\n";

/* Two all_reduces one after the other, then a matmul that needs neither. */
static const char k_two_colls[] =
    "sdy.mesh @mesh = <[\"tp\"=4]>\n"
    "func.func @main(%x: tensor<256x256xbf16>, %z: tensor<256x256xbf16>, %y: tensor<512x512xbf16>, %v: "
    "tensor<512x512xbf16>) -> (tensor<256x256xbf16>, tensor<256x256xbf16>, tensor<512x512xbf16>) {\n"
    "  %r:3 = sdy.manual_computation(%x, %z, %y, %v) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>, "
    "<@mesh, [{}, {}]>, <@mesh, [{}, {}]>]\n"
    "      out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{}, {}]>] manual_axes={\"tp\"}\n"
    "      (%lx: tensor<256x256xbf16>, %lz: tensor<256x256xbf16>, %ly: tensor<512x512xbf16>, %lv: "
    "tensor<512x512xbf16>) {\n"
    "    %a = \"stablehlo.all_reduce\"(%lx) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, "
    "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> ({\n"
    "    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):\n"
    "      %t = stablehlo.add %p, %q : tensor<bf16>\n"
    "      stablehlo.return %t : tensor<bf16>\n"
    "    }) : (tensor<256x256xbf16>) -> tensor<256x256xbf16>\n"
    "    %b = \"stablehlo.all_reduce\"(%lz) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, "
    "channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}> ({\n"
    "    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):\n"
    "      %t = stablehlo.add %p, %q : tensor<bf16>\n"
    "      stablehlo.return %t : tensor<bf16>\n"
    "    }) : (tensor<256x256xbf16>) -> tensor<256x256xbf16>\n"
    "    %m = stablehlo.dot_general %ly, %lv, contracting_dims = [1] x [0] : (tensor<512x512xbf16>, "
    "tensor<512x512xbf16>) -> tensor<512x512xbf16>\n"
    "    sdy.return %a, %b, %m : tensor<256x256xbf16>, tensor<256x256xbf16>, tensor<512x512xbf16>\n"
    "  } : (tensor<256x256xbf16>, tensor<256x256xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>) -> "
    "(tensor<256x256xbf16>, tensor<256x256xbf16>, tensor<512x512xbf16>)\n"
    "  return %r#0, %r#1, %r#2 : tensor<256x256xbf16>, tensor<256x256xbf16>, tensor<512x512xbf16>\n"
    "}\n";

#endif
