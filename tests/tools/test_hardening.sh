#!/bin/sh
# Issue 20's reproducers, each run exactly as reported: the command must
# refuse or finish with a clear error (never crash, hang, wrap or leave a
# partial file).  Runs under make check and make check-asan.
#   tests/tools/test_hardening.sh BUILD_DIR
set -u
B=${1:-build/debug}
NPUSIM="$B/npusim"
case "$NPUSIM" in /*) ;; *) NPUSIM="$PWD/$NPUSIM" ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# an error without a message aborts (tools/common.c): part of every case
export NPUSIM_STRICT_DIAG=1
# under ASan a huge malloc must return NULL as it does without it (the
# out-of-memory paths are what is tested)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1"
# expect NAME STATUS PATTERN COMMAND...: the exit status and a line of
# stdout+stderr matching PATTERN; a command still running after 60 s is a hang
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    out=$(timeout 60 "$@" 2>&1)
    st=$?
    if [ "$st" -ne "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$pat"; then
        echo "FAIL $name: exit $st (want $want), output:"
        printf '%s\n' "$out" | head -20 | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok   $name"
    fi
}
# nothing NAME DIR: DIR holds no files (no partial output, no temporary)
nothing() {
    if [ -n "$(ls -A "$2" 2>/dev/null)" ]; then
        echo "FAIL $1: left behind: $(ls -A "$2")"
        fails=$((fails + 1))
    else
        echo "ok   $1"
    fi
}

# a 128x4 f32 .npy (header padded to 128 bytes) and a program that touches sp
npy_f32() { # FILE ROWS COLS
    hdr="{'descr': '<f4', 'fortran_order': False, 'shape': ($2, $3), }"
    pad=$((128 - 10 - ${#hdr} - 1))
    { printf '\223NUMPY\001\000\166\000%s%*s\n' "$hdr" "$pad" ""; head -c $(($2 * $3 * 4)) /dev/zero; } >"$1"
}
npy_f32 "$tmp/a.npy" 128 4
printf '.engine pool\n    nop\n' >"$tmp/nop.s"

# --- memory corruption
expect "exec --inputs at an address that wraps past 2^64" 1 "sp bytes \[0xffffffffffffff80, +16) of a partition overflow" \
    "$NPUSIM" exec "$tmp/nop.s" --chip trn2 --inputs "x=$tmp/a.npy@sp:0:18446744073709551488"
mkdir "$tmp/dump"
expect "exec --dump at an address that wraps past 2^64" 1 "sp bytes \[0xffffffffffffff80, +16) of a partition overflow" \
    "$NPUSIM" exec "$tmp/nop.s" --chip trn2 --dump "x=sp:0:18446744073709551488:128x4:f32" --out "$tmp/dump"
nothing "exec --dump that failed wrote nothing" "$tmp/dump"
cat >"$tmp/m.mlir" <<'MLIR'
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = stablehlo.add %x, %x : tensor<64x64xf32>
  %z = stablehlo.multiply %y, %y : tensor<64x64xf32>
  return %z : tensor<64x64xf32>
}
MLIR
# a write that fails part way (file too large: SIGXFSZ ignored, so write()
# returns EFBIG): the trace writers stop, say so, and leave nothing
mkdir "$tmp/small"
for ext in json json.gz npt; do
    expect "run --trace .$ext past the file size limit" 1 "t.$ext: error: .*File too large" \
        sh -c "trap '' XFSZ; ulimit -f 1; exec \"\$0\" \"\$@\"" "$NPUSIM" run "$tmp/m.mlir" --chip trn2 --timing-only \
        --trace "$tmp/small/t.$ext"
done
nothing "failed trace writes left nothing" "$tmp/small"

# --- assertion aborts
sed 's/^rows_per_cycle_bf16 = 1 /rows_per_cycle_bf16 = 1e-30 /' chips/trn2.chip >"$tmp/tiny_rate.chip"
expect "chip file with rows_per_cycle_bf16 = 1e-30" 1 "tiny_rate.chip:[0-9]*:[0-9]*: error: 'rows_per_cycle_bf16' is out of range" \
    "$NPUSIM" run "$tmp/m.mlir" --chip "$tmp/tiny_rate.chip" --timing-only
expect "net --bytes 18446744073709551615" 2 "is over the collective-bytes limit of .*--limit collective-bytes=N" \
    "$NPUSIM" net --chip tpu-v5e --topology 4x4 --bytes 18446744073709551615
expect "net --bytes at the limit's ceiling ends in time" 1 "would end past" \
    "$NPUSIM" net --chip tpu-v5e --topology 2x2 --bytes 1000000000000000000 --limit collective-bytes=1000000000000000000

# --- UBSan reports
expect "exec --dump of a huge shape" 1 "more than .* elements" \
    "$NPUSIM" exec "$tmp/nop.s" --chip trn2 --dump "x=hbm:0:99999999999x99999999999:f32" --out "$tmp/dump"
printf 'func.func @main() -> tensor<0x99999999999x99999999999xf32> {\n  %%0 = stablehlo.constant dense<> : tensor<0x99999999999x99999999999xf32>\n  return %%0 : tensor<0x99999999999x99999999999xf32>\n}\n' >"$tmp/zero.mlir"
expect "a zero-element shape whose strides overflow" 1 "zero.mlir:1:22: error: tensor type has more elements than the limit" "$NPUSIM" parse "$tmp/zero.mlir"
mkdir "$tmp/empty"
expect "conform on an empty folder" 1 "no cases: no .mlir or .mlir.bc files" "$NPUSIM" conform "$tmp/empty"
"$NPUSIM" run "$tmp/m.mlir" --chip trn2 --timing-only --trace "$tmp/v.npt" >/dev/null 2>&1
if [ -n "${SDL_VIDEODRIVER:-}" ] && "$NPUSIM" view --help >/dev/null 2>&1; then
    expect "view --range 1000:1001" 0 "" "$NPUSIM" view "$tmp/v.npt" --range 1000:1001 --screenshot "$tmp/r.png" --size 320x200
fi

# --- hangs
printf '.engine pool\n    loop 4294967295, 2\n        loop 4294967295, 1\n            nop\n' >"$tmp/loops.s"
expect "exec nested loop 4294967295" 1 "loops.s:3:.* is over the steps limit of .*--limit steps=N" \
    "$NPUSIM" exec "$tmp/loops.s" --chip trn2
cat >"$tmp/endless.mlir" <<'MLIR'
func.func @main() -> tensor<i32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.while(%i = %0) : tensor<i32>
    cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      stablehlo.return %i : tensor<i32>
    }
  return %1 : tensor<i32>
}
MLIR
expect "interp of an endless while" 1 "endless.mlir:3:.*loop-trips limit.*--limit loop-trips=N" \
    "$NPUSIM" interp "$tmp/endless.mlir" --limit loop-trips=1000
mkfifo "$tmp/fifo.mlir" "$tmp/fifo.npy" "$tmp/fifo.chip" "$tmp/fifo.s" "$tmp/fifo.json" "$tmp/fifo.npt"
expect "parse of a FIFO" 1 "fifo.mlir: error: is a FIFO, not a regular file" "$NPUSIM" parse "$tmp/fifo.mlir"
expect "interp of a FIFO" 1 "is a FIFO, not a regular file" "$NPUSIM" interp "$tmp/fifo.mlir"
expect "conform of a FIFO (--timeout does not cover reading)" 1 "is a FIFO" "$NPUSIM" conform --timeout 5 "$tmp/fifo.mlir"
expect "asm of a FIFO" 1 "is a FIFO" "$NPUSIM" asm "$tmp/fifo.s" -o "$tmp/o.bin"
expect "exec of a FIFO program" 1 "is a FIFO" "$NPUSIM" exec "$tmp/fifo.s" --chip trn2
expect "exec --inputs from a FIFO" 1 "is a FIFO" "$NPUSIM" exec "$tmp/nop.s" --chip trn2 --inputs "x=$tmp/fifo.npy@hbm:0"
expect "a chip file that is a FIFO" 1 "is a FIFO" "$NPUSIM" run "$tmp/m.mlir" --chip "$tmp/fifo.chip" --timing-only
expect "trace info of a FIFO (.json)" 1 "is a FIFO" "$NPUSIM" trace stats "$tmp/fifo.json"
expect "trace info of a FIFO (.npt)" 1 "is a FIFO" "$NPUSIM" trace stats "$tmp/fifo.npt"
expect "--allow-special-files reads a FIFO" 0 "ok (verified)" \
    sh -c "cat \"\$1\" >\"\$2\" & exec \"\$0\" parse --allow-special-files \"\$2\"" "$NPUSIM" "$tmp/m.mlir" "$tmp/fifo.mlir"

# --- memory blow-ups
expect "parse /dev/zero" 1 "/dev/zero: error: is a character device" "$NPUSIM" parse /dev/zero
expect "interp /dev/zero" 1 "is a character device" "$NPUSIM" interp /dev/zero
expect "conform /dev/zero" 1 "is a character device" "$NPUSIM" conform /dev/zero
expect "asm /dev/zero" 1 "is a character device" "$NPUSIM" asm /dev/zero -o "$tmp/o.bin"
expect "/dev/zero with --allow-special-files stops at input-bytes" 1 "is over the input-bytes limit of 1048576.*--limit input-bytes=N" \
    "$NPUSIM" parse /dev/zero --allow-special-files --limit input-bytes=1M
if [ -n "${SDL_VIDEODRIVER:-}" ] && "$NPUSIM" view --help >/dev/null 2>&1; then
    expect "view --script /dev/zero" 1 "is a character device" \
        "$NPUSIM" view "$tmp/v.npt" --script /dev/zero --screenshot "$tmp/s.png" --size 320x200
fi
# a small .json.gz that inflates past the limit (the report's 6 MB -> 6 GB,
# scaled down with a lowered limit)
head -c 4000000 /dev/zero | gzip -c >"$tmp/bomb.json.gz"
expect "a .json.gz that inflates past inflated-bytes" 1 "bomb.json.gz: error: bytes inflated: .* is over the inflated-bytes limit of 1048576.*--limit inflated-bytes=N" \
    "$NPUSIM" trace stats "$tmp/bomb.json.gz" --limit inflated-bytes=1M
expect "net --chunks 4294967295" 2 "4294967295 is over the chunks limit of 65536.*--limit chunks=N" \
    "$NPUSIM" net --chip tpu-v5e --topology 4x4 --chunks 4294967295

# --- unclear or wrong outcomes
sed 's/^bytes_per_partition = 229376 /bytes_per_partition = 4294967295 /' chips/trn2.chip >"$tmp/huge_sp.chip"
# refused before anything is made, with the numbers (the memory estimate, docs/memory.md)
expect "bytes_per_partition = 4294967295" 1 "out of memory: needed 5.00 TiB, available .*simulator 5.00 TiB" \
    "$NPUSIM" run "$tmp/m.mlir" --chip "$tmp/huge_sp.chip" --random-inputs 1
sed 's/^clock_ghz = 2.4 /clock_ghz = 1e-300 /' chips/trn2.chip >"$tmp/slow.chip"
expect "clock_ghz = 1e-300" 1 "slow.chip:[0-9]*:[0-9]*: error: 'clock_ghz' is out of range" \
    "$NPUSIM" run "$tmp/m.mlir" --chip "$tmp/slow.chip" --timing-only
expect "--chips 99999999999" 2 "99999999999 is over the chips limit of 65536.*--limit chips=N" \
    "$NPUSIM" run "$tmp/m.mlir" --chip trn2 --timing-only --chips 99999999999
expect "--chips 4x" 2 "--chips wants a whole number >= 1, got '4x'" \
    "$NPUSIM" run "$tmp/m.mlir" --chip trn2 --timing-only --chips 4x
expect "--cores 1000 on an 8-core chip" 2 "--cores 1000: chip trn2 has 8 cores" \
    "$NPUSIM" run "$tmp/m.mlir" --chip trn2 --timing-only --cores 1000
expect "--topology 3x3 with 4 chips" 1 "--topology 3x3 has 9 ranks, but .* a program of 4 partition" \
    "$NPUSIM" run "$tmp/m.mlir" --chip tpu-v5e --timing-only --chips 4 --topology 3x3
expect "conform --timeout -5" 2 "--timeout wants a whole number in 1..2592000, got '-5'" "$NPUSIM" conform --timeout -5 "$tmp/m.mlir"
mkdir "$tmp/conf"
printf 'func.func @main() {\n  func.return\n}\n// -----\n\n// -----\nfunc.func @main() {\n  func.return\n}\n' >"$tmp/conf/c.mlir"
# an empty case (and one without checks) is nocheck, never a pass; upstream has empty modules on purpose
expect "an empty conformance case is not a pass" 0 "0 passed, 0 failed, 0 unsupported, 3 nocheck" "$NPUSIM" conform --verbose "$tmp/conf"
expect "an empty case or one without checks is not a pass (--chip)" 0 "0 passed, 0 failed, 0 unsupported, 3 nocheck" "$NPUSIM" conform --verbose --chip trn2 "$tmp/conf"
printf '.engine pool\n    nop\n' >"$tmp/x.s"
"$NPUSIM" asm "$tmp/x.s" -o "$tmp/x.bin" >/dev/null 2>&1
cp "$tmp/x.bin" "$tmp/x.bin.orig"
expect "asm x.bin does not overwrite its input" 1 "x.bin" "$NPUSIM" asm "$tmp/x.bin"
cp "$tmp/x.s" "$tmp/x.s.orig"
expect "asm x.s -o x.s is refused" 1 "x.s: the output is the input" "$NPUSIM" asm "$tmp/x.s" -o "$tmp/x.s"
expect "disasm x.bin -o x.bin is refused" 1 "x.bin: the output is the input" "$NPUSIM" disasm "$tmp/x.bin" -o "$tmp/x.bin"
if cmp -s "$tmp/x.s" "$tmp/x.s.orig"; then echo "ok   asm -o its input left it alone"; else echo "FAIL asm -o its input changed it"; fails=$((fails + 1)); fi
if cmp -s "$tmp/x.bin" "$tmp/x.bin.orig"; then echo "ok   asm x.bin left its input alone"; else echo "FAIL asm x.bin changed its input"; fails=$((fails + 1)); fi
mkdir -p "$tmp/o/deep"
expect "--dump ../../name" 2 "'../../name' would leave the output folder" \
    "$NPUSIM" exec "$tmp/nop.s" --chip trn2 --dump "../../name=hbm:0:4:f32" --out "$tmp/o/deep"
nothing "--dump ../../name wrote nothing" "$tmp/o/deep"
expect "--out does not create any path" 1 "cannot create the folder.*its parent must exist" \
    "$NPUSIM" exec "$tmp/nop.s" --chip trn2 --dump "x=hbm:0:4:f32" --out "$tmp/no/such/path"
if [ -e "$tmp/no" ]; then echo "FAIL --out created $tmp/no"; fails=$((fails + 1)); else echo "ok   --out created no path"; fi
# a failed write leaves nothing: a .npy past the file size limit
mkdir "$tmp/fail"
expect "exec --dump past the file size limit" 1 "x.npy: error: write failed: File too large (nothing written)" \
    sh -c "trap '' XFSZ; ulimit -f 1; exec \"\$0\" \"\$@\"" "$NPUSIM" exec "$tmp/nop.s" --chip trn2 \
    --dump "x=hbm:0:100000:f32" --out "$tmp/fail"
nothing "failed .npy write left nothing" "$tmp/fail"
expect "model -o past the file size limit" 1 "b.mlir: error: write failed" \
    sh -c "trap '' XFSZ; ulimit -f 1; exec \"\$0\" \"\$@\"" "$NPUSIM" model llama3-8b -o "$tmp/fail/b.mlir"
nothing "failed model write left nothing" "$tmp/fail"
# the limits themselves: a bad --limit names the limits
expect "--limit of an unknown name" 2 "unknown limit 'bogus' (limits: input-bytes" "$NPUSIM" parse "$tmp/m.mlir" --limit bogus=3
expect "--limit above its ceiling" 2 "--limit nesting=5000: at most 1024" "$NPUSIM" parse "$tmp/m.mlir" --limit nesting=5000
expect "input-bytes applies to a regular file" 1 "m.mlir: error: file size: .* is over the input-bytes limit of 100" \
    "$NPUSIM" parse "$tmp/m.mlir" --limit input-bytes=100
expect "nesting past the limit names it" 1 "deep_nesting.mlir:1:86: error: nesting deeper than 64 levels (the nesting limit; raise it with --limit nesting=N)" \
    "$NPUSIM" parse fuzz/corpus/graph_parse/deep_nesting.mlir
expect "--limit nesting=1024 reads it" 0 "ok (verified)" "$NPUSIM" parse fuzz/corpus/graph_parse/deep_nesting.mlir --limit nesting=1024
[ $fails -eq 0 ]
