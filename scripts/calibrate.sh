#!/bin/sh
# make calibrate: every row of the published-performance table through the
# model generator and the estimator, npusim's figure beside the published
# one, the error per row, and the median and worst |error| (docs/estimate.md
# "Calibration").  The table is read where it lives, never copied:
#   scripts/calibrate.sh BUILD_DIR [TSV]
#     TSV   default $SHARED/hw/published_perf_calibration.tsv (SHARED=../shared)
#   NPUSIM_CALIBRATE_ARGS  extra `npusim estimate` options (e.g. --search 1)
#
# A row names its system (chip and count), model, workload, batch and
# sequence, metric and published value.  How each is read:
#   chip      "TPU v5e" -> tpu-v5e, "trn1" -> trn1, "trn2" -> trn2, "H100" -> h100, "A100" -> a100,
#             "H200" -> h200, "B200" -> b200
#   model     the preset of the run (model/presets_list.h): "MaxText 16B" ->
#             maxtext-16b, "GPT3-23B" -> nemo-gpt3-23b, "Llama2-7B (NeMo)" ->
#             nemo-llama2-7b, "Llama-3.1-70B" -> nxd-llama3.1-70b, ...; a model
#             column "graph: FILE.mlir" runs that StableHLO file instead
#   batch     "global batch N" / "GB N" in the row; MaxText rows: the config's
#             per_device_batch_size (16B 6, 32B 4, 64B 2, 128B 1: MaxText
#             configs/v5e/*.sh) x chips
#   seq       "seq N" in the row, else the model's training length (MaxText
#             and GPT-3: 2048, Llama 2: 4096, Llama 3.1: 8192)
#             "... (as PRESET)" -> PRESET (the GPU table's MPT rows: docs/gpu.md)
#   layout    GPU rows with a preset: FSDP over every GPU (FULL_SHARD); MaxText rows: FSDP over each 256-chip slice, data parallel over
#             the slices (MaxText's default ici_fsdp_parallelism, and
#             dcn_data_parallelism across a multislice); Neuron rows: "TPn DPn
#             PPn" count NeuronCores (2 per trn1 chip), so tp/2 chips of TP,
#             pp stages, and dp filling the system's chips; with pp, "microbatch
#             N" (sequences per microbatch) gives mb = batch / (dp x N)
#             microbatches (else the estimator's default, 2 x pp)
#   metric    the first unit of the metric column: TFLOP/s/chip (npusim: the
#             model's FLOPs per step / step time / chips), seq/s (tokens/s
#             / seq) or tokens/s/chip; the published value is the first number of the value
#             column
# Lines starting with '#' and the header line are skipped.
# Rows npusim cannot run (no preset, the generator or the partitioner refuses,
# out of memory) are listed with the reason and left out of the median.
set -u
B=${1:-build/release}
SHARED=${SHARED:-../shared}
TSV=${2:-$SHARED/hw/published_perf_calibration.tsv}
NPUSIM=${NPUSIM:-$B/npusim}
ARGS=${NPUSIM_CALIBRATE_ARGS:-}
[ -r "$TSV" ] || { echo "calibrate: cannot read $TSV (set SHARED to the shared directory)"; exit 2; }
[ -x "$NPUSIM" ] || { echo "calibrate: no $NPUSIM (make BUILD=... first)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# preset NAME for a model column, "" when there is none; then its default seq
preset_of() {
    case "$1" in
    graph:*) echo "${1#graph: }" ;;
    *"(as "*")"*) printf '%s\n' "$1" | sed 's/.*(as \([^)]*\)).*/\1/' ;;
    "MaxText 16B"*) echo maxtext-16b ;;
    "MaxText 32B"*) echo maxtext-32b ;;
    "MaxText 64B"*) echo maxtext-64b ;;
    "MaxText 128B"*) echo maxtext-128b ;;
    GPT3-23B*) echo nemo-gpt3-23b ;;
    GPT3-46B*) echo nemo-gpt3-46b ;;
    GPT3-175B*) echo nemo-gpt3-175b ;;
    "Llama2-7B (NeMo)"* | "Llama2-7B (NxD"*) echo nemo-llama2-7b ;;
    "Llama2-13B"*) echo nemo-llama2-13b ;;
    "Llama-3.1-8B"*) echo nxd-llama3.1-8b ;;
    "Llama-3.1-70B"*) echo nxd-llama3.1-70b ;;
    *) echo "" ;;
    esac
}
default_seq() {
    case "$1" in
    maxtext-* | nemo-gpt3-*) echo 2048 ;;
    nemo-llama2-*) echo 4096 ;;
    nxd-llama3.1-*) echo 8192 ;;
    *) echo 2048 ;;
    esac
}
per_device_batch() {
    case "$1" in
    maxtext-16b) echo 6 ;;
    maxtext-32b) echo 4 ;;
    maxtext-64b) echo 2 ;;
    maxtext-128b) echo 1 ;;
    *) echo 0 ;;
    esac
}
# the number after WORD in TEXT ("" if none)
num_after() { printf '%s\n' "$2" | sed -n "s/.*$1 *\([0-9][0-9]*\).*/\1/p" | head -n 1; }

