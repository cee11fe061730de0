#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What the QA files share: where the sources and the standards' vectors are, how the
vectors' octet files read, and why the GPU cases skip. Not installed; the qa_*.py scripts
import it from their own folder."""

import os

from gnuradio import gpuofdm


def source_dir():
    """The source tree: $GPUOFDM_SOURCE_DIR (ctest sets it), else two levels up."""
    return os.path.abspath(os.environ.get(
        "GPUOFDM_SOURCE_DIR",
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))


def testvector_dir():
    """$GPUOFDM_TESTVECTORS, else ../shared/testvectors beside the source tree."""
    env = os.environ.get("GPUOFDM_TESTVECTORS")
    if env:
        return env
    return os.path.join(source_dir(), "..", "shared", "testvectors")


def read_octet_bits(path):
    """Hex octets one a line ('#' comments), the first bit in time the MSB."""
    with open(path) as f:
        octets = [int(line, 16) for line in f if line.strip() and not line.startswith("#")]
    return [(o >> (7 - i)) & 1 for o in octets for i in range(8)]


def gpu_reason():
    """Why the GPU cases skip here, or '' when a GPU is usable."""
    return gpuofdm.gpu_unusable_reason(0)
