#!/bin/sh
# The main job on the bundled model.  Called by `make demo` after the build.
# Today (foundation): run the bundled transformer block on the golden
# interpreter with random weights and write its output as .npy.
set -eu
NPUSIM=${1:-build/release/npusim}
MODEL=examples/transformer_block.mlir
OUT=out/demo

echo "== npusim parse $MODEL"
"$NPUSIM" parse "$MODEL"
echo
echo "== npusim interp $MODEL --random-inputs 1 --out $OUT"
"$NPUSIM" interp "$MODEL" --random-inputs 1 --out "$OUT"
echo
echo "The output is in $OUT/output_0.npy (bf16 as raw '<V2'; in Python:"
echo "  import numpy as np, ml_dtypes; np.load('$OUT/output_0.npy').view(ml_dtypes.bfloat16))"
