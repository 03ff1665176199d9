#!/bin/sh
# The layer and prefix rules of docs/architecture.md, checked against the tree:
#   - a module includes only modules on its own floor or below, and never
#     another module's private header (*_internal.h);
#   - no two folders include each other, directly or through others;
#   - every global symbol a module's objects define carries one of its prefixes.
# The floors and prefixes are read from the table in docs/architecture.md.
#   scripts/lint.sh [BUILD_DIR]     (default build/debug; objects must be built)
#   ROOT=DIR scripts/lint.sh ...     check another tree (the lint's own test)
set -u
B=${1:-build/debug}
cd "${ROOT:-$(dirname "$0")/..}" || exit 2
table=docs/architecture.md

# "floor folder prefix,prefix" per module row of the table
rows=$(awk -F'|' '/^\| *[0-9]+ *\|/ {
    gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $4); print $2, $3, $4 }' "$table")
[ -n "$rows" ] || { echo "lint: no module table in $table"; exit 2; }

mods=$(echo "$rows" | awk '{ print $2 }')
bad=0
for m in $mods; do
    [ -d "$m" ] || { echo "lint: $table lists $m/, which does not exist"; bad=1; }
done

# every "mod/x.h" include of a module's files: FILE INCLUDE
incs=$(for m in $mods; do
    grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$m"/*.c "$m"/*.h 2>/dev/null
done | sed 's/^\([^:]*\):.*"\([^"]*\)".*/\1 \2/')
# floors, upward includes, private headers; "EDGE from to" lines for the cycle check
out=$(echo "$incs" | awk -v rows="$rows" '
    BEGIN { n = split(rows, r, "\n"); for (i = 1; i <= n; i++) { split(r[i], f, " "); floor[f[2]] = f[1] } }
    NF == 2 {
        split($1, a, "/"); m = a[1]; split($2, b, "/"); dep = b[1]
        if (dep == m) next
        print "EDGE " m " " dep
        if (!(dep in floor)) { print $1 ": includes " $2 ", from a folder that is not a module of the table"; bad = 1 }
        else if (floor[dep] + 0 > floor[m] + 0) { print $1 ": includes " $2 ": " dep "/ (floor " floor[dep] ") is above " m "/ (floor " floor[m] ")"; bad = 1 }
        if ($2 ~ /_internal\.h$/) { print $1 ": includes " $2 ", a private header of " dep "/"; bad = 1 }
    }')
echo "$out" | grep -v '^EDGE ' | grep . && bad=1
edges=$(echo "$out" | sed -n 's/^EDGE //p')

# cycles between folders (tsort reports a loop)
if ! echo "$edges" | sort -u | grep . | tsort >/dev/null 2>/tmp/lint.$$; then
    echo "folders include each other:"; sed 's/^/  /' /tmp/lint.$$; bad=1
fi
rm -f /tmp/lint.$$

# prefixes of exported symbols
for m in $(echo "$rows" | awk '{ print $2 }'); do
    prefixes=$(echo "$rows" | awk -v m="$m" '$2 == m { print $3 }' | tr ',' ' ')
    # a module the build left out (NO_SDL=1: visualizer/) has no objects
    [ -d "$B/$m" ] || { echo "lint: $m/ is not built in $B: its exports are not checked"; continue; }
    for c in "$m"/*.c; do
        [ -e "$c" ] || continue
        o="$B/${c%.c}.o"
        [ -e "$o" ] || { echo "lint: $o is not built (make first)"; bad=1; continue; }
        for s in $(nm -g --defined-only "$o" | awk 'NF == 3 { print $3 }'); do
            ok=0
            [ "$m" = tools ] && [ "$s" = main ] && ok=1
            # symbols the sanitizers add (ASan's one-definition-rule markers)
            case "$s" in __odr_asan*|__asan*|__ubsan*|__sancov*) ok=1 ;; esac
            for p in $prefixes; do
                case "$s" in "$p"*) ok=1 ;; esac
                up=$(echo "$p" | tr 'a-z' 'A-Z')
                case "$s" in "$up"*) ok=1 ;; esac
            done
            [ $ok = 1 ] || { echo "${o#"$B"/}: exports $s without the prefix of $m/ ($prefixes)"; bad=1; }
        done
    done
done

[ $bad = 0 ] && echo "lint: layers and prefixes hold ($(echo "$rows" | wc -l) modules)"
exit $bad
