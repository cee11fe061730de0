# Shared by the scripts: paths and the one build step. Source it, do not run it.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
GPUOFDM_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GPUOFDM_BUILD="${GPUOFDM_BUILD:-$GPUOFDM_SRC/build}"
GPUOFDM_JOBS="${GPUOFDM_JOBS:-$(nproc)}"

# Installs the Debian packages the module needs (idempotent), then configures and builds.
gpuofdm_build() {
    "$GPUOFDM_SRC/scripts/install_deps.sh"
    local cuda=ON
    if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
        echo "gr-gpuofdm: no CUDA toolkit found; building the CPU twins only (GPUOFDM_CUDA=OFF)"
        cuda=OFF
    fi
    cmake -S "$GPUOFDM_SRC" -B "$GPUOFDM_BUILD" -DCMAKE_BUILD_TYPE=Release -DGPUOFDM_CUDA=$cuda \
        -DGPUOFDM_WERROR="${GPUOFDM_WERROR:-OFF}" ${GPUOFDM_CMAKE_ARGS:-}
    cmake --build "$GPUOFDM_BUILD" -j "$GPUOFDM_JOBS"
}
