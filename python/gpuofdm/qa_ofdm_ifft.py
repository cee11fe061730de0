#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""ofdm_ifft in flowgraphs, against fft.fft_vcc and digital.ofdm_cyclic_prefixer."""

import threading

import numpy as np
from gnuradio import blocks, digital, fft, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason

SEED = 20261122
LTE_CP_2048 = [160, 144, 144, 144, 144, 144, 144]


def random_bins(n_sym, fft_len, seed=SEED):
    rng = np.random.default_rng(seed)
    n = n_sym * fft_len
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)


class qa_ofdm_ifft(gr_unittest.TestCase):

    def run_ours(self, bins, fft_len, cp_lengths, shift=True, scale=1.0, device="cpu",
                 batch=0, tags=()):
        tb = gr.top_block()
        src = blocks.vector_source_c(bins.tolist(), False, fft_len, list(tags))
        blk = gpuofdm.ofdm_ifft(fft_len, cp_lengths, shift, scale, batch, device)
        snk = blocks.vector_sink_c()
        tb.connect(src, blk, snk)
        tb.run()
        self.last_tags = snk.tags()
        return np.array(snk.data(), dtype=np.complex64)

    def run_gnuradio(self, bins, fft_len, cp_lengths, shift=True):
        """fft.fft_vcc inverse, then digital.ofdm_cyclic_prefixer: GNU Radio's own chain."""
        tb = gr.top_block()
        src = blocks.vector_source_c(bins.tolist(), False, fft_len)
        f = fft.fft_vcc(fft_len, False, [], shift, 1)
        # The list overload takes the CP lengths themselves (its binding calls them output_size).
        cp = digital.ofdm_cyclic_prefixer(fft_len, list(cp_lengths))
        snk = blocks.vector_sink_c()
        tb.connect(src, f, cp, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.complex64)

    def assert_close(self, got, want, rel=2e-5):
        self.assertEqual(got.shape, want.shape)
        rms = np.sqrt(np.mean(np.abs(want) ** 2))
        err = np.max(np.abs(got - want))
        self.assertLessEqual(err, rel * rms, "max error %g vs rms %g" % (err, rms))

    def test_001_tiny_hand_case(self):
        # fft_len 4, CP 2, no shift: bin 1 alone gives e^{+j pi t/2} = 1, j, -1, -j.
        got = self.run_ours(np.array([0, 1, 0, 0], np.complex64), 4, [2], shift=False)
        np.testing.assert_allclose(got, [-1, -1j, 1, 1j, -1, -1j], atol=1e-6)

    def test_002_matches_gnuradio_80211a(self):
        bins = random_bins(300, 64)
        self.assert_close(self.run_ours(bins, 64, [16]), self.run_gnuradio(bins, 64, [16]))

    def test_003_matches_gnuradio_sizes_and_cp_lists(self):
        for fft_len, cps, shift in ((256, [64], True), (2048, LTE_CP_2048, True),
                                    (4096, [288], False), (2048, LTE_CP_2048, False)):
            bins = random_bins(15, fft_len, SEED + fft_len)
            self.assert_close(self.run_ours(bins, fft_len, cps, shift),
                              self.run_gnuradio(bins, fft_len, cps, shift))

    def test_004_round_trip_through_ofdm_fft(self):
        bins = random_bins(500, 64)
        tb = gr.top_block()
        src = blocks.vector_source_c(bins.tolist(), False, 64)
        tx = gpuofdm.ofdm_ifft(64, [16], True, 1.0 / 8, 0, "cpu")
        rx = gpuofdm.ofdm_fft(64, [16], True, 1.0 / 8, 0, "cpu")
        snk = blocks.vector_sink_c(64)
        tb.connect(src, tx, rx, snk)
        tb.run()
        self.assert_close(np.array(snk.data(), np.complex64), bins)

    def test_005_tags_move_to_the_symbol_start(self):
        tags = [gr.tag_utils.python_to_tag((off, gr.pmt.intern("k"), gr.pmt.from_long(off)))
                for off in (0, 3, 7)]
        self.run_ours(random_bins(8, 2048), 2048, LTE_CP_2048, tags=tags)
        got = sorted((t.offset, gr.pmt.to_long(t.value)) for t in self.last_tags)
        self.assertEqual(got, [(0, 0), (2208 + 2 * 2192, 3), (15360, 7)])

    def test_008_ends_when_downstream_ends(self):
        # A head after the block stops a flowgraph fed by an endless source.
        tb = gr.top_block()
        src = blocks.vector_source_c(random_bins(10, 64).tolist(), True, 64)
        blk = gpuofdm.ofdm_ifft(64, [16], True, 1.0, 0, "cpu")
        hd = blocks.head(gr.sizeof_gr_complex, 801)
        snk = blocks.vector_sink_c()
        tb.connect(src, blk, hd, snk)
        tb.start()
        finished = threading.Event()
        threading.Thread(target=lambda: (tb.wait(), finished.set()), daemon=True).start()
        ended = finished.wait(20)
        if not ended:
            tb.stop()
        self.assertTrue(ended, "flowgraph did not end after head finished")
        self.assertEqual(len(snk.data()), 801)

    def test_006_bad_parameters_raise_value_error(self):
        for args, name in (((0, [16]), "fft_len"), ((64, [-16]), "cp_lengths"),
                           ((64, [16], True, float("nan")), "scale")):
            with self.assertRaises(ValueError) as ctx:
                gpuofdm.ofdm_ifft(*args)
            self.assertIn(name, str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            gpuofdm.ofdm_ifft(64, [16], device="cuda:x")
        self.assertIn("device", str(ctx.exception))

    def test_007_cuda_matches_cpu_twin(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        bins = random_bins(3001, 64)
        for batch in (0, 7, 1000):
            self.assert_close(self.run_ours(bins, 64, [16], device="cuda", batch=batch),
                              self.run_ours(bins, 64, [16], device="cpu"))


if __name__ == '__main__':
    gr_unittest.run(qa_ofdm_ifft)
