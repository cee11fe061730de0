#!/usr/bin/env bash
# The main job: builds (installing what is missing) and runs the OFDM loopback demo,
# random symbols through ofdm_ifft -> ofdm_fft on the GPU when there is one, else on the
# CPU twin; prints throughput and the round-trip error. Extra arguments go to the demo
# (try --help).
# SPDX-License-Identifier: GPL-3.0-or-later
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
gpuofdm_build
exec "$GPUOFDM_BUILD/apps/gpuofdm_demo/gpuofdm_demo" "$@"
