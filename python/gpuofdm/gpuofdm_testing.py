#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What the QA files share: where the sources and the standards' vectors are, how the
vectors' octet files read, and why the GPU cases skip. Not installed; the qa_*.py scripts
import it from their own folder."""

import os
import threading

import numpy as np
import pmt
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


def make_pdu(data, **meta):
    """A PDU: (dict of the keyword arguments, u8vector of the octets)."""
    d = pmt.make_dict()
    for k, v in meta.items():
        d = pmt.dict_add(d, pmt.intern(k), pmt.to_pmt(v))
    return pmt.cons(d, pmt.init_u8vector(len(data), [int(b) for b in data]))


def run_with_timeout(tb, timeout=120):
    """tb.run() that fails instead of hanging: stops the flowgraph after `timeout` s."""
    t = threading.Thread(target=tb.run, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        tb.stop()
        tb.wait()
        raise AssertionError("the flowgraph did not end within %g s" % timeout)


def pdus_of(dbg):
    """[(metadata as a dict of PMTs by key, payload as a uint8 array)] of a message_debug's
    stored PDUs (a receiver's output)."""
    out = []
    for i in range(dbg.num_messages()):
        m = dbg.get_message(i)
        items = pmt.dict_items(pmt.car(m))
        d = {pmt.symbol_to_string(pmt.car(kv)): pmt.cdr(kv)
             for kv in (pmt.nth(k, items) for k in range(pmt.length(items)))}
        out.append((d, np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8)))
    return out
