#!/bin/sh
# Installs the Debian packages npusim needs, only those that are missing.
# Uses sudo only when not root. Safe to run repeatedly.
#   scripts/install-deps.sh           build, test and demo packages
#   scripts/install-deps.sh --bench   also OpenBLAS (the GEMM benchmark's reference; `make bench`)
set -eu

# libopenmpi-dev, openmpi-bin: npusim run over MPI ranks (docs/distributed.md) and its test
PKGS="build-essential pkg-config clang libclang-rt-14-dev zlib1g-dev libcmocka-dev \
libsdl2-dev libsdl2-ttf-dev fonts-dejavu-core xvfb xauth python3 python3-numpy libopenmpi-dev openmpi-bin"
for arg in "$@"; do
    case "$arg" in
    --bench) PKGS="$PKGS libopenblas-dev" ;;
    *) echo "install-deps: unknown option $arg (want --bench)" >&2; exit 2 ;;
    esac
done

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo to install:$missing" >&2; exit 1; }
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
