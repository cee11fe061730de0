#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""ofdm_fft in flowgraphs, against GNU Radio's own CP removal and fft.fft_vcc."""

import numpy as np
from gnuradio import blocks, fft, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason

SEED = 20261121
LTE_CP_2048 = [160, 144, 144, 144, 144, 144, 144]


def random_samples(n, seed=SEED):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)


class qa_ofdm_fft(gr_unittest.TestCase):

    def run_ours(self, x, fft_len, cp_lengths, shift=True, scale=1.0, device="cpu", batch=0):
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        blk = gpuofdm.ofdm_fft(fft_len, cp_lengths, shift, scale, batch, device)
        snk = blocks.vector_sink_c(fft_len)
        tb.connect(src, blk, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.complex64).reshape(-1, fft_len)

    def run_gnuradio(self, x, fft_len, cp, shift=True):
        """keep_m_in_n drops the CP, fft.fft_vcc transforms: GNU Radio's own chain."""
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        keep = blocks.keep_m_in_n(gr.sizeof_gr_complex, fft_len, fft_len + cp, cp)
        s2v = blocks.stream_to_vector(gr.sizeof_gr_complex, fft_len)
        f = fft.fft_vcc(fft_len, True, [], shift, 1)
        snk = blocks.vector_sink_c(fft_len)
        tb.connect(src, keep, s2v, f, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.complex64).reshape(-1, fft_len)

    def assert_close(self, got, want, rel=2e-5):
        self.assertEqual(got.shape, want.shape)
        rms = np.sqrt(np.mean(np.abs(want) ** 2))
        err = np.max(np.abs(got - want))
        self.assertLessEqual(err, rel * rms, "max error %g vs rms %g" % (err, rms))

    def test_001_tiny_hand_case(self):
        # fft_len 4, CP 1: an impulse at t=1 gives e^{-j pi k/2}; shift puts DC at bin 2.
        x = np.array([9, 0, 1, 0, 0], dtype=np.complex64)  # CP sample 9 is dropped
        got = self.run_ours(x, 4, [1], shift=False)
        np.testing.assert_allclose(got[0], [1, -1j, -1, 1j], atol=1e-6)
        got = self.run_ours(x, 4, [1], shift=True)
        np.testing.assert_allclose(got[0], [-1, 1j, 1, -1j], atol=1e-6)

    def test_002_matches_fft_vcc_80211a(self):
        x = random_samples(80 * 300)
        self.assert_close(self.run_ours(x, 64, [16]), self.run_gnuradio(x, 64, 16))

    def test_003_matches_fft_vcc_sizes(self):
        for fft_len, cp, shift in ((256, 64, True), (2048, 512, False), (4096, 288, True)):
            x = random_samples((fft_len + cp) * 12, SEED + fft_len)
            self.assert_close(self.run_ours(x, fft_len, [cp], shift),
                              self.run_gnuradio(x, fft_len, cp, shift))

    def test_004_cp_list_and_scale_against_numpy(self):
        n_sym = 15  # two LTE slots and one symbol: ends on a short-CP symbol
        cps = [LTE_CP_2048[i % 7] for i in range(n_sym)]
        x = random_samples(sum(cps) + 2048 * n_sym)
        got = self.run_ours(x, 2048, LTE_CP_2048, shift=True, scale=0.25)
        want, pos = [], 0
        for cp in cps:
            want.append(0.25 * np.fft.fftshift(np.fft.fft(x[pos + cp:pos + cp + 2048])))
            pos += cp + 2048
        self.assert_close(got, np.array(want, dtype=np.complex64))

    def test_005_no_symbol_lost_at_end_of_stream(self):
        # A partial symbol at the end is dropped; every complete one comes out.
        for n_sym in (1, 7, 8, 1000):
            x = random_samples(80 * n_sym + 37)
            self.assertEqual(self.run_ours(x, 64, [16]).shape[0], n_sym)

    def test_006_tags_move_to_their_symbol(self):
        x = random_samples(80 * 5)
        tags = [gr.tag_utils.python_to_tag((off, gr.pmt.intern("k"), gr.pmt.from_long(off)))
                for off in (0, 15, 16, 80 + 79, 4 * 80 + 3)]
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist(), False, 1, tags)
        blk = gpuofdm.ofdm_fft(64, [16], True, 1.0, 0, "cpu")
        snk = blocks.vector_sink_c(64)
        tb.connect(src, blk, snk)
        tb.run()
        got = sorted((t.offset, gr.pmt.to_long(t.value)) for t in snk.tags())
        self.assertEqual(got, [(0, 0), (0, 15), (0, 16), (1, 159), (4, 323)])

    def test_007_bad_parameters_raise_value_error(self):
        for args, name in (((0, [16]), "fft_len"), ((-64, [16]), "fft_len"),
                           ((64, [-1]), "cp_lengths"), ((64, [65]), "cp_lengths"),
                           ((64, []), "cp_lengths")):
            with self.assertRaises(ValueError) as ctx:
                gpuofdm.ofdm_fft(*args)
            self.assertIn(name, str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            gpuofdm.ofdm_fft(64, [16], device="gpu")
        self.assertIn("device", str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            gpuofdm.ofdm_fft(64, [16], batch=-2)
        self.assertIn("batch", str(ctx.exception))

    def test_008_cuda_without_gpu_is_a_clear_error(self):
        if not gpu_reason():
            self.skipTest("a GPU is usable here; this checks the no-GPU error")
        with self.assertRaises(RuntimeError) as ctx:
            gpuofdm.ofdm_fft(64, [16], device="cuda")
        self.assertIn(gpu_reason(), str(ctx.exception))
        self.assertEqual(gpuofdm.ofdm_fft(64, [16], device="auto").device(), "cpu")

    def test_009_cuda_matches_cpu_twin(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        x = random_samples(80 * 5000 + 11)
        for batch in (0, 7, 1000):
            self.assert_close(self.run_ours(x, 64, [16], device="cuda", batch=batch),
                              self.run_ours(x, 64, [16], device="cpu"))


if __name__ == '__main__':
    gr_unittest.run(qa_ofdm_fft)
