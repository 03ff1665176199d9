#!/bin/sh
# Benchmarks (release build).  Prints figures measured side by side in one run.
#   bench/run.sh build/release
set -eu
B=${1:-build/release}
SHARED=${SHARED:-../shared}
NPUSIM=$B/npusim

echo "== parse throughput"
if [ -x "$B/bench/parse_bench" ]; then
    "$B/bench/parse_bench" "$SHARED/conformance/stablehlo-testdata/fft_float64_14_15_16_17.mlir" \
        "$SHARED/conformance/stablehlo-testdata/fft_complex64_14_15_16_17.mlir" \
        "$SHARED/models/qwen_3_0_6b_shlo.mlir" "$SHARED/models/glm_358b_1_layer_shlo.mlir"
fi

echo
echo "== interpreting the model exports (random inputs, seed 1; goal: qwen, 8 partitions, run < 20 s)"
for m in glm_358b_1_layer_shlo qwen_3_0_6b_shlo; do
    start=$(date +%s.%N)
    phases=$("$NPUSIM" interp "$SHARED/models/$m.mlir" --random-inputs 1 2>&1 >/dev/null | grep 'parse+verify')
    end=$(date +%s.%N)
    awk -v m="$m" -v s="$start" -v e="$end" -v p="${phases#npusim interp: }" \
        'BEGIN { printf "  %-24s wall %6.2f s (incl. random input generation); %s\n", m, e - s, p }'
done

echo
echo "== GEMM (npusim gemm: generated tiled kernel; docs/gemm.md)"
for c in trn2 tpu-v5e tpu-v6e; do
    start=$(date +%s.%N)
    line=$("$NPUSIM" gemm 4096 4096 4096 --chip "$c" --timing-only | grep '^time:')
    end=$(date +%s.%N)
    awk -v c="$c" -v s="$start" -v e="$end" -v l="${line#time: }" \
        'BEGIN { printf "  4096^3 bf16 %-8s --timing-only: host %5.2f s (goal < 0.5 s); simulated %s\n", c, e - s, l }'
done
if [ -x "$B/bench/gemm_bench" ]; then
    echo "  functional throughput against OpenBLAS (goal >= 0.5):"
    "$B/bench/gemm_bench" 1024 1024 1024 --chip trn2 --dtype f32
fi

echo
echo "== compiled graphs (npusim run --timing-only: simulated time and host time; docs/compiler.md)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# jf NAME FILE: the first numeric field NAME of a JSON report
jf() { sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p" "$2" | head -n 1; }
# timed_run ARGS...: npusim run ARGS --json into $tmp/r.json; prints the host seconds
timed_run() {
    start=$(date +%s.%N)
    "$NPUSIM" run "$@" --json >"$tmp/r.json" 2>"$tmp/r.err"
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }'
}
cat >"$tmp/dot.mlir" <<'EOF'
func.func @main(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}
EOF
cat >"$tmp/add.mlir" <<'EOF'
func.func @main(%a: tensor<16384x16384xf32>, %b: tensor<16384x16384xf32>) -> tensor<16384x16384xf32> {
  %c = stablehlo.add %a, %b : tensor<16384x16384xf32>
  return %c : tensor<16384x16384xf32>
}
EOF
echo "  4096^3 bf16 dot_general (goal: >= 85% of peak over the kernel) and an f32 add of two 1 GiB"
echo "  tensors (goal: 80-100% of HBM bandwidth over the kernel); compiled, --timing-only --no-checks:"
for c in tpu-v5e tpu-v6e trn2; do
    h=$(timed_run "$tmp/dot.mlir" --chip "$c" --timing-only --no-checks)
    awk -v c="$c" -v h="$h" -v k="$(jf mfu_kernels "$tmp/r.json")" -v w="$(jf mfu "$tmp/r.json")" \
        'BEGIN { printf "    dot %-8s %5.1f%% of peak over the kernel, %5.1f%% over the run (dispatch included); host %s s\n", c, 100 * k, 100 * w, h }'
    h=$(timed_run "$tmp/add.mlir" --chip "$c" --timing-only --no-checks)
    awk -v c="$c" -v h="$h" -v g="$(jf hbm_gbps_kernels "$tmp/r.json")" -v p="$(jf hbm_peak_gbps "$tmp/r.json")" \
        'BEGIN { printf "    add %-8s %7.1f GB/s over the kernel = %5.1f%% of %.0f GB/s; host %s s\n", c, g, 100 * g / p, p, h }'
