#!/bin/sh
# npusim run over MPI ranks (docs/distributed.md): `mpirun -np 2` and
# `mpirun -np 4 --oversubscribe` (and 3 ranks for 4 chips: uneven shares; 5:
# a rank without a chip)
# must give byte-identical outputs (.npy), traces (.npt and Perfetto JSON),
# reports (simulated times, text and JSON) and exit status to one process.
# Without mpirun, or with an npusim built without MPI, the test is skipped
# with a message, except in CI (CI=true), where it fails: .ci/run installs
# Open MPI (scripts/install-deps.sh).
#   tests/dist/test_mpi.sh [BUILD_DIR]
set -u
B=${1:-build/debug}
N="$B/npusim"
skip() {
    if [ "${CI:-}" = true ]; then echo "FAIL: $1 (CI installs Open MPI: scripts/install-deps.sh)"; exit 1; fi
    echo "SKIP: $1; the MPI test is not run"
    exit 0
}
command -v mpirun >/dev/null 2>&1 || skip "mpirun is not installed (apt-get install openmpi-bin libopenmpi-dev)"
# Open MPI refuses to run as root unless told to (a container's CI user is often root)
if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Under the sanitizers (make check-asan): Open MPI's own allocations live until
# exit, in components it unloads, so only full stacks (slow: every malloc
# unwinds) recognise them.  One run on several ranks is checked for leaks that
# way (LEAKS=1 below); the others, and the --mpi probe, run without the leak
# check; the one-process runs keep it.
NO_LEAKS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
LEAK_CHECK="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(pwd)/tests/dist/lsan_openmpi.supp:fast_unwind_on_malloc=0"
OUT="$B/test-out/mpi"
rm -rf "$OUT"
mkdir -p "$OUT"
M=examples/transformer_block.mlir
if ! ASAN_OPTIONS="$NO_LEAKS" "$N" run "$M" --chip trn2 --timing-only --mpi >"$OUT/probe.txt" 2>&1; then
    if grep -q "built without MPI" "$OUT/probe.txt"; then skip "$N was built without MPI (NO_MPI=1, or pkg-config ompi-c found nothing)"; fi
    echo "FAIL: npusim run --mpi in one process:"
    cat "$OUT/probe.txt"
    exit 1
fi

fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# run NAME RANKS ARGS...: one run (RANKS 1: no mpirun), its outputs in
# $OUT/NAME-RANKS/, its stdout with the output folder's name taken out
run() {
    name=$1 ranks=$2
    shift 2
    dir="$OUT/$name-$ranks"
    mkdir -p "$dir/out"
    outs="--out $dir/out"
    case " $* " in *" --timing-only "*) outs="" ;; esac # no values to write
    start=$(date +%s.%N)
    if [ "$ranks" = 1 ]; then
        # shellcheck disable=SC2086
        "$N" "$@" $outs >"$dir/stdout" 2>"$dir/stderr"
    else
        for attempt in 1 2; do
            if [ "${LEAKS:-0}" = 1 ]; then
                # shellcheck disable=SC2086
                LSAN_OPTIONS="$LEAK_CHECK" mpirun -np "$ranks" --oversubscribe "$N" "$@" $outs >"$dir/stdout" 2>"$dir/stderr"
            else
                # shellcheck disable=SC2086
                ASAN_OPTIONS="$NO_LEAKS" mpirun -np "$ranks" --oversubscribe "$N" "$@" $outs >"$dir/stdout" 2>"$dir/stderr"
            fi
            rc=$?
            # Open MPI forwards a rank's stdout through a pseudo-terminal; once
            # in about ten runs of this test on a loaded machine none of it
            # arrived (exit 0, stderr complete).  Such a run is run again,
            # said here; whatever it prints must still match byte for byte.
            if [ $rc != 0 ] || [ -s "$dir/stdout" ] || [ $attempt = 2 ]; then break; fi
            echo "  note: mpirun forwarded no stdout of $name on $ranks ranks; run again"
        done
        (exit "$rc")
    fi
    echo $? >"$dir/rc"
    end=$(date +%s.%N)
    sed -i "s#$dir/out#OUT#g" "$dir/stdout"
    printf '  %-10s %d rank(s): exit %s, host time %.2f s\n' "$name" "$ranks" "$(cat "$dir/rc")" \
        "$(awk "BEGIN { print $end - $start }")"
}

# same NAME RANKS: every file of the ranks' run equals the one-process run's
same() {
    a="$OUT/$1-1" b="$OUT/$1-$2"
    [ "$(cat "$a/rc")" = "$(cat "$b/rc")" ] || fail "$1: exit $(cat "$a/rc") in one process, $(cat "$b/rc") on $2 ranks"
    cmp -s "$a/stdout" "$b/stdout" || { fail "$1: the report differs on $2 ranks:"; diff "$a/stdout" "$b/stdout" | head -20; }
    for f in $(cd "$a" && find out -type f | sort); do
        cmp -s "$a/$f" "$b/$f" || fail "$1: $f differs on $2 ranks"
    done
    [ "$(cd "$a" && find out -type f | wc -l)" = "$(cd "$b" && find out -type f | wc -l)" ] ||
        fail "$1: $2 ranks wrote other files than one process"
}

