#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""
gr-gpuofdm: OFDM and 5G physical-layer blocks on an NVIDIA GPU, each with an exact
CPU twin, so every flowgraph also runs where there is no GPU.
"""

# gnuradio.gr registers the base classes the bindings derive from.
from gnuradio import gr  # noqa: F401

from .gpuofdm_python import *  # noqa: F401,F403
