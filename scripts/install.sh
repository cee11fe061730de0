#!/usr/bin/env bash
# Builds and installs the module (default prefix /usr/local) so that
# `python3 -c "from gnuradio import gpuofdm"` and GNU Radio Companion find it. Debian's GRC
# already searches /usr/local/share/gnuradio/grc/blocks; for another prefix, add its
# share/gnuradio/grc/blocks to GRC_BLOCKS_PATH.
# SPDX-License-Identifier: GPL-3.0-or-later
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
gpuofdm_build
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo cmake --install "$GPUOFDM_BUILD"
$sudo ldconfig
echo "gr-gpuofdm installed under $(grep CMAKE_INSTALL_PREFIX: "$GPUOFDM_BUILD/CMakeCache.txt" | cut -d= -f2)"
