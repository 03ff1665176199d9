#!/bin/sh
# make install into a temporary PREFIX, then a tiny C program built against
# the installed copy with pkg-config (shared library), run; the installed
# command and the Python package used from there.  B: the build directory.
set -u
B=${1:-build/debug}
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
make --no-print-directory -s B="$B" install PREFIX="$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
for f in bin/npusim lib/libnpusim.a lib/libnpusim.so lib/pkgconfig/npusim.pc include/npusim/npusim.h \
    include/npusim/npusim_api.h include/npusim/runtime/runtime.h share/npusim/chips/trn2.chip; do
    [ -e "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
if ls "$prefix"/include/npusim/*/*_internal.h >/dev/null 2>&1; then echo "private headers installed"; exit 1; fi
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion npusim)" = "$("$B/npusim" --version | cut -d' ' -f2)" ] || { echo "npusim.pc: wrong version"; exit 1; }
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror tests/install/hello.c -o "$tmp/hello" $(pkg-config --cflags --libs npusim) || exit 1
# it must use the installed library, not the build tree's
LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/hello" | grep -q "$prefix/lib/libnpusim.so" || { echo "not linked to the installed .so"; exit 1; }
printf 'func.func @main(%%a: tensor<4xf32>) -> tensor<4xf32> {\n  %%0 = stablehlo.multiply %%a, %%a : tensor<4xf32>\n  return %%0 : tensor<4xf32>\n}\n' >"$tmp/m.mlir"
# away from the tree: the installed chip files must be found (NPUSIM_CHIPS unset)
(cd "$tmp" && env -u NPUSIM_CHIPS LD_LIBRARY_PATH="$prefix/lib" ./hello m.mlir run.txt) || { cat "$tmp/run.txt" 2>/dev/null; exit 1; }
grep -q "check output 0 tensor<4xf32>: ok" "$tmp/run.txt" || { echo "the run's check is missing:"; cat "$tmp/run.txt"; exit 1; }
(cd "$tmp" && env -u NPUSIM_CHIPS "$prefix/bin/npusim" run m.mlir --chip tpu-v5e --random-inputs 1 --check) | grep -q ": ok" ||
    { echo "the installed npusim does not run"; exit 1; }
# the installed Python package finds the installed library and chips
py=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "no python3 with numpy (scripts/install-deps.sh installs python3-numpy)"; exit 1; }
(cd "$tmp" && env -u NPUSIM_CHIPS -u NPUSIM_LIB PYTHONPATH="$prefix/lib/python3/dist-packages" "$py" -c "
import npusim, numpy as np
assert npusim._lib._npusim_path.startswith('$prefix'), npusim._lib._npusim_path
outs, rep = npusim.run('m.mlir', chip='trn2', inputs=[np.arange(4, dtype=np.float32)], check=True)
assert rep['passed'] and outs[0].tolist() == [0, 1, 4, 9], (outs, rep['passed'])
print('installed python package: ok')
") || exit 1
echo "installed in $prefix, hello built with pkg-config: ok"
