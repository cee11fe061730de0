#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""
gr-gpuofdm: OFDM physical-layer blocks (802.11a, 802.16) on an NVIDIA GPU, each with an
exact CPU twin, so every flowgraph also runs where there is no GPU; SigMF recordings
(gpuofdm.sigmf_source, sigmf_sink, sigmf_annotator).
"""

# gnuradio.gr registers the base classes the bindings derive from.
from gnuradio import gr  # noqa: F401

from .gpuofdm_python import *  # noqa: F401,F403
from .sigmf import sigmf_annotator, sigmf_sink, sigmf_source  # noqa: F401