TP="--mesh model=4 --shard wq=_,model --shard wk=_,model --shard wv=_,model --shard wo=model,_
    --shard w_gate=_,model --shard w_up=_,model --shard w_down=model,_"
echo "byte-identical to one process:"
# 4-way tensor parallel, checked against the interpreter, text report and .npt trace
for r in 1 2 3 4; do
    # shellcheck disable=SC2086
    run tp-text "$r" run "$M" --chip trn2 --random-inputs 1 --check $TP --trace "$OUT/tp-text-$r/out/trace.npt"
done
# the same as JSON, with a Perfetto JSON trace
for r in 1 4; do
    # shellcheck disable=SC2086
    run tp-json "$r" run "$M" --chip tpu-v5e --random-inputs 3 --check --json $TP --trace "$OUT/tp-json-$r/out/trace.json"
done
# a qwen3-shaped decode step (2 layers in a while loop, KV cache), generated
# small, partitioned over 4 chips by its own tp shardings
"$N" model qwen3-0.6b --workload decode --batch 2 --seq 64 --parallel tp=4 \
    --set hidden=64,layers=2,heads=4,kv_heads=2,head_dim=16,ffn=128,vocab=256 -o "$OUT/qwen.mlir" 2>/dev/null ||
    fail "npusim model qwen3-0.6b"
# (5 ranks: one rank has no chip, and still takes part in every exchange)
for r in 1 2 4 5; do
    LEAKS=$([ "$r" = 2 ] && echo 1 || echo 0) run qwen "$r" run "$OUT/qwen.mlir" --chip tpu-v5e --chips 4 --random-inputs 2 --trace "$OUT/qwen-$r/out/trace.npt"
done
# a timing-only run simulates one chip: rank 0 alone
for r in 1 2; do
    # shellcheck disable=SC2086
    run timing "$r" run "$M" --chip trn2 --timing-only $TP --trace "$OUT/timing-$r/out/trace.npt"
done
for r in 2 3 4; do same tp-text "$r"; done
same tp-json 4
for r in 2 4 5; do same qwen "$r"; done
same timing 2
for c in tp-text-1 tp-json-1 qwen-1 timing-1; do
    [ "$(cat "$OUT/$c/rc")" = 0 ] || { fail "$c failed:"; tail -5 "$OUT/$c/stderr"; }
    [ -s "$OUT/$c/out/trace.npt" ] || [ -s "$OUT/$c/out/trace.json" ] || fail "$c wrote no trace"
done
grep -q "check output 0 .*: ok" "$OUT/tp-text-4/stdout" || fail "tp-text on 4 ranks: output 0 not checked ok"
grep -q "SPMD: 4 partitions" "$OUT/tp-text-4/stdout" || fail "tp-text on 4 ranks: not a report of 4 partitions"
# rank 0 speaks for all: one copy of each message
[ "$(grep -c "random inputs, seed 1" "$OUT/tp-text-4/stderr")" = 1 ] || fail "tp-text on 4 ranks: other ranks' messages shown"

# A run that fails in step (here: inputs of the wrong shape, found as the
# chips load them) fails the same way on every rank: rank 0 says it once.
"$N" interp "$M" --random-inputs 1 --out "$OUT/wrong" >/dev/null 2>&1 # a .npy of the result's shape
IN=""
for _ in 0 1 2 3 4 5 6 7 8 9; do IN="$IN${IN:+,}$OUT/wrong/output_0.npy"; done
# shellcheck disable=SC2086
run bad 1 run "$M" --chip trn2 --inputs "$IN" $TP
# shellcheck disable=SC2086
run bad 2 run "$M" --chip trn2 --inputs "$IN" $TP
[ "$(cat "$OUT/bad-1/rc")" != 0 ] || fail "wrong inputs were accepted"
[ "$(cat "$OUT/bad-2/rc")" != 0 ] || fail "wrong inputs were accepted on 2 ranks"
echo "  one process: $(tail -1 "$OUT/bad-1/stderr")"
echo "  2 ranks:     $(grep error "$OUT/bad-2/stderr")"
[ "$(grep -c error "$OUT/bad-2/stderr")" = 1 ] || fail "the error of 2 ranks is not said once"
[ "$(tail -1 "$OUT/bad-1/stderr")" = "$(grep error "$OUT/bad-2/stderr")" ] || fail "2 ranks fail otherwise than one process"

[ $fails = 0 ] && echo "mpi: outputs, traces, reports and exit status identical on 1, 2, 3, 4 and 5 ranks"
[ $fails = 0 ]