done
echo "  glm_358b_1_layer, --timing-only (goal: host time < 1 s), simulator checks off (on):"
glm=$SHARED/models/glm_358b_1_layer_shlo.mlir
for c in trn2 tpu-v6e; do
    for mode in compiled fused-eager eager; do
        hc=-
        [ "$mode" = compiled ] && hc=$(timed_run "$glm" --chip "$c" --mode "$mode" --random-inputs 1 --timing-only)
        h=$(timed_run "$glm" --chip "$c" --mode "$mode" --random-inputs 1 --timing-only --no-checks)
        awk -v c="$c" -v m="$mode" -v h="$h" -v hc="$hc" -v t="$(jf total_ps "$tmp/r.json")" \
            -v k="$(jf kernel_ps "$tmp/r.json")" \
            'BEGIN { printf "    %-8s %-11s simulated %9.2f us (kernels %9.2f us); host %s s (%s s)\n", c, m, t * 1e-6, k * 1e-6, h, hc }'
    done
done
echo "  qwen_3_0_6b, the program of one of its 8 partitions (collectives timed on the chip's links),"
echo "  --timing-only, simulator checks off (on):"
qwen=$SHARED/models/qwen_3_0_6b_shlo.mlir
for c in trn2 tpu-v5e; do
    for mode in compiled fused-eager eager; do
        hc=-
        [ "$mode" = compiled ] && hc=$(timed_run "$qwen" --chip "$c" --mode "$mode" --timing-only)
        h=$(timed_run "$qwen" --chip "$c" --mode "$mode" --timing-only --no-checks)
        awk -v c="$c" -v m="$mode" -v h="$h" -v hc="$hc" -v t="$(jf total_ps "$tmp/r.json")" \
            -v k="$(jf kernel_ps "$tmp/r.json")" -v x="$(jf collective_ps "$tmp/r.json")" \
            'BEGIN { printf "    %-8s %-11s simulated %9.2f us (kernels %9.2f us, collectives %8.2f us); host %s s (%s s)\n", c, m, t * 1e-6, k * 1e-6, x * 1e-6, h, hc }'
    done
done

echo
echo "== simulator speed (bench/sim_bench.c: simulated instructions per host CPU second; goal timing-only >= 5 M/s)"
if [ -x "$B/bench/sim_bench" ]; then
    "$B/bench/sim_bench" trn2
fi

echo
echo "== interconnect (bench/net_bench.c: all_reduce busbw vs size; host time of 256- and 8192-chip runs; docs/interconnect.md)"
if [ -x "$B/bench/net_bench" ]; then
    "$B/bench/net_bench"
fi

echo
echo "== thousand-chip timing-only runs (data-parallel GEMM training step; bench/multichip_bench.c; goal: seconds; docs/interconnect.md)"
if [ -x "$B/bench/multichip_bench" ]; then
    "$B/bench/multichip_bench" || echo "  (multichip_bench failed)"
fi

echo
echo "== traces (bench/trace_bench.c: recording cost on the glm layer, goal <= 1.3x; a 10M-event .npt written and reopened)"
if [ -x "$B/bench/trace_bench" ]; then
    "$B/bench/trace_bench" "$SHARED/models/glm_358b_1_layer_shlo.mlir" trn2 10000000
fi
# the whole command (parse, compile, run, write), best of 5 wall times each (other jobs on the machine add noise)
trace_tmp=$(mktemp -d)
best_wall() { # best wall seconds of 5 runs of "$@"
    b=""
    for _ in 1 2 3 4 5; do
        s=$(date +%s.%N)
        "$@" >/dev/null 2>&1 || true
        e=$(date +%s.%N)
        b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN { t = e - s; if (b == "" || t < b) b = t; printf "%.3f", b }')
    done
    echo "$b"
}
glm=$SHARED/models/glm_358b_1_layer_shlo.mlir
u=$(best_wall "$NPUSIM" run "$glm" --chip trn2 --timing-only --no-checks)
for ext in npt json.gz json; do
    t=$(best_wall "$NPUSIM" run "$glm" --chip trn2 --timing-only --no-checks --trace "$trace_tmp/glm.$ext")
    sz=$(wc -c <"$trace_tmp/glm.$ext" 2>/dev/null || echo 0)
    awk -v u="$u" -v t="$t" -v x="$ext" -v sz="$sz" \
        'BEGIN { printf "  npusim run glm --trace .%-8s %.3f s vs %.3f s untraced (%.2fx, whole command); %.2f MB\n", x, t, u, t / u, sz / 1e6 }'
done
rm -rf "$trace_tmp"

echo
echo "== viewer (bench/view_bench.c: 1920x1080 frames on a 10M-event trace, median and p99 per zoom; goal <= 16 ms; docs/visualizer.md)"
if [ -x "$B/bench/view_bench" ]; then
    "$B/bench/view_bench" 10000000 "${TMPDIR:-/tmp}"
else
    echo "  (not built: NO_SDL=1 or SDL2 missing)"
fi
