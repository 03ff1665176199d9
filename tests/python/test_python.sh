#!/bin/sh
# python/npusim (ctypes over libnpusim.so) with Debian's python3-numpy: the
# package imports from the build tree and its calls give what numpy and the
# npusim command give.  B: the build directory.
set -u
B=${1:-build/debug}
cd "$(dirname "$0")/../.." || exit 2
# the first python3 with numpy (pyenv's may lack the Debian package's)
py=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "no python3 with numpy (scripts/install-deps.sh installs python3-numpy)"; exit 1; }
# from the build tree: PYTHONPATH=python finds the package, NPUSIM_LIB this build's library
export PYTHONPATH=python NPUSIM_LIB="$B/libnpusim.so" B
"$py" -c 'import npusim' || exit 1
# the first python3 on PATH too, numpy or not (parse, estimate and command need none)
python3 -c 'import npusim; npusim.parse("func.func @f() { return }")' || exit 1
exec "$py" tests/python/test_npusim.py
