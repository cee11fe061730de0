#!/usr/bin/env bash
# The main job: builds (installing what is missing) and runs the 802.11a loopback demo,
# random PSDUs through wifi_tx -> channels.channel_model -> wifi_rx on the GPU when there
# is one, else on the CPU twins; prints frames sent/received, PER, SNR and throughput.
# Extra arguments go to the demo (try --help; --mode ofdm for the FFT loopback).
# SPDX-License-Identifier: GPL-3.0-or-later
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
gpuofdm_build
exec "$GPUOFDM_BUILD/apps/gpuofdm_demo/gpuofdm_demo" "$@"
