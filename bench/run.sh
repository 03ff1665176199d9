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
