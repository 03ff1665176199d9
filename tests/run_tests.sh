#!/bin/sh
# Runs npusim's checks and prints one summary.  Called by `make check`.
#   B=build/debug      build directory
#   SHARED=../shared   shared corpus
#   ONLY=unit|api|conform|models|fuzz   run one part
set -u
B=${B:-build/debug}
SHARED=${SHARED:-../shared}
ONLY=${ONLY:-}
export SHARED
export SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-dummy}
# an error without a message aborts the command (tools/common.c tool_print_diag)
export NPUSIM_STRICT_DIAG=1

pass=0
fail=0
failed=""

run() { # name, command...
    name=$1
    shift
    log="$B/test-logs/$(echo "$name" | tr '/ ' '__').log"
    mkdir -p "$B/test-logs"
    start=$(date +%s)
    if "$@" >"$log" 2>&1; then
        pass=$((pass + 1))
        printf '  ok    %-44s %3ss\n' "$name" "$(( $(date +%s) - start ))"
    else
        fail=$((fail + 1))
        failed="$failed $name"
        printf '  FAIL  %-44s %3ss   (log: %s)\n' "$name" "$(( $(date +%s) - start ))" "$log"
        tail -n 25 "$log" | sed 's/^/        | /'
    fi
}

if [ -z "$ONLY" ] || [ "$ONLY" = unit ]; then
    echo "unit tests:"
    for t in $(find "$B/tests" -type f -name 'test_*' -perm -u+x | sort); do
        run "${t#"$B"/tests/}" "$t"
    done
    # the layer and prefix rules of docs/architecture.md (scripts/lint.sh)
    run "lint/test_lint.sh (layers and prefixes)" tests/lint/test_lint.sh "$B"
    # the npusim command on other dialects, elided constants, ... (exit status and messages)
    run "tools/test_cli.sh (the command on unusual inputs)" tests/tools/test_cli.sh "$B"
    # mpirun -np 2, 3, 4: byte-identical to one process (docs/distributed.md)
    run "dist/test_mpi.sh (npusim run over MPI ranks)" tests/dist/test_mpi.sh "$B"
    run "tools/test_memory.sh (memory options, --weights)" tests/tools/test_memory.sh "$B"
    # issue 20's reproducers: bad inputs refused with a clear error, no crash, hang or partial file
    run "tools/test_hardening.sh (hostile inputs, limits, atomic outputs)" tests/tools/test_hardening.sh "$B"
    # npusim's JSON traces in Chrome's trace engine (node + npm @paulirish/trace_engine): every flow linked
    run "traces/test_trace_engine.sh (Chrome's trace engine)" tests/traces/test_trace_engine.sh "$B"
fi

# The library as others use it: python/npusim over libnpusim.so, and `make
# install` with a C program built against the installed copy (not under the
# sanitizers: Python would have to preload their runtime).
if [ -z "$ONLY" ] || [ "$ONLY" = api ]; then
    echo "python package and install:"
    run "python/test_python.sh (python/npusim, numpy)" tests/python/test_python.sh "$B"
    run "install/test_install.sh (make install, pkg-config)" tests/install/test_install.sh "$B"
fi

# The viewer's tests again under SDL's offscreen driver and under Xvfb with
# the X11 driver (the unit run above uses the dummy driver): window, events
# and pixels must behave the same on each.  Under the sanitizers the drivers'
# own libraries (X11, EGL/Mesa, loaded and unloaded by SDL) leak at exit, so
# these two runs do not check for leaks; the dummy-driver run above does.
if [ -z "$ONLY" ] || [ "$ONLY" = unit ]; then
    viewer="$B/tests/visualizer/test_viewer"
    no_leaks="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    if [ -x "$viewer" ]; then
        echo "viewer under other video drivers:"
        run "visualizer/test_viewer (offscreen driver)" env SDL_VIDEODRIVER=offscreen "$no_leaks" "$viewer"
        if command -v xvfb-run >/dev/null 2>&1; then
            run "visualizer/test_viewer (Xvfb, x11 driver)" xvfb-run -a env SDL_VIDEODRIVER=x11 "$no_leaks" "$viewer"
        else
            run "visualizer/test_viewer (Xvfb: xvfb-run missing; scripts/install-deps.sh installs xvfb)" false
        fi
    fi
fi

if [ -z "$ONLY" ] || [ "$ONLY" = conform ]; then
    echo "conformance (known failures: tests/conformance/*.known):"
    if [ -d "$SHARED/conformance" ]; then
        for suite in stablehlo-testdata stablehlo-interpret; do
            run "conform/$suite" "$B/npusim" conform --known "tests/conformance/$suite.known" \
                "$SHARED/conformance/$suite"
        done
        # The front end against upstream's verifier tests: valid cases must
        # parse and verify, cases with expected-error comments must be rejected.
        run "conform/stablehlo-verify (front end)" "$B/npusim" conform \
            --known tests/conformance/stablehlo-verify.known "$SHARED/conformance/stablehlo-verify"
        # The compiled path: each case compiled for the chip and simulated
        # (what the chip cannot run falls back to the host); at least 98% of
        # all the cases with checks must pass (docs/compiler.md "Conformance"),
        # and every failure is listed with its reason.  tpu-v5e and trn2, and
        # a sample of the other chips: one more of each family.
        for chip in tpu-v5e trn2 tpu-v6e trn1; do
            for suite in stablehlo-testdata stablehlo-interpret; do
                run "conform/$suite compiled on $chip" "$B/npusim" conform --chip "$chip" --precision highest \
                    --min-pass 98 --known "tests/conformance/$suite.$chip.known" "$SHARED/conformance/$suite"
            done
        done
    else
        echo "  FAIL  shared corpus not found at $SHARED (set SHARED=...)"
        fail=$((fail + 1))
        failed="$failed conform"
    fi
