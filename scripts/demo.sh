#!/bin/sh
# The main job on the bundled model.  Called by `make demo` after the build:
# compile the bundled transformer block for a TPU v6e and a Trainium2, run it
# on both simulated chips with random weights, check every output against the
# golden interpreter, and put the two reports side by side.
set -eu
NPUSIM=${1:-build/release/npusim}
MODEL=examples/transformer_block.mlir
OUT=out/demo
mkdir -p "$OUT"

for chip in tpu-v6e trn2; do
    echo "== npusim run $MODEL --chip $chip --random-inputs 1 --check --out $OUT/$chip"
    "$NPUSIM" run "$MODEL" --chip "$chip" --random-inputs 1 --check --out "$OUT/$chip"
    # the same run again for the side-by-side table, recording its trace
    "$NPUSIM" run "$MODEL" --chip "$chip" --random-inputs 1 --json --trace "$OUT/$chip.npt" >"$OUT/$chip.json" 2>/dev/null
    "$NPUSIM" trace convert "$OUT/$chip.npt" "$OUT/$chip.json.gz"
    echo
done

# The same block tensor-parallel over 4 ranks: the partitioner splits the
# attention and feed-forward weights Megatron-style and inserts the
# all_reduces; every rank runs its shard, checked against the unsharded
# program on the golden interpreter.  At trn2's default LNC=2 the 4 ranks
# are one chip's (2 NeuronCores each), so the all_reduces go through its
# HBM; --lnc 1 --mesh model=16 would span 2 chips.
echo "== npusim run $MODEL --chip trn2 --mesh model=4 --shard ... --random-inputs 1 --check (4 ranks, 1 chip)"
"$NPUSIM" run "$MODEL" --chip trn2 --random-inputs 1 --check --mesh model=4 \
    --shard wq=_,model --shard wk=_,model --shard wv=_,model --shard wo=model,_ \
    --shard w_gate=_,model --shard w_up=_,model --shard w_down=model,_ --trace "$OUT/trn2-4ranks.npt" |
    grep -E '^(SPMD|ranks|total|collectives|collective |all_reduce|system|check)|^ +(chip|rank) +|^ +[0-9] +[0-9.]+ '
echo

# Pictures of the trn2 trace and of the two chips compared, rendered without a display.
shot=""
if "$NPUSIM" view "$OUT/trn2.npt" --screenshot "$OUT/trn2.png" --size 1600x900 &&
    "$NPUSIM" view "$OUT/tpu-v6e.npt" "$OUT/trn2.npt" --screenshot "$OUT/compare.png" --size 1600x900; then
    shot="$OUT/trn2.png and $OUT/compare.png"
fi

# One line per figure, the two chips in columns (from the --json reports).
field() { # file key
    sed -n "s/.*\"$2\": \([^,}]*\).*/\1/p" "$1" | head -n 1
}
echo "== side by side ($MODEL, compiled mode, random inputs, outputs checked above)"
printf '  %-28s %16s %16s\n' "" tpu-v6e trn2
for key in total_ps kernel_ps dispatch_ps launches model_flops hbm_bytes; do
    printf '  %-28s %16s %16s\n' "$key" "$(field "$OUT/tpu-v6e.json" $key)" "$(field "$OUT/trn2.json" $key)"
done
echo
echo "Outputs are in $OUT/<chip>/ as .npy; the reports as JSON in $OUT/<chip>.json."
echo "Traces: $OUT/<chip>.npt (open with: $NPUSIM view $OUT/trn2.npt; or: $NPUSIM trace stats $OUT/trn2.npt)"
echo "        $OUT/trn2-4ranks.npt: every rank of the 4-rank run, with their collectives and on-chip paths"
echo "Compare: $NPUSIM view $OUT/tpu-v6e.npt $OUT/trn2.npt; $NPUSIM trace compare $OUT/tpu-v6e.npt $OUT/trn2.npt --by kind"
echo "        $OUT/<chip>.json.gz (open in Perfetto: https://ui.perfetto.dev, \"Open trace file\")"
if [ -n "$shot" ]; then echo "Screenshots: $shot"; fi
echo "Try: $NPUSIM run $MODEL --chip trn2 --mode eager --random-inputs 1   (per-op dispatch)"
echo "     $NPUSIM run ../shared/models/qwen_3_0_6b_shlo.mlir --chip trn2 --random-inputs 1 --check   (8 chips, ~2 min)"
