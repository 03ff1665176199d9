#!/bin/sh
# Real StableHLO exports that nobody here wrote (tests/data/models, SOURCE.txt):
# each must parse and verify, have every op lowered for trn2 and tpu-v6e (an op
# the chip cannot run may fall back to the host: counted and printed, never an
# error) with the op and kind counts MANIFEST records, and run timing-only on
# both chips.  Prints one line per export and chip: ops, host ops, simulated time.
#   tests/models/test_field.sh BUILD_DIR
set -u
B=${1:-build/debug}
NPUSIM="$B/npusim"
D=tests/data/models
fails=0
fail() {
    echo "FAIL $*"
    fails=$((fails + 1))
}
list=$(mktemp)
trap 'rm -f "$list"' EXIT
grep -v '^#' "$D/MANIFEST" >"$list"
while read -r file ops kinds opts; do
    [ -n "$file" ] || continue
    f="$D/$file"
    out=$("$NPUSIM" parse "$f" 2>&1) || { fail "$file: parse: $out"; continue; }
    printf '%s\n' "$out" | grep -q 'ok (verified)' || fail "$file: parse did not verify: $out"
    for chip in trn2 tpu-v6e; do
        cov=$("$NPUSIM" coverage "$f" --chip "$chip" 2>&1)
        st=$?
        head=$(printf '%s\n' "$cov" | head -n 1)
        # "F on C: N ops of K kinds, X not lowered (Y of them run on the host)"
        n=$(printf '%s\n' "$head" | sed -n 's/.*: \([0-9]*\) ops of \([0-9]*\) kinds.*/\1/p')
        k=$(printf '%s\n' "$head" | sed -n 's/.*: \([0-9]*\) ops of \([0-9]*\) kinds.*/\2/p')
        x=$(printf '%s\n' "$head" | sed -n 's/.*kinds, \([0-9]*\) not lowered.*/\1/p')
        y=$(printf '%s\n' "$head" | sed -n 's/.*(\([0-9]*\) of them run on the host).*/\1/p')
        [ -n "$y" ] || y=0
        if [ "$st" -ne 0 ] || [ "$n" != "$ops" ] || [ "$k" != "$kinds" ] || [ "$x" != "$y" ]; then
            fail "$file on $chip: coverage (exit $st; want $ops ops of $kinds kinds, none unsupported):"
            printf '%s\n' "$cov" | head -n 40 | sed 's/^/    /'
            continue
        fi
        # shellcheck disable=SC2086 # opts: options, split on purpose
        run=$("$NPUSIM" run "$f" --chip "$chip" --timing-only $opts 2>&1)
        st=$?
        total=$(printf '%s\n' "$run" | sed -n 's/^total: [0-9]* ps = \([0-9.]*\) us.*/\1/p' | head -n 1)
        if [ "$st" -ne 0 ] || [ -z "$total" ]; then
            fail "$file on $chip: run --timing-only (exit $st):"
            printf '%s\n' "$run" | tail -n 20 | sed 's/^/    /'
            continue
        fi
        printf 'ok   %-42s %-8s %5s ops, %s on the host, %12s us simulated\n' "$file" "$chip" "$n" "$y" "$total"
    done
done <"$list"
if [ "$fails" -ne 0 ]; then
    echo "$fails failed"
    exit 1
fi
echo "all exports of $D/MANIFEST parse, verify, are lowered and run timing-only on trn2 and tpu-v6e"
