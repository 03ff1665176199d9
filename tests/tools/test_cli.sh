#!/bin/sh
# The npusim command on inputs that are not plain StableHLO with data: each
# case runs the binary and checks its exit status and what it says.
#   tests/tools/test_cli.sh BUILD_DIR
set -u
B=${1:-build/debug}
NPUSIM="$B/npusim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# expect NAME STATUS PATTERN COMMAND...: the exit status and a line of stdout+stderr matching PATTERN
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    out=$("$@" 2>&1)
    st=$?
    if [ "$st" -ne "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$pat"; then
        echo "FAIL $name: exit $st (want $want), output:"
        printf '%s\n' "$out" | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok   $name"
    fi
}

# ops of other dialects (generic form): parse, interp and run name them
cat >"$tmp/ttir.mlir" <<'MLIR'
module {
  func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = "ttir.empty"() : () -> tensor<4x4xf32>
    %1 = "ttir.add"(%arg0, %arg0, %0) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = "tosa.abs"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %2 : tensor<4x4xf32>
  }
}
MLIR
expect "parse: another dialect is not StableHLO" 1 "not StableHLO: 3 ops npusim does not know: ttir (another dialect) (2, first ttir.empty at 3:5), tosa (another dialect) (1" \
    "$NPUSIM" parse "$tmp/ttir.mlir"
expect "interp: names the dialects" 1 "error: not StableHLO: 3 ops" "$NPUSIM" interp "$tmp/ttir.mlir" --random-inputs 1
expect "run: names the dialects" 1 "error: not StableHLO: 3 ops" "$NPUSIM" run "$tmp/ttir.mlir" --chip trn2 --timing-only
# an op of StableHLO's own dialect that npusim does not know is not "another dialect"
printf 'func.func @main(%%a: tensor<2xf32>) -> tensor<2xf32> {\n  %%0 = "stablehlo.frobnicate_v9"(%%a) : (tensor<2xf32>) -> tensor<2xf32>\n  return %%0 : tensor<2xf32>\n}\n' >"$tmp/newer.mlir"
expect "parse: an unknown StableHLO op is newer, not foreign" 1 "ops newer than npusim: 1 op npusim does not know: stablehlo (1, first stablehlo.frobnicate_v9 at 2:3)" \
    "$NPUSIM" parse "$tmp/newer.mlir"
expect "coverage: says why" 1 "ttir.add is not lowered for trn2: an op of a dialect npusim does not know" \
    "$NPUSIM" coverage "$tmp/ttir.mlir" --chip trn2

# constants printed elided (MLIR's printer elides large literals)
cat >"$tmp/elided.mlir" <<'MLIR'
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x16xf32> {
    %w = stablehlo.constant dense_resource<__elided__> : tensor<8x16xf32>
    %b = stablehlo.constant dense_resource<__elided__> : tensor<16xf32>
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
    %z = stablehlo.add %y, %bb : tensor<4x16xf32>
    return %z : tensor<4x16xf32>
  }
}
MLIR
expect "parse: counts elided constants" 0 "ok (verified): 1 functions, 6 ops, 6 values; 2 constants elided" \
    "$NPUSIM" parse "$tmp/elided.mlir"
expect "interp: elided constants need values" 1 "elided.mlir:3:5: error: 2 constants are printed elided" \
    "$NPUSIM" interp "$tmp/elided.mlir" --inputs "$tmp/none.npy"
expect "interp: --random-inputs fills them" 0 "2 elided constants filled with random values (seed 1)" \
    "$NPUSIM" interp "$tmp/elided.mlir" --random-inputs 1
expect "run: timing-only needs no values" 0 "^total: " "$NPUSIM" run "$tmp/elided.mlir" --chip trn2 --timing-only
expect "run: --check with filled constants" 0 "check output 0 tensor<4x16xf32>: ok" \
    "$NPUSIM" run "$tmp/elided.mlir" --chip tpu-v5e --random-inputs 1 --check --precision highest
# conform --chip: the pass rate is over every case with checks; a case that
# does not parse is a failure (never "out of scope"); --min-pass applies to
# all of them; host steps are counted
mkdir -p "$tmp/corpus"
cat >"$tmp/corpus/ok.mlir" <<'MLIR'
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = stablehlo.add %x, %x : tensor<2xf32>
  check.expect_eq_const %y, dense<[2.0, 4.0]> : tensor<2xf32>
  func.return
}
MLIR
cat >"$tmp/corpus/host.mlir" <<'MLIR'
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %y = stablehlo.add %x, %x : tensor<2xf64>
  check.expect_eq_const %y, dense<[2.0, 4.0]> : tensor<2xf64>
  func.return
}
MLIR
printf 'func.func @main() {\n  %%x = stablehlo.bogus_op\n  func.return\n}\n' >"$tmp/corpus/bad.mlir"
expect "conform --chip: a parse error is a failure" 1 "^FAIL        bad.mlir: .*bad.mlir:2:3" \
    "$NPUSIM" conform --chip trn2 "$tmp/corpus"
