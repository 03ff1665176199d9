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
echo "== simulator speed (bench/sim_bench.c: simulated instructions per host CPU second; goal timing-only >= 5 M/s)"
if [ -x "$B/bench/sim_bench" ]; then
    "$B/bench/sim_bench" trn2
fi