fi

# The real model exports: they must run (qwen on its 8-way mesh), produce no
# NaN from random weights, and give byte-identical outputs (same digests) on a
# second run: 8 threads must not make results depend on scheduling.
models_check() {
    model=$1
    out="$B/test-out/$(basename "$model" .mlir)"
    "$B/npusim" interp "$model" --random-inputs 1 >"$out.a.txt" || return 1
    cat "$out.a.txt"
    if grep -q 'NaN' "$out.a.txt"; then echo "NaN in the outputs"; return 1; fi
    [ "${2:-}" = twice ] || return 0
    "$B/npusim" interp "$model" --random-inputs 1 >"$out.b.txt" || return 1
    diff "$out.a.txt" "$out.b.txt"
}

# A model compiled for a chip, timing-only (no values, no checks: glm's
# functional --check run needs ~10 GB and minutes).  Compiled and eager must
# both run, and eager must take longer: per-op dispatch and HBM round trips
# cannot make it faster.
compiled_vs_eager() {
    model=$1
    chip=$2
    t_c=$("$B/npusim" run "$model" --chip "$chip" --random-inputs 1 --timing-only --no-checks --json |
        sed -n 's/.*"total_ps": \([0-9]*\).*/\1/p' | head -n 1)
    t_e=$("$B/npusim" run "$model" --chip "$chip" --mode eager --random-inputs 1 --timing-only --no-checks --json |
        sed -n 's/.*"total_ps": \([0-9]*\).*/\1/p' | head -n 1)
    echo "$chip: compiled $t_c ps, eager $t_e ps"
    [ -n "$t_c" ] && [ -n "$t_e" ] && [ "$t_e" -gt "$t_c" ]
}

# An SPMD export on as many simulated chips as it has partitions, with
# values, --check against the golden interpreter's multi-process run.
spmd_check() {
    out="$B/test-out/$(basename "$1" .mlir).$2.txt"
    "$B/npusim" run "$1" --chip "$2" --random-inputs 1 --check --no-checks >"$out" 2>&1
    st=$?
    grep -E '^(SPMD|total|collectives|system)|MISMATCH|out of bound|error' "$out"
    echo "$(grep -c ': ok' "$out") outputs ok"
    return $st
}

if [ -z "$ONLY" ] || [ "$ONLY" = models ]; then
    echo "model exports (random inputs):"
    mkdir -p "$B/test-out"
    # exports from the field (tests/data/models): parse, verify, coverage and a
    # timing-only run on trn2 and tpu-v6e, nothing unsupported
    run "models/test_field.sh (tests/data/models on trn2, tpu-v6e)" tests/models/test_field.sh "$B"
    run "models/qwen_3_0_6b (8 partitions, twice)" models_check "$SHARED/models/qwen_3_0_6b_shlo.mlir" twice
    run "models/glm_358b_1_layer" models_check "$SHARED/models/glm_358b_1_layer_shlo.mlir"
    for chip in trn2 tpu-v6e; do
        run "models/glm_358b_1_layer run on $chip" compiled_vs_eager "$SHARED/models/glm_358b_1_layer_shlo.mlir" "$chip"
    done
    # qwen's export is the program of one of 8 partitions: one representative
    # partition, its all_reduces timed on the chip's links (docs/compiler.md
    # "SPMD plans")
    for chip in trn2 tpu-v5e; do
        run "models/qwen_3_0_6b per-partition run on $chip" compiled_vs_eager "$SHARED/models/qwen_3_0_6b_shlo.mlir" "$chip"
    done
    # ... and every partition on its own simulated chip with values: the
    # outputs against the interpreter's 8-process run, at the chip's DEFAULT
    # precision: the interpreter multiplies as the chip does (a TPU's f32
    # matmul in one bf16 pass; docs/golden-interpreter.md "Target precision")
    for chip in trn2 tpu-v5e; do
        run "models/qwen_3_0_6b on 8 $chip chips --check" spmd_check "$SHARED/models/qwen_3_0_6b_shlo.mlir" "$chip"
    done
fi

if [ -z "$ONLY" ] || [ "$ONLY" = fuzz ]; then
    echo "fuzz corpus replay:"
    for r in $(find "$B/fuzz" -type f -name 'replay_*' -perm -u+x 2>/dev/null | sort); do
        target=${r##*/replay_}
        run "fuzz/$target" "$r" "fuzz/corpus/$target"
    done
    # the differential fuzzer (docs/fuzzing.md): its reproducers, then a short
    # deterministic run (fixed seeds: any finding fails)
    if [ -x "$B/fuzz/diff_fuzz" ]; then
        run "fuzz/diff_fuzz reproducers" "$B/fuzz/diff_fuzz" --replay fuzz/corpus/diff_fuzz
        run "fuzz/diff_fuzz --seed 1 (100 programs)" "$B/fuzz/diff_fuzz" --seed 1 --iterations 100 --max-ops 150 \
            --no-minimize --out "$B/test-out/diff_fuzz"
    fi
fi

echo
echo "summary: $pass passed, $fail failed"
if [ "$fail" -ne 0 ]; then
    echo "failed:$failed"
    exit 1
fi
