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

# dynamic shapes: refined from --shape (dimension arguments inferred) or from --inputs
cat >"$tmp/dyn.mlir" <<'MLIR'
func.func public @main(%arg0: tensor<i64>, %arg1: tensor<?x4xf32>, %arg2: tensor<2x?x4xf32>) -> tensor<2x?x4xf32> {
  %0 = stablehlo.constant dense<2> : tensor<1xi32>
  %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %3 = stablehlo.constant dense<4> : tensor<1xi32>
  %4 = stablehlo.concatenate %0, %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %5 = stablehlo.dynamic_broadcast_in_dim %arg1, %4, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
  %6 = stablehlo.add %5, %arg2 : tensor<2x?x4xf32>
  return %6 : tensor<2x?x4xf32>
}
MLIR
expect "interp: --shape, dimension argument inferred" 0 "dimension argument 0 (%arg0) = 3 (inferred from the shapes)" \
    "$NPUSIM" interp "$tmp/dyn.mlir" --random-inputs 1 --shape 1=3x4 --shape arg2=2x3x4
expect "interp: --no-refine runs the dynamic program" 0 "output 0: tensor<2x3x4xf32>" \
    "$NPUSIM" interp "$tmp/dyn.mlir" --random-inputs 1 --shape 1=3x4 --shape arg2=2x3x4 --no-refine
expect "interp: a dynamic dim without a shape" 1 "dyn.mlir:1:1: error: func.func: argument 1 (%arg1) of @main: dimension 0 is dynamic" \
    "$NPUSIM" interp "$tmp/dyn.mlir" --random-inputs 1
expect "interp: inconsistent shapes name op and arguments" 1 \
    "dyn.mlir:8:3: error: stablehlo.add: dimension 1 of operands 0 and 1 differ: 3 (the value of dimension argument 0 (%arg0)) and 5 (dimension 1 of argument 2 (%arg2))" \
    "$NPUSIM" interp "$tmp/dyn.mlir" --random-inputs 1 --shape 1=3x4 --shape 2=2x5x4
expect "interp: --dim contradicting the shapes" 1 "4 (the value of dimension argument 0 (%arg0))" \
    "$NPUSIM" interp "$tmp/dyn.mlir" --random-inputs 1 --shape 1=3x4 --shape 2=2x3x4 --dim 0=4
expect "interp: --shape of an argument that does not exist" 2 "has no argument 'x'" \
    "$NPUSIM" interp "$tmp/dyn.mlir" --random-inputs 1 --shape x=3x4
expect "parse: --shape --print gives the static program" 0 "stablehlo.broadcast_in_dim.*tensor<2x3x4xf32>" \
    "$NPUSIM" parse "$tmp/dyn.mlir" --shape 1=3x4 --shape 2=2x3x4 --print
expect "run: refined, compiled, checked against the dynamic program" 0 "check output 0 tensor<2x7x4xf32>: ok" \
    "$NPUSIM" run "$tmp/dyn.mlir" --chip trn2 --random-inputs 1 --shape 1=7x4 --shape 2=2x7x4 --check
expect "coverage: of the refined program" 0 "stablehlo.broadcast_in_dim *1 *lowered" \
    "$NPUSIM" coverage "$tmp/dyn.mlir" --chip tpu-v5e --shape 1=7x4 --shape 2=2x7x4
cat >"$tmp/assert.mlir" <<'MLIR'
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %c = stablehlo.constant dense<2> : tensor<i32>
  %ok = stablehlo.compare GE, %n, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %n) {error_message = "Expected value >= 2 for dimension variable 'b'; 'b' = {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %y = stablehlo.abs %x : tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
MLIR
expect "run: a failing shape assertion" 1 "assert.mlir:5:3: error: stablehlo.custom_call: @shape_assertion failed: .*'b' = 1" \
    "$NPUSIM" run "$tmp/assert.mlir" --chip trn2 --random-inputs 1 --shape 0=1x4
cat >"$tmp/bounded.mlir" <<'MLIR'
func.func @main(%x: tensor<?x5xf32, #stablehlo.bounds<8, ?>>) -> tensor<?x5xf32, #stablehlo.bounds<8, ?>> {
  %y = stablehlo.negate %x : tensor<?x5xf32, #stablehlo.bounds<8, ?>>
  return %y : tensor<?x5xf32, #stablehlo.bounds<8, ?>>
}
MLIR
expect "interp: a bounded dim runs at the size given" 0 "output 0: tensor<6x5xf32>" \
    "$NPUSIM" interp "$tmp/bounded.mlir" --random-inputs 1 --shape 0=6x5
expect "interp: a size above the bound" 1 "dimension 0 is given as 9, above its bound 8" \
    "$NPUSIM" interp "$tmp/bounded.mlir" --random-inputs 1 --shape 0=9x5
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
