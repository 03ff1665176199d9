#!/bin/sh
# The lint (scripts/lint.sh) on the real tree must pass, and on small trees
# that break each rule once it must fail and name the rule.
#   tests/lint/test_lint.sh BUILD_DIR
set -u
B=${1:-build/debug}
top=$(cd "$(dirname "$0")/../.." && pwd)
lint="$top/scripts/lint.sh"
fails=0
check() { # name, expected exit (0/1), pattern in the output, ROOT
    out=$(ROOT="$4" "$lint" build 2>&1)
    st=$?
    if [ "$st" -ne "$2" ] || ! echo "$out" | grep -q "$3"; then
        echo "FAIL $1: exit $st, output:"; echo "$out" | sed 's/^/  /'; fails=$((fails + 1))
    else
        echo "ok   $1"
    fi
}

out=$("$lint" "$B" 2>&1) || { echo "FAIL the tree itself:"; echo "$out"; fails=$((fails + 1)); }
echo "$out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a tree of three modules: low (floor 1), mid and high (floor 2)
mk() { # dir
    mkdir -p "$1/docs" "$1/low" "$1/mid" "$1/high" "$1/build/low" "$1/build/mid" "$1/build/high"
    printf '| floor | folder | prefix | owns |\n|---|---|---|---|\n| 1 | low | low_ | x |\n| 2 | mid | mid_ | x |\n| 2 | high | high_ | x |\n' >"$1/docs/architecture.md"
    printf 'int low_f(void);\nint low_f(void) { return 1; }\n' >"$1/low/low.c"
    printf '#include "low/low.h"\nint mid_f(void);\nint mid_f(void) { return 2; }\n' >"$1/mid/mid.c"
    printf 'int high_f(void);\nint high_f(void) { return 3; }\n' >"$1/high/high.c"
}
build() { for m in low mid high; do cc -c -o "$1/build/$m/$m.o" "$1/$m/$m.c" -I"$1" 2>/dev/null || : > /dev/null; done; }

mk "$tmp/ok"; : >"$tmp/ok/low/low.h"; build "$tmp/ok"
check "a tree that keeps the rules" 0 "layers and prefixes hold" "$tmp/ok"

mk "$tmp/up"; : >"$tmp/up/low/low.h"; : >"$tmp/up/mid/mid.h"
printf '#include "mid/mid.h"\n' >>"$tmp/up/low/low.c"; build "$tmp/up"
check "an upward include" 1 "is above low/" "$tmp/up"

mk "$tmp/cycle"; : >"$tmp/cycle/low/low.h"; : >"$tmp/cycle/mid/mid.h"; : >"$tmp/cycle/high/high.h"
printf '#include "high/high.h"\n' >>"$tmp/cycle/mid/mid.c"; printf '#include "mid/mid.h"\n' >>"$tmp/cycle/high/high.c"; build "$tmp/cycle"
check "two folders that include each other" 1 "include each other" "$tmp/cycle"

mk "$tmp/priv"; : >"$tmp/priv/low/low.h"; : >"$tmp/priv/low/low_internal.h"
printf '#include "low/low_internal.h"\n' >>"$tmp/priv/mid/mid.c"; build "$tmp/priv"
check "a private header from outside" 1 "private header of low/" "$tmp/priv"

mk "$tmp/pref"; : >"$tmp/pref/low/low.h"
printf 'int helper(void);\nint helper(void) { return 4; }\n' >>"$tmp/pref/mid/mid.c"; build "$tmp/pref"
check "an export without the prefix" 1 "exports helper without the prefix of mid/" "$tmp/pref"

[ $fails -eq 0 ]
