#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""demapper_cf in flowgraphs: LLRs against a numpy brute-force max-log over GNU Radio's own
802.11a-labelled points (mapped by our mapper's twin), hard decisions, parameters, CUDA."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuofdm

SEED = 20261123
# 802.11a 17.3.5.7, per axis, first bit first (Tables 17-8 .. 17-11).
AXIS = {1: {(0,): -1, (1,): 1},
        2: {(0, 0): -3, (0, 1): -1, (1, 1): 1, (1, 0): 3},
        3: {(0, 0, 0): -7, (0, 0, 1): -5, (0, 1, 1): -3, (0, 1, 0): -1,
            (1, 1, 0): 1, (1, 1, 1): 3, (1, 0, 1): 5, (1, 0, 0): 7}}
MODS = {"BPSK": (1, 1.0), "QPSK": (2, 1 / np.sqrt(2)), "16QAM": (4, 1 / np.sqrt(10)),
        "64QAM": (6, 1 / np.sqrt(42))}


def table(mod):
    n, k = MODS[mod]
    labels = [tuple((lab >> (n - 1 - i)) & 1 for i in range(n)) for lab in range(1 << n)]
    if n == 1:
        pts = [k * AXIS[1][b] + 0j for b in labels]
    else:
        pts = [k * (AXIS[n // 2][b[:n // 2]] + 1j * AXIS[n // 2][b[n // 2:]]) for b in labels]
    return np.array(labels), np.array(pts)


def brute(y, mod, nv):
    labels, pts = table(mod)
    d = np.abs(y[:, None] - pts[None, :]) ** 2
    out = []
    for i in range(labels.shape[1]):
        d1 = d[:, labels[:, i] == 1].min(axis=1)
        d0 = d[:, labels[:, i] == 0].min(axis=1)
        out.append((d1 - d0) / nv)
    return np.stack(out, axis=1).reshape(-1)


def run(y, mod, nv=1.0, hard=False, device="cpu"):
    tb = gr.top_block()
    src = blocks.vector_source_c(y.astype(np.complex64).tolist())
    dm = gpuofdm.demapper_cf(mod, nv, hard, 0, device)
    snk = blocks.vector_sink_f()
    tb.connect(src, dm, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.float64)


class qa_demapper_cf(gr_unittest.TestCase):

    def test_001_against_brute_force(self):
        rng = np.random.default_rng(SEED)
        for mod in MODS:
            labels, pts = table(mod)
            y = pts[rng.integers(0, len(pts), 3000)] + 0.3 * (
                rng.standard_normal(3000) + 1j * rng.standard_normal(3000))
            got = run(y, mod, 0.25)
            want = brute(y, mod, 0.25)
            self.assertEqual(got.size, want.size)
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4, err_msg=mod)

    def test_002_noiseless_signs_and_hard(self):
        for mod in MODS:
            labels, pts = table(mod)
            want = 1 - 2 * labels.reshape(-1)
            self.assertTrue(np.array_equal(np.sign(run(pts, mod, 0.1)), want), mod)
            self.assertTrue(np.array_equal(run(pts + 0.05, mod, 0.1, True), want), mod)

    def test_003_bad_parameters(self):
        for kwargs, name in ((dict(modulation="8PSK"), "modulation"),
                             (dict(noise_var=0.0), "noise_var"),
                             (dict(noise_var=-1.0), "noise_var"),
                             (dict(batch=-2), "batch"),
                             (dict(device="tpu"), "device")):
            with self.assertRaises(ValueError, msg=str(kwargs)) as ctx:
                gpuofdm.demapper_cf(**kwargs)
            self.assertIn(name, str(ctx.exception))
        blk = gpuofdm.demapper_cf("QPSK", 1.0, False, 0, "cpu")
        with self.assertRaises(ValueError):
            blk.set_noise_var(0.0)
        blk.set_noise_var(0.5)
        self.assertAlmostEqual(blk.noise_var(), 0.5)

    def test_004_cuda_matches_cpu(self):
        why = gpuofdm.gpu_unusable_reason(0)
        if why:
            self.skipTest("no usable GPU: " + why)
        rng = np.random.default_rng(SEED + 1)
        y = rng.standard_normal(50000) + 1j * rng.standard_normal(50000)
        for mod in MODS:
            a = run(y, mod, 0.3, device="cpu")
            b = run(y, mod, 0.3, device="cuda")
            np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-5, err_msg=mod)


if __name__ == "__main__":
    gr_unittest.run(qa_demapper_cf)
