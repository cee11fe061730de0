#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""sync_signal_source_c in a flowgraph: the LTE PSS where 36.211 puts it, built here from
the Zadoff-Chu formula with numpy (not the module's tables); the NR PSS symbol's spectrum;
noise power; bad parameters."""

import math

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuofdm


def run(src, n):
    tb = gr.top_block()
    head = blocks.head(gr.sizeof_gr_complex, n)
    sink = blocks.vector_sink_c()
    tb.connect(src, head, sink)
    tb.run()
    return np.array(sink.data())


class qa_sync_signal_source_c(gr_unittest.TestCase):

    def test_001_lte_pss_from_the_formula(self):
        # LTE FDD at 1.92 Msps (128-point FFT): slot 0's last symbol has its useful part at
        # (10 + 128) + 5 * (9 + 128) + 9 = 832. Cell 301: N_ID^(2) = 1, root 29.
        x = run(gpuofdm.sync_signal_source_c("lte", 1.92e6, [301], snr_db=float("inf")), 2000)
        spectrum = np.fft.fft(x[832:832 + 128]) / 128
        u = 29
        n = np.arange(62)
        k = np.where(n < 31, n, n + 1)  # the ZC-63 without its centre element
        d = np.exp(-1j * np.pi * u * k * (k + 1) / 63)
        sub = np.where(n < 31, n - 31, n - 30)  # DC left out
        self.assertLess(np.max(np.abs(spectrum[sub % 128] - d)), 1e-4)
        self.assertLess(abs(spectrum[0]), 1e-4)

    def test_002_nr_pss_is_an_m_sequence_on_127_subcarriers(self):
        # NR 30 kHz case C at 7.68 Msps: SSB 0's PSS symbol (half-frame symbol 2) has its
        # useful part at 2 * 256 + 18 + 4 + 18 + 18 = 570; 127 BPSK values on k = 56..182 of
        # the SSB, i.e. -64..+62 subcarriers from its centre; nothing else in the symbol.
        x = run(gpuofdm.sync_signal_source_c("nr", 7.68e6, [0], snr_db=float("inf")), 1200)
        spectrum = np.fft.fft(x[570:570 + 256]) / 256
        pss = spectrum[np.arange(-64, 63) % 256]
        self.assertLess(np.max(np.abs(np.abs(pss) - 1)), 1e-4)
        self.assertLess(np.max(np.abs(pss.imag)), 1e-4)
        # x(i+7) = x(i+4) + x(i) from 0 1 1 0 1 1 1 (38.211 7.4.2.2), N_ID^(2) = 0
        xs = [0, 1, 1, 0, 1, 1, 1]
        for i in range(120):
            xs.append(xs[i + 4] ^ xs[i])
        self.assertTrue(np.allclose(pss.real, 1 - 2 * np.array(xs[:127]), atol=1e-4))
        others = np.delete(spectrum, np.arange(-64, 63) % 256)
        self.assertLess(np.max(np.abs(others)), 1e-4)

    def test_003_noise_power(self):
        # No cell power in a stretch without sync symbols: the noise alone. For LTE, a 0 dB
        # cell at SNR 0 dB over 62 x 15 kHz: noise power per sample = 62 * fs / (62 * 15e3).
        x = run(gpuofdm.sync_signal_source_c("lte", 1.92e6, [0], snr_db=0.0, start_s=[0.004]),
                7000)
        p = np.mean(np.abs(x[:6000]) ** 2)
        self.assertAlmostEqual(p / (1.92e6 / 15e3), 1.0, delta=0.05)

    def test_004_bad_parameters(self):
        with self.assertRaisesRegex(ValueError, "standard"):
            gpuofdm.sync_signal_source_c("gsm", 7.68e6, [0])
        with self.assertRaisesRegex(ValueError, "cell_ids: 0..1007"):
            gpuofdm.sync_signal_source_c("nr", 7.68e6, [1008])
        with self.assertRaisesRegex(ValueError, "power_db: empty or one value per cell"):
            gpuofdm.sync_signal_source_c("nr", 7.68e6, [1, 2], power_db=[0.0])
        with self.assertRaisesRegex(ValueError, "samp_rate"):
            gpuofdm.sync_signal_source_c("lte", 1e6, [1])
        with self.assertRaisesRegex(ValueError, "snr_db"):
            gpuofdm.sync_signal_source_c("lte", 1.92e6, [1], snr_db=math.nan)


if __name__ == "__main__":
    gr_unittest.run(qa_sync_signal_source_c)
