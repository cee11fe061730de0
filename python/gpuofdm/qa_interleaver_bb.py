#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""interleaver_bb and interleaver_ff in flowgraphs, against the standards' interleaver
and deinterleaver formulas and examples. GNU Radio has no 802.11a/802.16 interleaver."""

import os

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason, read_octet_bits, testvector_dir

SEED = 20261124

# (standard, n_cbps, n_bpsc) of the standards' modes: 802.11a Table 17-3; 802.16-2004
# OFDM-256 (192 data subcarriers) BPSK .. 64-QAM; and one 802.16 subchannelised size.
MODES = [("802.11a", 48, 1), ("802.11a", 96, 2), ("802.11a", 192, 4), ("802.11a", 288, 6),
         ("802.16", 192, 1), ("802.16", 384, 2), ("802.16", 768, 4), ("802.16", 1152, 6),
         ("802.16", 96, 2)]


def columns(standard):
    return 16 if standard == "802.11a" else 12


def reference_interleave(x, standard, n_cbps, n_bpsc):
    """802.11a 17.3.5.6 / 802.16 8.3.3.3, the transmitter's two permutations."""
    d, n, s = columns(standard), n_cbps, max(n_bpsc // 2, 1)
    x = np.asarray(x).reshape(-1, n)
    out = np.empty_like(x)
    for k in range(n):
        i = (n // d) * (k % d) + k // d
        j = s * (i // s) + (i + n - (d * i) // n) % s
        out[:, j] = x[:, k]
    return out.ravel()


def reference_deinterleave(y, standard, n_cbps, n_bpsc):
    """The receiver's formulas, written separately in the standards (j -> i -> k)."""
    d, n, s = columns(standard), n_cbps, max(n_bpsc // 2, 1)
    y = np.asarray(y).reshape(-1, n)
    out = np.empty_like(y)
    for j in range(n):
        i = s * (j // s) + (j + (d * j) // n) % s
        k = d * i - (n - 1) * ((d * i) // n)
        out[:, k] = y[:, j]
    return out.ravel()


class qa_interleaver_bb(gr_unittest.TestCase):

    def run_ours(self, x, standard="802.11a", n_cbps=192, n_bpsc=4, deinterleave=False,
                 soft=False, tags=(), device="cpu", batch=0):
        tb = gr.top_block()
        if soft:
            src = blocks.vector_source_f(list(map(float, x)), False, 1, list(tags))
            blk = gpuofdm.interleaver_ff(standard, n_cbps, n_bpsc, deinterleave, batch, device)
            snk = blocks.vector_sink_f()
        else:
            src = blocks.vector_source_b(list(map(int, x)), False, 1, list(tags))
            blk = gpuofdm.interleaver_bb(standard, n_cbps, n_bpsc, deinterleave, batch, device)
            snk = blocks.vector_sink_b()
        tb.connect(src, blk, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.float32 if soft else np.uint8), snk.tags()

    def test_001_reference_models_are_inverses(self):
        # The two reference models come from different formulas of the standards.
        rng = np.random.default_rng(SEED)
        for standard, n_cbps, n_bpsc in MODES:
            x = rng.permutation(n_cbps)
            y = reference_interleave(x, standard, n_cbps, n_bpsc)
            self.assertFalse(np.array_equal(x, y))
            np.testing.assert_array_equal(reference_deinterleave(y, standard, n_cbps, n_bpsc), x)

    def test_002_interleave_and_deinterleave_match_the_standard(self):
        rng = np.random.default_rng(SEED + 1)
        for standard, n_cbps, n_bpsc in MODES:
            bits = rng.integers(0, 2, n_cbps * 9, dtype=np.uint8)
            got, _ = self.run_ours(bits, standard, n_cbps, n_bpsc)
            np.testing.assert_array_equal(
                got, reference_interleave(bits, standard, n_cbps, n_bpsc),
                "%s %d %d" % (standard, n_cbps, n_bpsc))
            got, _ = self.run_ours(bits, standard, n_cbps, n_bpsc, deinterleave=True)
            np.testing.assert_array_equal(
                got, reference_deinterleave(bits, standard, n_cbps, n_bpsc))
            blk = gpuofdm.interleaver_bb(standard, n_cbps, n_bpsc, device="cpu")
            np.testing.assert_array_equal(
                reference_interleave(np.arange(n_cbps), standard, n_cbps, n_bpsc)[
                    blk.permutation()], np.arange(n_cbps))

    def test_003_80211a_annex_g(self):
        d = os.path.join(testvector_dir(), "ieee80211a-annex-g")
        if not os.path.isfile(os.path.join(d, "G21.txt")):
            self.skipTest("802.11a Annex G vectors not found in " + d)
        coded = read_octet_bits(os.path.join(d, "G18.txt"))
        want = read_octet_bits(os.path.join(d, "G21.txt"))
        got, _ = self.run_ours(coded, "802.11a", 192, 4)
        np.testing.assert_array_equal(got, want)
        got, _ = self.run_ours(want, "802.11a", 192, 4, deinterleave=True)
        np.testing.assert_array_equal(got, coded)

    def test_004_80216_example(self):
        d = os.path.join(testvector_dir(), "ieee80216-ofdm")
        if not os.path.isfile(os.path.join(d, "interleaved.txt")):
            self.skipTest("802.16 OFDM vectors not found in " + d)
        coded = read_octet_bits(os.path.join(d, "cc_encoded.txt"))
        got, _ = self.run_ours(coded, "802.16", 384, 2)
        np.testing.assert_array_equal(got, read_octet_bits(os.path.join(d, "interleaved.txt")))

    def test_005_interleave_then_deinterleave_is_identity(self):
        rng = np.random.default_rng(SEED + 2)
        for standard, n_cbps, n_bpsc in MODES:
            bits = rng.integers(0, 2, n_cbps * 50, dtype=np.uint8)
            tb = gr.top_block()
            src = blocks.vector_source_b(bits.tolist())
            il = gpuofdm.interleaver_bb(standard, n_cbps, n_bpsc, False, 0, "cpu")
            de = gpuofdm.interleaver_bb(standard, n_cbps, n_bpsc, True, 0, "cpu")
            snk = blocks.vector_sink_b()
            tb.connect(src, il, de, snk)
            tb.run()
            np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits)

    def test_006_soft_deinterleaver(self):
        rng = np.random.default_rng(SEED + 3)
        for standard, n_cbps, n_bpsc in MODES:
            llr = rng.standard_normal(n_cbps * 7).astype(np.float32)
            got, _ = self.run_ours(llr, standard, n_cbps, n_bpsc, True, soft=True)
            np.testing.assert_array_equal(
                got, reference_deinterleave(llr, standard, n_cbps, n_bpsc))
            # the soft path undoes the hard interleaver: LLR sign of each bit back in order
            bits = rng.integers(0, 2, n_cbps * 3, dtype=np.uint8)
            tx, _ = self.run_ours(bits, standard, n_cbps, n_bpsc)
            back, _ = self.run_ours(1.0 - 2.0 * tx, standard, n_cbps, n_bpsc, True, soft=True)
            np.testing.assert_array_equal((back < 0).astype(np.uint8), bits)

    def test_007_partial_symbol_dropped_and_tags_keep_offsets(self):
        rng = np.random.default_rng(SEED + 4)
        bits = rng.integers(0, 2, 192 * 3 + 100, dtype=np.uint8)
        tags = [gr.tag_utils.python_to_tag((o, gr.pmt.intern("t"), gr.pmt.from_long(o)))
                for o in (0, 5, 191, 192, 500)]
        got, out_tags = self.run_ours(bits, "802.11a", 192, 4, tags=tags)
        self.assertEqual(len(got), 192 * 3)
        self.assertEqual(sorted(t.offset for t in out_tags), [0, 5, 191, 192, 500])
        got, _ = self.run_ours(bits[:191], "802.11a", 192, 4)
        self.assertEqual(len(got), 0)

    def test_008_bad_parameters_raise_value_error(self):
        for kwargs, name in ((dict(standard="802.11"), "standard"),
                             (dict(n_cbps=100), "n_cbps"),
                             (dict(n_cbps=0), "n_cbps"),
                             (dict(n_cbps=-192), "n_cbps"),
                             (dict(standard="802.16", n_cbps=192 + 16), "n_cbps"),
                             (dict(n_cbps=32, n_bpsc=6), "n_cbps"),
                             (dict(n_bpsc=3), "n_bpsc"),
                             (dict(batch=-1), "batch"),
                             (dict(device="gpu"), "device")):
            for cls in (gpuofdm.interleaver_bb, gpuofdm.interleaver_ff):
                if cls is gpuofdm.interleaver_ff:
                    kwargs = dict(kwargs, deinterleave=True)
                with self.assertRaises(ValueError) as ctx:
                    cls(**kwargs)
                self.assertIn(name, str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            gpuofdm.interleaver_ff(deinterleave=False)
        self.assertIn("deinterleave", str(ctx.exception))

    def test_009_cuda_without_gpu_is_a_clear_error(self):
        if not gpu_reason():
            self.skipTest("a GPU is usable here; this checks the no-GPU error")
        for cls in (gpuofdm.interleaver_bb, gpuofdm.interleaver_ff):
            with self.assertRaises(RuntimeError) as ctx:
                cls(device="cuda")
            self.assertIn(gpu_reason(), str(ctx.exception))
            self.assertEqual(cls(device="auto").device(), "cpu")

    def test_010_cuda_matches_cpu_twin(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        rng = np.random.default_rng(SEED + 5)
        for standard, n_cbps, n_bpsc in MODES:
            bits = rng.integers(0, 2, n_cbps * 2001, dtype=np.uint8)
            llr = rng.standard_normal(n_cbps * 2001).astype(np.float32)
            for deint in (False, True):
                want, _ = self.run_ours(bits, standard, n_cbps, n_bpsc, deint)
                for batch in (0, 1, 100):
                    got, _ = self.run_ours(bits, standard, n_cbps, n_bpsc, deint,
                                           device="cuda", batch=batch)
                    np.testing.assert_array_equal(got, want)
            want, _ = self.run_ours(llr, standard, n_cbps, n_bpsc, True, soft=True)
            got, _ = self.run_ours(llr, standard, n_cbps, n_bpsc, True, soft=True,
                                   device="cuda", batch=7)
            np.testing.assert_array_equal(got, want)


if __name__ == '__main__':
    gr_unittest.run(qa_interleaver_bb)
