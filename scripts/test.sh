#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test (core GoogleTest,
# Python QA in flowgraphs, the GRC examples, the benchmark smoke run). CUDA tests skip
# with a message where no GPU is usable.
# SPDX-License-Identifier: GPL-3.0-or-later
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# The module's own warnings are errors here (and so in CI); install.sh builds without that.
export GPUOFDM_WERROR="${GPUOFDM_WERROR:-ON}"
gpuofdm_build
cd "$GPUOFDM_BUILD"
ctest --output-on-failure -j "$GPUOFDM_JOBS" "$@"