expect "conform --chip: the rate is over all cases with checks" 1 "2/3 cases with checks passed (66.67%)" \
    "$NPUSIM" conform --chip trn2 "$tmp/corpus"
expect "conform --chip: on chip and with host steps" 1 "ran entirely on the chip: 1 (1 passed); with host steps: 1 (1 passed)" \
    "$NPUSIM" conform --chip tpu-v5e "$tmp/corpus"
printf 'bad.mlir  does not parse\n' >"$tmp/corpus.known"
expect "conform --chip: --min-pass over all cases" 1 "FAIL: 2/3 cases with checks passed, below --min-pass 70%" \
    "$NPUSIM" conform --chip trn2 --min-pass 70 --known "$tmp/corpus.known" "$tmp/corpus"
expect "conform --chip: listed and above --min-pass" 0 "0 unexpected failures" \
    "$NPUSIM" conform --chip trn2 --min-pass 60 --known "$tmp/corpus.known" "$tmp/corpus"
expect "conform --chip --json: the summary's figures" 1 '"checked_cases": 3, "checked_passed": 2, "checked_pass_pct": 66.67, "ran_on_chip": 1, "ran_with_host_steps": 1' \
    "$NPUSIM" conform --chip trn2 --json "$tmp/corpus"

# npusim estimate on a graph (elided constants: timing only needs no values)
expect "estimate: a graph needs its tokens" 2 "give --batch and --seq" \
    "$NPUSIM" estimate "$tmp/elided.mlir" --chips trn2:1
expect "estimate: a bad system is located" 2 "--chips:1:14: error: trn2: the count" \
    "$NPUSIM" estimate "$tmp/elided.mlir" --chips tpu-v6e,trn2:x --batch 4 --seq 1
expect "estimate: a graph takes no --parallel" 2 "partition it" \
    "$NPUSIM" estimate "$tmp/elided.mlir" --chips trn2:8 --batch 4 --seq 1 --parallel tp=8
expect "estimate: one row per system" 0 "^tpu-v6e x8  *1 partition x 8 " \
    "$NPUSIM" estimate "$tmp/elided.mlir" --chips trn2:1,tpu-v6e:8,trn3:2 --batch 4 --seq 1 --plot "$tmp/e.png"
expect "estimate: a chip without a price" 0 "trn3 x2: no price: give --price trn3=USD_PER_CHIP_HOUR" \
    "$NPUSIM" estimate "$tmp/elided.mlir" --chips trn3:2 --batch 4 --seq 1
expect "estimate: --price gives one" 0 '"usd_per_chip_hour": 3.5, "price_basis": "--price"' \
    "$NPUSIM" estimate "$tmp/elided.mlir" --chips trn3:2 --batch 4 --seq 1 --price trn3=3.5 --json
expect "estimate: --plot wrote a PNG" 0 "PNG image" file "$tmp/e.png"
expect "estimate: CSV" 0 "^model,source,workload," \
    "$NPUSIM" estimate "$tmp/elided.mlir" --chips trn2:1 --batch 4 --seq 1 --csv
# make calibrate's harness on a hand-written program (a TSV of the published table's columns)
printf 'System\tchips\tmodel\tworkload\tbatch_seq\tmetric\tvalue\tsource\n' >"$tmp/cal.tsv"
printf 'TPU v6e (test)\t2\tgraph: %s\ttrain\tGB 4 x seq 1\tseq/s\t1000\tnone\n' "$tmp/elided.mlir" >>"$tmp/cal.tsv"
printf 'trn1 (test)\t16\tBERT-Large\ttrain\tGB 8\tseq/s\t5\tnone\n' >>"$tmp/cal.tsv"
expect "calibrate: a graph row and a row without a preset" 0 "calibrate: 1 of 2 rows with figures; median |error|" \
    env NPUSIM="$NPUSIM" ./scripts/calibrate.sh "$B" "$tmp/cal.tsv"
expect "calibrate: the row's figure and error" 0 "^1  *TPU v6e (test) .* seq/s  *1000  *[0-9.e+]*  *[-+][0-9.]*%$" \
    env NPUSIM="$NPUSIM" ./scripts/calibrate.sh "$B" "$tmp/cal.tsv"
[ $fails -eq 0 ]
