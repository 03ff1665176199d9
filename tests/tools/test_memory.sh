#!/bin/sh
# npusim run's memory options and weight files (docs/memory.md): the
# estimate and --max-memory, --weights (safetensors, written here byte by
# byte), --weights-map, and their errors.
#   tests/tools/test_memory.sh BUILD_DIR
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
# lacks NAME PATTERN COMMAND...: exit 0 and no line matching PATTERN
lacks() {
    name=$1 pat=$2
    shift 2
    out=$("$@" 2>&1)
    st=$?
    if [ "$st" -ne 0 ] || printf '%s\n' "$out" | grep -q -- "$pat"; then
        echo "FAIL $name: exit $st, output:"
        printf '%s\n' "$out" | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok   $name"
    fi
}
# byte B: one byte of value B (0..255)
byte() { printf "\\$(printf %03o "$1")"; }
# st FILE HEADER DATA: a safetensors file, HEADER the JSON, DATA printf escapes
st() {
    len=${#2}
    {
        for k in 0 1 2 3 4 5 6 7; do byte $(((len >> (8 * k)) & 255)); done
        printf '%s' "$2"
        printf "$3"
    } >"$1"
}
# the bytes of an .npy file's data (its last N bytes) as hex
tail_hex() { tail -c "$2" "$1" | od -An -tx1 | tr -d ' \n'; }

cat >"$tmp/mul.mlir" <<'MLIR'
func.func @main(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.multiply %x, %w : tensor<2xf32>
  return %0 : tensor<2xf32>
}
MLIR
run() { "$NPUSIM" run "$tmp/mul.mlir" --chip trn2 "$@"; }

# f32 x = [3, 4], w = [1, 2]: x * w = [3, 8]
st "$tmp/f32.safetensors" '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"w":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}' \
    '\000\000\100\100\000\000\200\100\000\000\200\077\000\000\000\100'
expect "weights: by argument name, checked" 0 "2 argument(s) from" run --weights "$tmp/f32.safetensors" --check --out "$tmp/o1"
got=$(tail_hex "$tmp/o1/output_0.npy" 8)
if [ "$got" = 0000404000000041 ]; then echo "ok   weights: the output is the file's x * w"; else
    echo "FAIL weights: output bytes $got, want 0000404000000041 ([3, 8])"; fails=$((fails + 1)); fi
expect "weights: a program partitioned over 2 chips keeps its argument names" 0 "2 argument(s) from" \
    run --weights "$tmp/f32.safetensors" --chips 2 --shard x=_ --check
# bf16 w = [1, 2], f16 x = [3, 4]: converted to f32 when read, the same result
st "$tmp/half.safetensors" '{"w":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]},"x":{"dtype":"F16","shape":[2],"data_offsets":[4,8]}}' \
    '\200\077\000\100\000\102\000\104'
expect "weights: bf16 and f16 converted on read" 0 "2 argument(s) from" run --weights "$tmp/half.safetensors" --out "$tmp/o2"
got=$(tail_hex "$tmp/o2/output_0.npy" 8)
if [ "$got" = 0000404000000041 ]; then echo "ok   weights: converted values"; else
    echo "FAIL weights: converted output bytes $got, want 0000404000000041"; fails=$((fails + 1)); fi
# only w in the file
st "$tmp/w.safetensors" '{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}' '\000\000\200\077\000\000\000\100'
expect "weights: a missing argument is named" 1 "argument 0 (%x: tensor<2xf32>) is not in" run --weights "$tmp/w.safetensors"
expect "weights: --random-inputs fills what the file lacks" 0 "1 argument(s) from .*1 random (seed 5)" \
    run --weights "$tmp/w.safetensors" --random-inputs 5 --check
# explicit map, by name and by index
# keyed by the arguments' locations, as JAX names parameters (one through
# an alias defined after its use)
cat >"$tmp/locs.mlir" <<'MLIR'
func.func @main(%arg0: tensor<2xf32> loc("params['x']"), %arg1: tensor<2xf32> loc(#loc1)) -> tensor<2xf32> {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<2xf32>
  return %0 : tensor<2xf32>
}
#loc1 = loc("params['w']")
MLIR
st "$tmp/locs.safetensors" '{"params['"'"'x'"'"']":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"params['"'"'w'"'"']":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}' \
    '\000\000\100\100\000\000\200\100\000\000\200\077\000\000\000\100'
expect "weights: by argument location" 0 "2 argument(s) from" \
    "$NPUSIM" run "$tmp/locs.mlir" --chip trn2 --weights "$tmp/locs.safetensors" --check --out "$tmp/oloc"
got=$(tail_hex "$tmp/oloc/output_0.npy" 8)
if [ "$got" = 0000404000000041 ]; then echo "ok   weights: values by location"; else
    echo "FAIL weights: output bytes by location $got"; fails=$((fails + 1)); fi
printf "params['w'] params['x']\n" >"$tmp/locmap.txt"
expect "weights-map: by location" 0 "2 argument(s) from" \
    "$NPUSIM" run "$tmp/locs.mlir" --chip trn2 --weights "$tmp/locs.safetensors" --weights-map "$tmp/locmap.txt" --check --out "$tmp/olocmap"
got=$(tail_hex "$tmp/olocmap/output_0.npy" 8)
if [ "$got" = 0000104100008041 ]; then echo "ok   weights-map: x * x by location"; else
    echo "FAIL weights-map: output bytes by location $got, want 0000104100008041 ([9, 16])"; fails=$((fails + 1)); fi

st "$tmp/ab.safetensors" '{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}' \
    '\000\000\100\100\000\000\200\100\000\000\200\077\000\000\000\100'
printf '# argument tensor\nx a\n1 b  # w by index\n' >"$tmp/map.txt"
expect "weights-map: by name and index" 0 "2 argument(s) from" run --weights "$tmp/ab.safetensors" --weights-map "$tmp/map.txt" --check
printf 'x a\nzz b\n' >"$tmp/bad.map"
expect "weights-map: an unknown argument, with its line" 1 "bad.map:2: @main has no argument 'zz'" \
    run --weights "$tmp/ab.safetensors" --weights-map "$tmp/bad.map" --random-inputs 1
printf 'x nope\n' >"$tmp/bad2.map"
expect "weights-map: an unknown tensor, with its line" 1 "bad2.map:1: argument 0 (%x) maps to tensor 'nope'" \
    run --weights "$tmp/ab.safetensors" --weights-map "$tmp/bad2.map" --random-inputs 1
printf 'x\n' >"$tmp/bad3.map"
expect "weights-map: a line of one word" 1 "bad3.map:1: expected 'ARGUMENT TENSOR'" \
    run --weights "$tmp/ab.safetensors" --weights-map "$tmp/bad3.map"
# bad files
st "$tmp/trunc.safetensors" '{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}' '\000\000\200\077'
expect "weights: truncated data" 1 "tensor 'w': data_offsets: \[0, 8) out of range: the data section has 4 bytes" \
    run --weights "$tmp/trunc.safetensors" --random-inputs 1
head -c 20 "$tmp/f32.safetensors" >"$tmp/trunc2.safetensors"
expect "weights: truncated header" 1 "truncated: the header takes" run --weights "$tmp/trunc2.safetensors"
st "$tmp/shape.safetensors" '{"w":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]}}' '\000\000\200\077\000\000\000\100'
expect "weights: shape mismatch" 1 "tensor 'w': shape: \[1, 2\] in the file, the argument takes \[2\]" \
    run --weights "$tmp/shape.safetensors" --random-inputs 1
st "$tmp/int.safetensors" '{"w":{"dtype":"I32","shape":[2],"data_offsets":[0,8]}}' '\001\000\000\000\002\000\000\000'
expect "weights: dtype mismatch" 1 "tensor 'w': dtype: I32 in the file cannot become the argument's f32" \
    run --weights "$tmp/int.safetensors" --random-inputs 1
# shards: a directory with its index
mkdir "$tmp/shards"
st "$tmp/shards/model-00001-of-00002.safetensors" '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}' '\000\000\100\100\000\000\200\100'
st "$tmp/shards/model-00002-of-00002.safetensors" '{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}' '\000\000\200\077\000\000\000\100'
printf '{"metadata":{"total_size":16},"weight_map":{"x":"model-00001-of-00002.safetensors","w":"model-00002-of-00002.safetensors"}}' \
    >"$tmp/shards/model.safetensors.index.json"
expect "weights: a directory of shards" 0 "2 argument(s) from .*(2 file(s)" run --weights "$tmp/shards" --check --out "$tmp/o3"
got=$(tail_hex "$tmp/o3/output_0.npy" 8)
if [ "$got" = 0000404000000041 ]; then echo "ok   weights: shards' values"; else
    echo "FAIL weights: shards' output bytes $got"; fails=$((fails + 1)); fi

# memory: the estimate, --max-memory, refusing up front with numbers
expect "memory: the estimate is printed" 0 "memory: estimated .* limit .*(the machine's available memory)" run --random-inputs 1 --check
expect "memory: refused up front, with numbers" 1 "out of memory: needed [0-9.]* [KMG]iB, available 1.00 MiB (--max-memory)" \
    run --random-inputs 1 --check --max-memory 1M --out "$tmp/o4"
if [ -e "$tmp/o4" ]; then echo "FAIL memory: a refused run wrote $tmp/o4"; fails=$((fails + 1)); else
    echo "ok   memory: a refused run writes nothing"; fi
expect "memory: a bad size" 2 "max-memory takes a size such as 16G" run --random-inputs 1 --max-memory lots
expect "memory: a size that fits" 0 "limit 4.00 GiB (--max-memory)" run --random-inputs 1 --check --max-memory 4G
lacks "memory: --quiet says nothing of it" "memory: estimated" run --random-inputs 1 --check --quiet

# an allocation that fails anyway (a data limit below what the run takes):
# the error names the numbers, nothing is written.  Skipped where the
# binary cannot start under such a limit (the sanitizers reserve far more).
cat >"$tmp/add.mlir" <<'MLIR'
func.func @main(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = stablehlo.add %a, %b : tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
MLIR
if (ulimit -d 150000 && "$NPUSIM" chips >/dev/null 2>&1); then
    expect "memory: a failed allocation names the numbers" 1 "error: out of memory: needed 64.0 MiB, available [0-9.]* [KMG]*i*B: stablehlo.add" \
        sh -c 'ulimit -d 150000 && exec "$0" run "$1" --chip trn2 --random-inputs 1 --check --max-memory 100G --out "$2"' \
        "$NPUSIM" "$tmp/add.mlir" "$tmp/o5"
    if [ -e "$tmp/o5/output_0.npy" ] || [ -e "$tmp/o5/output_0.npy.part" ]; then
        echo "FAIL memory: a failed run left an output"; fails=$((fails + 1))
    else echo "ok   memory: a failed run leaves no output"; fi
else
    echo "skip memory: a failed allocation (the binary does not start under a 150 MB data limit)"
fi

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