printf '%-4s %-30s %-18s %-24s %-13s %12s %12s %8s\n' "row" "system" "preset" "layout" "metric" "published" "npusim" "error"
n=0
grep -v '^#' "$TSV" | tail -n +2 | while IFS="$(printf '\t')" read -r system chips model workload batch_seq metric value source; do
    n=$((n + 1))
    [ -n "$system" ] || continue
    case "$system" in
    *"TPU v5e"*) chip=tpu-v5e ;;
    *"TPU v5p"*) chip=tpu-v5p ;;
    *"TPU v6e"*) chip=tpu-v6e ;;
    *trn2* | *Trainium2*) chip=trn2 ;;
    *trn1* | *Trainium1*) chip=trn1 ;;
    *H100*) chip=h100 ;;
    *H200*) chip=h200 ;;
    *B200*) chip=b200 ;;
    *A100*) chip=a100 ;;
    *) chip="" ;;
    esac
    preset=$(preset_of "$model")
    unit=$(printf '%s' "$metric" | sed 's/ *|.*//')
    published=$(printf '%s' "$value" | sed -n 's/^[^0-9]*\([0-9][0-9.]*\).*/\1/p')
    label=$(printf '%.30s' "$system")
    if [ -z "$chip" ] || [ -z "$preset" ] || [ -z "$published" ]; then
        printf '%-4s %-30s %-18s %-24s %-13s %12s %12s %8s  no preset, chip or figure: %.50s\n' "$n" "$label" "-" "-" \
            "$unit" "${published:--}" "-" "-" "$model"
        continue
    fi
    seq=$(num_after "seq" "$batch_seq")
    [ -n "$seq" ] || seq=$(default_seq "$preset")
    gb=$(num_after "global batch" "$batch_seq")
    [ -n "$gb" ] || gb=$(num_after "GB" "$batch_seq")
    pdb=$(per_device_batch "$preset")
    [ "$pdb" -gt 0 ] && gb=$((pdb * chips))
    [ -n "$gb" ] || gb=$chips
    case "$chip:$preset" in
    [abh][12]00:*.mlir) layout="" ;;
    [abh][12]00:*) layout="fsdp=$chips" ;;
    *:maxtext-*)
        slice=$chips
        [ "$chips" -gt 256 ] && slice=256
        dp=$((chips / slice))
        layout="fsdp=$slice"
        [ "$dp" -gt 1 ] && layout="dp=$dp,fsdp=$slice"
        ;;
    *.mlir) layout="" ;;
    *)
        tpc=$(num_after "TP" "$model")
        ppc=$(num_after "PP" "$model")
        tp=$(((${tpc:-2} + 1) / 2))
        pp=${ppc:-1}
        dp=$((chips / (tp * pp)))
        layout="dp=$dp,tp=$tp"
        [ "$pp" -gt 1 ] && layout="$layout,pp=$pp"
        [ "$dp" -lt 1 ] && layout="dp=1,tp=$tp,pp=$pp"
        # "microbatch N" sequences per microbatch: gb / (dp x N) microbatches
        mbs=$(num_after "microbatch" "$batch_seq")
        if [ "$pp" -gt 1 ] && [ -n "$mbs" ] && [ "$mbs" -gt 0 ] && [ "$dp" -ge 1 ]; then
            layout="$layout,mb=$((gb / (dp * mbs)))"
        fi
        ;;
    esac
    if [ -n "$layout" ]; then
        # shellcheck disable=SC2086
        "$NPUSIM" estimate "$preset" --workload train --batch "$gb" --seq "$seq" --chips "$chip:$chips" \
            --parallel "$layout" --csv $ARGS >"$tmp/r.csv" 2>"$tmp/r.err"
    else
        # shellcheck disable=SC2086
        "$NPUSIM" estimate "$preset" --workload train --batch "$gb" --seq "$seq" --chips "$chip:$chips" \
            --csv $ARGS >"$tmp/r.csv" 2>"$tmp/r.err"
    fi
    # the figure from the CSV's row (columns by their header names; a quoted
    # field such as the layout "dp=2,fsdp=256" holds commas)
    fig=$(awk -v unit="$unit" -v seq="$seq" '
        function fields(line, f,   n, i, c, q, cur) {
            n = 0; cur = ""; q = 0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (c == "\"") { q = !q; continue }
                if (c == "," && !q) { f[++n] = cur; cur = ""; continue }
                cur = cur c
            }
            f[++n] = cur
            return n
        }
        NR == 1 { n = fields($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
        NR == 2 {
            fields($0, v)
            if (v[col["ok"]] != "true") exit
            step = v[col["step_s"]]; chips = v[col["chips"]]; flops = v[col["model_flops"]]; tps = v[col["tokens_per_s"]]
            if (step <= 0) exit
            if (unit ~ /TFLOP/) printf "%.4g", flops / step / chips / 1e12
            else if (unit ~ /seq/) printf "%.4g", tps / seq
            else if (unit ~ /tokens/) printf "%.4g", tps / chips
        }' "$tmp/r.csv" 2>/dev/null)
    if [ -z "$fig" ]; then
        why=$(grep -v '^npusim estimate: host' "$tmp/r.err" | tail -n 1 | sed 's/^npusim[^:]*: //')
        printf '%-4s %-30s %-18s %-24s %-13s %12s %12s %8s  %.90s\n' "$n" "$label" "$preset" "${layout:-graph}" "$unit" \
            "$published" "-" "-" "${why:-no figure}"
        continue
    fi
    err=$(awk -v a="$fig" -v b="$published" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }')
    printf '%-4s %-30s %-18s %-24s %-13s %12s %12s %8s\n' "$n" "$label" "$preset" "${layout:-graph}" "$unit" \
        "$published" "$fig" "$err"
done >"$tmp/table"
cat "$tmp/table"
# |error| of the rows with figures (the loop ran in a subshell: read them back)
awk 'NF >= 8 && $NF ~ /%$/ { e = $NF; sub(/%/, "", e); e = e + 0; if (e < 0) e = -e; print e }' "$tmp/table" | sort -g >"$tmp/abs"
rows=$(grep -c '' "$tmp/table")
got=$(grep -c '' "$tmp/abs")
if [ "$got" -eq 0 ]; then
    echo "calibrate: no row gave a figure ($rows rows)"
    exit 1
fi
awk -v rows="$rows" '
    { v[NR] = $1 }
    END {
        med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "calibrate: %d of %d rows with figures; median |error| %.1f%%, worst %.1f%% (goal: median <= 10%%, no per-row constants)\n", NR, rows, med, v[NR]
    }' "$tmp/abs"
