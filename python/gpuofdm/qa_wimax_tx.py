#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""wimax_tx in flowgraphs: the 802.16-2004 8.3.3.5.1 burst demodulated with numpy (CP
removal and FFT) gives back the interleaved bits of the standard on the data subcarriers
and the pilots of 8.3.3.4.2; several bursts with their tags and gaps; the preamble's
repetitions; bad PDUs dropped; CUDA against the CPU twin."""

import math
import os
import threading

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import testvector_dir

PDUS = pmt.intern("pdus")
UNIT_POWER = 256 / math.sqrt(200)
BLOCK = [12, 24, 36, 48, 72, 96, 108]          # K of Table 215, rate_id 0..6
BPSC = [1, 2, 2, 4, 4, 6, 6]
PILOTS = [-88, -63, -38, -13, 13, 38, 63, 88]
RUN_TIMEOUT_S = 60


def octets(name):
    path = os.path.join(testvector_dir(), "ieee80216-ofdm", name)
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return [int(line.split()[0], 16) for line in f
                if line.strip() and not line.startswith("#")]


def prbs_w(n, uplink):
    """w_k of 8.3.3.4.2: X^11 + X^9 + 1, r1..r11 from 11111111111 (DL) / 10101010101 (UL)."""
    r = [None] + [(i % 2) if uplink else 1 for i in range(1, 12)]
    w = []
    for _ in range(n):
        w.append(r[11])
        fb = r[9] ^ r[11]
        r = [None, fb] + r[1:11]
    return w


def pilot_values(w, uplink):
    a, b = 1 - 2 * w, 1 - 2 * (1 - w)
    return [a, b, a, b, a, a, a, a] if uplink else [a, b, a, b, b, b, a, a]


def data_carriers():
    return [c for c in range(-100, 101) if c != 0 and c not in PILOTS]


def symbols(x, n_pre, n_sym, cp, scale):
    """Frequency-domain symbols (subcarrier c at index c % 256) after CP removal."""
    sym = 256 + cp
    out = []
    for j in range(n_pre + n_sym):
        body = x[j * sym + cp:(j + 1) * sym]
        out.append(np.fft.fft(body) / scale)
    return out


def make_pdu(data, **meta):
    d = pmt.make_dict()
    for k, v in meta.items():
        d = pmt.dict_add(d, pmt.intern(k), pmt.to_pmt(v))
    return pmt.cons(d, pmt.init_u8vector(len(data), [int(b) for b in data]))


def run_with_timeout(tb, timeout=RUN_TIMEOUT_S):
    t = threading.Thread(target=tb.run, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        tb.stop()
        tb.wait()
        raise AssertionError("the flowgraph did not end within %g s" % timeout)


def start_tags(snk):
    out = []
    for t in snk.tags():
        if pmt.symbol_to_string(t.key) == "wimax_start":
            v = t.value
            out.append((t.offset, {k: pmt.to_long(pmt.dict_ref(v, pmt.intern(k), pmt.PMT_NIL))
                                   for k in ("profile", "n_bytes", "n_symbols", "seed",
                                             "n_samples")}))
    return sorted(out, key=lambda x: x[0])


class qa_wimax_tx(gr_unittest.TestCase):

    def run_pdus(self, msgs, device="cpu", **kw):
        tb = gr.top_block()
        blk = gpuofdm.wimax_tx(device=device, **kw)
        snk = blocks.vector_sink_c()
        tb.connect(blk, snk)
        for m in msgs:
            blk._post(PDUS, m)
        blk._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))
        run_with_timeout(tb)
        return np.array(snk.data(), dtype=np.complex64), start_tags(snk), blk

    def test_001_example_burst_demodulates_to_the_standard(self):
        data, il = octets("input.txt"), octets("interleaved.txt")
        if data is None or il is None:
            self.skipTest("802.16 test vectors absent; set GPUOFDM_TESTVECTORS")
        seed = 0b000111011110001  # 8.3.3.5.1: BSID 1, IUC 7, frame 1
        x, tags, blk = self.run_pdus([make_pdu(data)], rate_id=2, seed=seed, gap_samples=0,
                                     pad=False)
        self.assertEqual(len(x), 3 * 320)
        self.assertEqual(tags, [(0, {"profile": 2, "n_bytes": 35, "n_symbols": 1,
                                     "seed": seed, "n_samples": 960})])
        f = symbols(x, 2, 1, 64, UNIT_POWER)[2]
        bits = np.unpackbits(np.array(il, dtype=np.uint8))
        # 802.16 QPSK (b0 -> I, b1 -> Q, 0 -> +1/sqrt(2)), lowest subcarrier first.
        want = ((1 - 2.0 * bits[0::2]) + 1j * (1 - 2.0 * bits[1::2])) / math.sqrt(2)
        got = np.array([f[c % 256] for c in data_carriers()])
        self.assertTrue(np.allclose(got, want, atol=1e-4))
        w = prbs_w(3, False)[2]
        self.assertTrue(np.allclose([f[c % 256] for c in PILOTS], pilot_values(w, False),
                                    atol=1e-4))
        nulls = [c for c in range(-128, 128) if c == 0 or abs(c) > 100]
        self.assertLess(np.max(np.abs([f[c % 256] for c in nulls])), 1e-4)

    def test_002_several_bursts_tags_gaps_pilots(self):
        rng = np.random.default_rng(4)
        msgs, want = [], []
        for i, rid in enumerate([0, 3, 6, 1, 5]):
            n = int(rng.integers(1, 700))
            data = rng.integers(0, 256, n, dtype=np.uint8)
            meta = {"rate_id": rid} if i % 2 == 0 else {}
            msgs.append(make_pdu(data, **meta))
            r = rid if i % 2 == 0 else 4
            want.append((r, n, -(-(n + 1) // BLOCK[r])))
        for uplink, pre, n_pre, cp_div in ((False, "long", 2, 4), (True, "short", 1, 16)):
            cp = 256 // cp_div
            x, tags, blk = self.run_pdus(msgs, rate_id=4, cp_div=cp_div, preamble=pre,
                                         uplink=uplink, gap_samples=77)
            self.assertEqual(len(tags), 5)
            off = 0
            for (o, t), (r, n, n_sym) in zip(tags, want):
                n_samples = (n_pre + n_sym) * (256 + cp)
                self.assertEqual(o, off)
                self.assertEqual(t, {"profile": r, "n_bytes": n, "n_symbols": n_sym,
                                     "seed": 19072, "n_samples": n_samples})
                burst = x[off:off + n_samples]
                self.assertTrue(np.all(x[off + n_samples:off + n_samples + 77] == 0))
                f = symbols(burst, n_pre, n_sym, cp, UNIT_POWER)
                w = prbs_w(n_pre + n_sym, uplink)
                for j in range(n_pre, n_pre + n_sym):
                    self.assertTrue(np.allclose([f[j][c % 256] for c in PILOTS],
                                                pilot_values(w[j], uplink), atol=1e-4),
                                    "burst at %d symbol %d" % (o, j))
                    # Data points on the grid of the profile's constellation.
                    m = BPSC[r]
                    k = {1: 1, 2: math.sqrt(2), 4: math.sqrt(10), 6: math.sqrt(42)}[m]
                    d = np.array([f[j][c % 256] for c in data_carriers()]) * k
                    levels = np.arange(-(2 ** (m // 2) - 1), 2 ** (m // 2), 2) if m > 1 else [-1, 1]
                    dist_i = np.min(np.abs(d.real[:, None] - np.array(levels)[None, :]), axis=1)
                    self.assertLess(np.max(dist_i), 1e-3)
                    if m == 1:
                        self.assertLess(np.max(np.abs(d.imag)), 1e-3)
                # CP is the end of the body.
                sym = 256 + cp
                for j in range(n_pre + n_sym):
                    s = burst[j * sym:(j + 1) * sym]
                    self.assertTrue(np.allclose(s[:cp], s[-cp:], atol=1e-5))
                off += n_samples + 77
            self.assertEqual(len(x), off)
            self.assertEqual(blk.bursts_sent(), 5)
            self.assertEqual(blk.pdus_dropped(), 0)

    def test_003_preamble_repetitions(self):
        x, _, _ = self.run_pdus([make_pdu(np.zeros(11, dtype=np.uint8))], rate_id=0,
                                gap_samples=0)
        # 8.3.3.6: the first symbol's body is 4 x 64 samples, the second's 2 x 128.
        b1, b2 = x[64:320], x[320 + 64:640]
        self.assertTrue(np.allclose(b1[:192], b1[64:], atol=1e-5))
        self.assertTrue(np.allclose(b2[:128], b2[128:], atol=1e-5))
        self.assertGreater(np.mean(np.abs(b1)), 0.1)

    def test_004_bad_pdus_dropped(self):
        good = make_pdu(np.arange(23, dtype=np.uint8))
        bad = [
            pmt.intern("not a pdu"),
            pmt.cons(pmt.from_long(3), pmt.init_u8vector(3, [1, 2, 3])),  # metadata not a dict
            pmt.cons(pmt.make_dict(), pmt.init_f32vector(2, [1.0, 2.0])),
            pmt.cons(pmt.make_dict(), pmt.init_u8vector(0, [])),
            make_pdu(np.zeros(5000, dtype=np.uint8)),
            make_pdu(np.arange(23, dtype=np.uint8), rate_id=7),
            make_pdu(np.arange(23, dtype=np.uint8), seed=0),
            make_pdu(np.arange(23, dtype=np.uint8), seed=40000),
        ]
        x, tags, blk = self.run_pdus(bad + [good], gap_samples=0)
        self.assertEqual(blk.pdus_dropped(), len(bad))
        self.assertEqual(len(tags), 1)
        # Without padding a partial block is dropped, a whole one goes out.
        x, tags, blk = self.run_pdus([make_pdu(np.arange(22, dtype=np.uint8), rate_id=0),
                                      make_pdu(np.arange(23, dtype=np.uint8), rate_id=0)],
                                     pad=False, gap_samples=0)
        self.assertEqual(blk.pdus_dropped(), 1)
        self.assertEqual([t["n_bytes"] for _, t in tags], [23])

    def test_005_bad_parameters(self):
        for kw in ({"rate_id": 7}, {"cp_div": 5}, {"preamble": "medium"}, {"seed": 0},
                   {"gap_samples": -1}, {"scale": 0.0}, {"max_bursts_per_batch": 0},
                   {"max_bursts_per_batch": 4097}, {"max_bursts_per_batch": -1}):
            with self.assertRaises(ValueError, msg=str(kw)):
                gpuofdm.wimax_tx(device="cpu", **kw)

    def test_006_cuda_matches_cpu(self):
        why = gpuofdm.gpu_unusable_reason(0)
        if why:
            self.skipTest("no usable GPU: " + why)
        rng = np.random.default_rng(8)
        msgs = [make_pdu(rng.integers(0, 256, int(rng.integers(1, 1500)), dtype=np.uint8),
                         rate_id=i % 7) for i in range(30)]
        a, ta, _ = self.run_pdus(msgs, device="cpu", max_bursts_per_batch=8)
        b, tb_, blk = self.run_pdus(msgs, device="cuda", max_bursts_per_batch=8)
        self.assertEqual(blk.device(), "cuda:0")
        self.assertEqual(ta, tb_)
        self.assertEqual(len(a), len(b))
        rms = np.sqrt(np.mean(np.abs(a) ** 2))
        self.assertLess(np.max(np.abs(a - b)), 2e-5 * rms * 10)


if __name__ == "__main__":
    gr_unittest.run(qa_wimax_tx)
