#!/bin/sh
# Chrome's trace engine (npm @paulirish/trace_engine, the DevTools
# performance panel's model) must link every flow of npusim's JSON traces.
# The package is installed into $B/node (not committed): .ci/run does it,
# and so does this script when it is missing and npm can reach the registry.
# Without node the test is skipped with a message, except in CI, where it fails.
set -u
B=${1:-build/debug}
ENGINE_VERSION=0.0.65
if ! command -v node >/dev/null 2>&1; then
    if [ "${CI:-}" = true ]; then echo "node is missing (CI installs nodejs: .ci/run)"; exit 1; fi
    echo "SKIP: node is not installed (apt-get install nodejs npm); Chrome's trace engine test not run"
    exit 0
fi
ENGINE="$B/node/node_modules/@paulirish/trace_engine"
# another build's copy will do (check-asan runs after check)
[ -f "$ENGINE/models/trace/trace.js" ] || [ ! -f build/debug/node/node_modules/@paulirish/trace_engine/models/trace/trace.js ] ||
    ENGINE=build/debug/node/node_modules/@paulirish/trace_engine
if [ ! -f "$ENGINE/models/trace/trace.js" ]; then
    echo "installing @paulirish/trace_engine@$ENGINE_VERSION into $B/node"
    mkdir -p "$B/node"
    npm install --prefix "$B/node" --no-audit --no-fund --loglevel=error "@paulirish/trace_engine@$ENGINE_VERSION" || {
        echo "cannot install @paulirish/trace_engine (npm install --prefix $B/node @paulirish/trace_engine)"
        exit 1
    }
fi
OUT="$B/test-out/trace_engine"
mkdir -p "$OUT"
M=examples/transformer_block.mlir
set -e
"$B/npusim" run "$M" --chip trn2 --random-inputs 1 --trace "$OUT/trn2.json" >/dev/null 2>&1
"$B/npusim" run "$M" --chip tpu-v6e --mode eager --random-inputs 1 --trace "$OUT/v6e-eager.json.gz" >/dev/null 2>&1
# every chip of a 4-chip tensor-parallel run, with collectives and links
"$B/npusim" run "$M" --chip trn2 --random-inputs 1 --mesh model=4 --shard wq=_,model --shard wk=_,model \
    --shard wv=_,model --shard wo=model,_ --shard w_gate=_,model --shard w_up=_,model --shard w_down=model,_ \
    --trace "$OUT/trn2-4chips.json" >/dev/null 2>&1
node tests/traces/trace_engine.mjs "$ENGINE" "$OUT/trn2.json" "$OUT/v6e-eager.json.gz" "$OUT/trn2-4chips.json"
