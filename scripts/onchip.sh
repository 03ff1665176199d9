#!/bin/sh
# How many conformance cases run wholly on chip: every case (a file, or each
# '// -----' chunk of one) through `npusim coverage --json`; a case is on chip
# when no op of it is unsupported (host fallback included).
#   scripts/onchip.sh NPUSIM CHIP DIR...
# prints "CHIP: N cases, A wholly on chip, H with host steps, E not runnable"
set -u
npusim=$1 chip=$2
shift 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0 on=0 host=0 bad=0
for f in $(find "$@" -name '*.mlir' | sort); do
    rm -f "$tmp"/c.*
    awk -v d="$tmp" 'BEGIN { n = 0; out = d "/c.0.mlir" } /^\/\/ -----/ { n++; out = d "/c." n ".mlir"; next } { print > out }' "$f"
    for c in "$tmp"/c.*.mlir; do
        n=$((n + 1))
        j=$("$npusim" coverage "$c" --chip "$chip" --json 2>/dev/null | head -1)
        u=$(echo "$j" | sed -n 's/.*"unsupported": \([0-9]*\).*/\1/p')
        h=$(echo "$j" | sed -n 's/.*"host": \([0-9]*\).*/\1/p')
        if [ -z "$u" ]; then bad=$((bad + 1))
        elif [ "$u" -eq 0 ]; then on=$((on + 1))
        elif [ "$u" -eq "$h" ]; then host=$((host + 1))
        else bad=$((bad + 1)); fi
    done
done
echo "$chip: $n cases, $on wholly on chip, $host with host steps, $bad not runnable"
