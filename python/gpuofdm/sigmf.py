#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""
SigMF recordings in flowgraphs: FILE.sigmf-meta (JSON: datatype, sample rate, captures
with the centre frequency, annotations) beside FILE.sigmf-data (the samples), for the
datatypes cf32_le, ci16_le and ci8; raw interleaved I/Q (cf32, cs16, cs8) as well.
Integers are read as value / 32768 (int16) and value / 128 (int8); the sink writes
round(x * 32767 / full_scale) and round(x * 127 / full_scale), clipped.

  sigmf_source(path, raw_format="cf32", repeat=False)   complex samples out
  sigmf_sink(path, datatype="cf32_le", sample_rate=20e6, frequency=0.0, ...)
  sigmf_annotator(meta_path, ...)   wifi_rx / wimax_rx PDUs in ("start" in their
                                    metadata), one annotation each, written at the end

The C++ apps read the same files (apps/common/sigmf.h).
"""

import datetime
import json
import os
import threading

import numpy as np
import pmt
from gnuradio import blocks, gr

#: The --format names of the apps and the SigMF datatypes, to the SigMF datatype.
DATATYPES = {
    "cf32": "cf32_le", "cf32_le": "cf32_le",
    "cs16": "ci16_le", "ci16_le": "ci16_le", "ci16": "ci16_le",
    "cs8": "ci8", "ci8": "ci8", "ci8_le": "ci8",
}
#: Per datatype: bytes per I/Q pair, the integer full scale (reading), the largest value.
_LAYOUT = {"cf32_le": (8, 1.0, 1.0), "ci16_le": (4, 32768.0, 32767.0),
           "ci8": (2, 128.0, 127.0)}

# 802.11a: data bits per OFDM symbol for each rate (the length of an annotated frame).
_N_DBPS = {6: 24, 9: 36, 12: 48, 18: 72, 24: 96, 36: 144, 48: 192, 54: 216}


def datatype_of(name):
    """The SigMF datatype for cf32 / cs16 / cs8 or a SigMF datatype; ValueError else."""
    try:
        return DATATYPES[str(name)]
    except KeyError:
        raise ValueError("datatype: cf32, cs16 or cs8 (SigMF cf32_le, ci16_le, ci8), "
                         "got {!r}".format(name)) from None


def base_path(path):
    """FILE for FILE.sigmf-meta, FILE.sigmf-data, or FILE with a FILE.sigmf-meta beside
    it; None for another file (raw I/Q)."""
    for ext in (".sigmf-meta", ".sigmf-data"):
        if path.endswith(ext):
            return path[:-len(ext)]
    return path if os.path.isfile(path + ".sigmf-meta") else None


def read_meta(path):
    """The metadata of a SigMF recording (any of its names) as a dict; ValueError when it
    is not SigMF or has a datatype this module does not read."""
    base = base_path(path)
    if base is None:
        raise ValueError("path: {} is not a SigMF recording (no {}.sigmf-meta)".format(
            path, path))
    with open(base + ".sigmf-meta") as f:
        meta = json.load(f)
    if "global" not in meta or "core:datatype" not in meta["global"]:
        raise ValueError("path: {}.sigmf-meta has no global core:datatype".format(base))
    datatype_of(meta["global"]["core:datatype"])
    return meta


def write_meta(path, datatype="cf32_le", sample_rate=20e6, frequency=0.0, description="",
               author="", hw="", annotations=()):
    """Writes FILE.sigmf-meta (path: FILE or one of its SigMF names)."""
    base = base_path(path) or path
    glob = {"core:datatype": datatype_of(datatype), "core:version": "1.0.0",
            "core:sample_rate": float(sample_rate), "core:description": description,
            "core:recorder": "gr-gpuofdm"}
    if author:
        glob["core:author"] = author
    if hw:
        glob["core:hw"] = hw
    capture = {"core:sample_start": 0,
               "core:datetime": datetime.datetime.now(datetime.timezone.utc).strftime(
                   "%Y-%m-%dT%H:%M:%SZ")}
    if frequency:
        capture["core:frequency"] = float(frequency)
    meta = {"global": glob, "captures": [capture], "annotations": list(annotations)}
    with open(base + ".sigmf-meta", "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    return base + ".sigmf-meta"


class sigmf_source(gr.hier_block2):
    """
    A recording as complex samples: SigMF (path FILE.sigmf-meta, FILE.sigmf-data, or FILE
    with a FILE.sigmf-meta beside it; its datatype is used) or raw interleaved I/Q in
    raw_format (cf32, cs16, cs8). After construction: sample_rate (0 when raw),
    frequency (0 when not given), datatype, meta (the SigMF dict, {} when raw).
    """

    def __init__(self, path, raw_format="cf32", repeat=False):
        gr.hier_block2.__init__(self, "sigmf_source", gr.io_signature(0, 0, 0),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex))
        path = str(path)
        base = base_path(path)
        if base is not None:
            self.meta = read_meta(base)
            self.datatype = datatype_of(self.meta["global"]["core:datatype"])
            data = base + ".sigmf-data"
            self.sample_rate = float(self.meta["global"].get("core:sample_rate", 0.0))
            caps = self.meta.get("captures") or [{}]
            self.frequency = float(caps[0].get("core:frequency", 0.0))
        else:
            self.meta = {}
            self.datatype = datatype_of(raw_format)
            data, self.sample_rate, self.frequency = path, 0.0, 0.0
        if not os.path.isfile(data):
            raise ValueError("path: {} does not exist".format(data))
        _, scale, _ = _LAYOUT[self.datatype]
        if self.datatype == "cf32_le":
            src = blocks.file_source(gr.sizeof_gr_complex, data, bool(repeat))
            self.connect(src, self)
            return
        size = gr.sizeof_short if self.datatype == "ci16_le" else gr.sizeof_char
        src = blocks.file_source(size, data, bool(repeat))
        if self.datatype == "ci16_le":
            conv = blocks.interleaved_short_to_complex(False, False, scale)
        else:
            conv = blocks.interleaved_char_to_complex(False, scale)
        self.connect(src, conv, self)


class _sample_count(gr.sync_block):
    """Counts what the sink writes; says it when the flowgraph stops."""

    def __init__(self, data_path, sample_rate):
        gr.sync_block.__init__(self, name="sigmf_sample_count", in_sig=[np.complex64],
                               out_sig=None)
        self.data_path, self.sample_rate, self.samples = data_path, sample_rate, 0

    def work(self, input_items, output_items):
        self.samples += len(input_items[0])
        return len(input_items[0])

    def stop(self):
        print("sigmf_sink: {} samples ({:.3f} s at {:.6g} Msps) in {}".format(
            self.samples, self.samples / self.sample_rate, self.sample_rate / 1e6,
            self.data_path), flush=True)
        return True


class sigmf_sink(gr.hier_block2):
    """
    Complex samples into FILE.sigmf-data with FILE.sigmf-meta beside it (path: FILE or
    FILE.sigmf-data / .sigmf-meta), the metadata written at construction: datatype
    (cf32_le / ci16_le / ci8, or cf32 / cs16 / cs8), sample_rate, frequency (the centre
    frequency of the capture, 0: not given), description, author, hw. Integers hold
    x * 32767 / full_scale (int16) or x * 127 / full_scale (int8), clipped: choose
    full_scale above the signal's peaks. Prints the samples written when the flowgraph
    stops.
    """

    def __init__(self, path, datatype="cf32_le", sample_rate=20e6, frequency=0.0,
                 description="", author="", hw="", full_scale=1.0):
        gr.hier_block2.__init__(self, "sigmf_sink",
                                gr.io_signature(1, 1, gr.sizeof_gr_complex),
                                gr.io_signature(0, 0, 0))
        self.datatype = datatype_of(datatype)
        if not float(sample_rate) > 0:
            raise ValueError("sample_rate: must be > 0, got {}".format(sample_rate))
        if not float(full_scale) > 0:
            raise ValueError("full_scale: must be > 0, got {}".format(full_scale))
        path = str(path)
        for ext in (".sigmf-meta", ".sigmf-data"):
            if path.endswith(ext):
                path = path[:-len(ext)]
        self.base = path
        self.meta_path = write_meta(path, self.datatype, sample_rate, frequency, description,
                                    author, hw)
        data = path + ".sigmf-data"
        # A Python block lives as long as a reference to it does.
        self._count = _sample_count(data, float(sample_rate))
        self.connect(self, self._count)
        _, _, top = _LAYOUT[self.datatype]
        if self.datatype == "cf32_le":
            self.connect(self, blocks.file_sink(gr.sizeof_gr_complex, data, False))
            return
        scale = top / float(full_scale)
        if self.datatype == "ci16_le":
            conv = blocks.complex_to_interleaved_short(False, scale)
            sink = blocks.file_sink(gr.sizeof_short, data, False)
        else:
            conv = blocks.complex_to_interleaved_char(False, scale)
            sink = blocks.file_sink(gr.sizeof_char, data, False)
        self.connect(self, conv, sink)


def _frame_samples(meta):
    """Samples of an 802.11a PPDU (preamble, SIGNAL, DATA) from wifi_rx's metadata."""
    rate, length = meta.get("rate"), meta.get("psdu_len")
    if rate not in _N_DBPS or length is None:
        return None
    bits = 16 + 8 * int(length) + 6
    return 400 + 80 * (-(-bits // _N_DBPS[rate]))


class sigmf_annotator(gr.basic_block):
    """
    wifi_rx / wimax_rx PDUs in (port "pdus"; their metadata has "start", the frame's
    first sample): one SigMF annotation per PDU (core:sample_start, core:sample_count for
    802.11a, a label with the rate or profile, a comment with the length, FCS / ok flag
    and SNR), written into meta_path (FILE.sigmf-meta of the recording the receiver
    reads, or a new file; "": none) when the flowgraph stops. good_only: only frames that
    passed their check.
    """

    def __init__(self, meta_path, sample_rate=20e6, good_only=True):
        gr.basic_block.__init__(self, name="sigmf_annotator", in_sig=None, out_sig=None)
        path = str(meta_path)
        # "" (a GRC parameter left empty): nothing is written.
        self.meta_path = (path if not path or path.endswith(".sigmf-meta")
                          else path + ".sigmf-meta")
        self.sample_rate = float(sample_rate)
        self.good_only = bool(good_only)
        self.annotations = []
        self._lock = threading.Lock()
        self.message_port_register_in(pmt.intern("pdus"))
        self.set_msg_handler(pmt.intern("pdus"), self._handle)

    def _handle(self, msg):
        if not pmt.is_pair(msg) or not pmt.is_dict(pmt.car(msg)):
            return
        meta = pmt.to_python(pmt.car(msg))
        n = len(pmt.u8vector_elements(pmt.cdr(msg))) if pmt.is_u8vector(pmt.cdr(msg)) else 0
        ok = bool(meta.get("crc_ok", meta.get("ok", True)))
        if "start" not in meta or (self.good_only and not ok):
            return
        ann = {"core:sample_start": int(meta["start"])}
        if "rate" in meta:
            meta.setdefault("psdu_len", n)
            count = _frame_samples(meta)
            if count:
                ann["core:sample_count"] = count
            ann["core:label"] = "802.11a {} Mb/s".format(meta["rate"])
        elif "profile" in meta:
            ann["core:label"] = "802.16 profile {}".format(meta["profile"])
        ann["core:comment"] = "{} octets, {}, SNR {:.1f} dB".format(
            n, "ok" if ok else "bad", float(meta.get("snr_db", 0.0)))
        with self._lock:
            self.annotations.append(ann)

    def stop(self):
        if not self.meta_path:
            return True
        with self._lock:
            anns = sorted(self.annotations, key=lambda a: a["core:sample_start"])
        if os.path.isfile(self.meta_path):
            with open(self.meta_path) as f:
                meta = json.load(f)
        else:
            meta = {"global": {"core:datatype": "cf32_le", "core:version": "1.0.0",
                               "core:sample_rate": self.sample_rate},
                    "captures": [{"core:sample_start": 0}]}
        meta["annotations"] = anns
        with open(self.meta_path, "w") as f:
            json.dump(meta, f, indent=2)
            f.write("\n")
        return True
