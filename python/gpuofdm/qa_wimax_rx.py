#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""wimax_rx in flowgraphs: wimax_tx -> channel_model (noise, small CFO, taps) -> wimax_rx
gives every burst back with its metadata, for several profiles and cyclic prefixes; a
recorded stream (vector and file sources) is decoded to its very last burst at the end of
the stream; a burst cut by the end is counted; noise alone gives no PDU; bad bursts are
counted and passed, marked, on request; bad parameters raise ValueError; CUDA against the
CPU twin; the interpolating pilot tracker, set on the block, follows a sampling-clock
offset that the common phase cannot."""

import os
import tempfile

import numpy as np
import pmt
from gnuradio import blocks, channels, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason, make_pdu, pdus_of, run_with_timeout

PDUS = pmt.intern("pdus")
FS = 4e6
BLOCK = [12, 24, 36, 48, 72, 96, 108]          # K of Table 215, rate_id 0..6
KEYS = ("profile", "burst_bytes", "rs_corrected", "rs_uncorrectable", "ok", "snr_db",
        "cfo_hz", "start", "sync_metric", "preamble_metric", "coded_errors", "coded_bits")


def burst_samples(n_bytes, rate_id, cp_div=4):
    n_sym = -(-(n_bytes + 1) // BLOCK[rate_id])
    return (2 + n_sym) * (256 + 256 // cp_div)


def some_bursts(n, n_bytes, seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 256, n_bytes, dtype=np.uint8) for _ in range(n)]


def start_tags(snk, lead=0):
    return sorted(t.offset + lead for t in snk.tags()
                  if pmt.symbol_to_string(t.key) == "wimax_start")


def post_all(tx, bursts):
    for b in bursts:
        tx._post(PDUS, make_pdu(b))
    tx._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))


class qa_wimax_rx(gr_unittest.TestCase):

    def transmit(self, bursts, rate_id=1, cp_div=4, gap=400, lead=0, last_gap=True):
        """The bursts through wimax_tx (CPU) into a vector sink: (samples with `lead` zeros
        in front, the wimax_start tags' offsets)."""
        tb = gr.top_block()
        tx = gpuofdm.wimax_tx(rate_id=rate_id, cp_div=cp_div, gap_samples=gap, device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(tx, snk)
        post_all(tx, bursts)
        run_with_timeout(tb)
        x = np.concatenate([np.zeros(lead, np.complex64), np.array(snk.data(), np.complex64)])
        if not last_gap:
            x = x[:len(x) - gap]
        starts = start_tags(snk, lead)
        self.assertEqual(len(starts), len(bursts))
        return x, starts

    def receive(self, x, **kw):
        """vector_source -> wimax_rx -> message_debug, run to the end; (PDUs, block)."""
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist(), False)
        rx = gpuofdm.wimax_rx(**kw)
        dbg = blocks.message_debug()
        tb.connect(src, rx)
        tb.msg_connect(rx, "pdus", dbg, "store")
        run_with_timeout(tb)
        return pdus_of(dbg), rx

    def loopback(self, bursts, channel, rate_id, cp_div=4, **rx_kw):
        """wimax_tx -> channel -> wimax_rx on the CPU; (rx, PDUs, burst start tags, samples
        sent)."""
        tb = gr.top_block()
        tx = gpuofdm.wimax_tx(rate_id=rate_id, cp_div=cp_div, gap_samples=400, device="cpu")
        rx = gpuofdm.wimax_rx(rate_id=rate_id, cp_div=cp_div, device="cpu", **rx_kw)
        dbg = blocks.message_debug()
        tags = blocks.vector_sink_c()
        # 100 zeros in front: channel_model's resampler eats its first samples, and a burst
        # that starts before the stream does is not decoded.
        lead = blocks.delay(gr.sizeof_gr_complex, 100)
        tb.connect(tx, lead, channel, rx)
        tb.connect(lead, tags)
        tb.msg_connect(rx, "pdus", dbg, "store")
        post_all(tx, bursts)
        run_with_timeout(tb)
        return rx, pdus_of(dbg), start_tags(tags), len(tags.data())

    def check_all_back(self, bursts, got, rate_id, starts=None, cfo_hz=0.0, start_tol=0,
                       min_snr=15.0):
        self.assertEqual(len(got), len(bursts))
        for i, (sent, (meta, data)) in enumerate(zip(bursts, got)):
            self.assertEqual(sorted(meta), sorted(KEYS), "burst %d" % i)
            np.testing.assert_array_equal(data, sent, "burst %d" % i)
            self.assertEqual(pmt.to_long(meta["profile"]), rate_id)
            self.assertEqual(pmt.to_long(meta["burst_bytes"]), len(sent))
            self.assertTrue(pmt.is_bool(meta["ok"]) and pmt.to_bool(meta["ok"]))
            self.assertEqual(pmt.to_long(meta["rs_uncorrectable"]), 0)
            self.assertGreaterEqual(pmt.to_long(meta["rs_corrected"]), 0)
            self.assertTrue(pmt.is_uint64(meta["start"]))
            self.assertGreater(pmt.to_double(meta["sync_metric"]), 0.5)
            self.assertGreater(pmt.to_double(meta["preamble_metric"]), 0.4)
            self.assertGreater(pmt.to_double(meta["snr_db"]), min_snr)
            self.assertAlmostEqual(pmt.to_double(meta["cfo_hz"]), cfo_hz, delta=300)
            self.assertGreater(pmt.to_long(meta["coded_bits"]), 0)
            self.assertLessEqual(pmt.to_long(meta["coded_errors"]),
                                 pmt.to_long(meta["coded_bits"]))
            if starts is not None:
                self.assertLessEqual(abs(int(pmt.to_uint64(meta["start"])) - int(starts[i])),
                                     start_tol, "burst %d" % i)

    def test_001_tx_channel_rx_every_burst_back(self):
        # wimax_tx -> channel_model (AWGN ~28 dB, 5 kHz CFO at 4 Msps, 3 taps) -> wimax_rx
        # -> message_debug for several profiles and prefixes; each flowgraph ends by itself
        # once wimax_tx has sent everything.
        cases = ((0, 4, 40), (1, 4, 95), (2, 8, 200), (3, 16, 300), (4, 4, 143), (5, 32, 500),
                 (6, 4, 1000))
        for rate_id, cp_div, n_bytes in cases:
            with self.subTest(rate_id=rate_id, cp_div=cp_div):
                bursts = some_bursts(12, n_bytes, 100 + rate_id)
                ch = channels.channel_model(noise_voltage=0.04, frequency_offset=5e3 / FS,
                                            epsilon=1.0, taps=[1.0, 0.3j, 0.1], noise_seed=7)
                rx, got, starts, n_sent = self.loopback(bursts, ch, rate_id=rate_id,
                                                        burst_bytes=n_bytes, cp_div=cp_div)
                self.check_all_back(bursts, got, rate_id, starts, cfo_hz=5e3, start_tol=8)
                self.assertEqual(rx.bursts_received(), len(bursts))
                self.assertEqual(rx.bad_bursts(), 0)
                self.assertEqual(rx.truncated(), 0)
                self.assertEqual(rx.pdus_published(), len(bursts))
                # channel_model's fractional resampler keeps a few samples back.
                self.assertLessEqual(abs(rx.samples() - n_sent), 16)
                self.assertEqual(rx.device(), "cpu")
                self.assertEqual(rx.burst_samples(), burst_samples(n_bytes, rate_id, cp_div))

    def test_002_recorded_stream_decoded_to_the_last_burst(self):
        # Bursts back to back (no gap), the last ending on the stream's last sample: the
        # whole stream fits one batch (everything is decoded at the end of the stream) or
        # spans many (bursts straddle batch boundaries).
        bursts = some_bursts(40, 250, 200)
        x, starts = self.transmit(bursts, rate_id=3, gap=0, lead=300, last_gap=False)
        self.assertEqual(len(x), 300 + 40 * burst_samples(250, 3))
        x = x + 0.02 * (np.random.default_rng(3).standard_normal((len(x), 2)) @ [1, 1j])
        x = x.astype(np.complex64)
        for batch in (0, 20000, 1 << 20):
            got, rx = self.receive(x, rate_id=3, burst_bytes=250, batch_samples=batch,
                                   device="cpu")
            self.check_all_back(bursts, got, 3, starts)
            self.assertEqual(rx.truncated(), 0)
            self.assertEqual(rx.samples(), len(x))
            if batch:
                self.assertEqual(rx.batch_samples(), batch)
        # Only one burst, alone in the stream: decoded at the end.
        x1, starts1 = self.transmit(bursts[:1], rate_id=3, gap=0, last_gap=False)
        got, _ = self.receive(x1, rate_id=3, burst_bytes=250, device="cpu")
        self.check_all_back(bursts[:1], got, 3, starts1)

    def test_003_file_source_to_the_end(self):
        bursts = some_bursts(10, 500, 300)
        x, starts = self.transmit(bursts, rate_id=5, gap=250, lead=1000, last_gap=False)
        with tempfile.TemporaryDirectory(prefix="gpuofdm_qa_wimax_rx_") as tmp:
            path = os.path.join(tmp, "bursts.cf32")
            x.astype(np.complex64).tofile(path)
            tb = gr.top_block()
            src = blocks.file_source(gr.sizeof_gr_complex, path, False)
            rx = gpuofdm.wimax_rx(rate_id=5, burst_bytes=500, device="cpu")
            dbg = blocks.message_debug()
            tb.connect(src, rx)
            tb.msg_connect(rx, "pdus", dbg, "store")
            run_with_timeout(tb)
        self.check_all_back(bursts, pdus_of(dbg), 5, starts)
        self.assertEqual(rx.samples(), len(x))

    def test_004_cut_burst_counted_not_published(self):
        bursts = some_bursts(3, 95, 400)
        x, _ = self.transmit(bursts, gap=100, last_gap=False)
        got, rx = self.receive(x[:-300], pass_bad=True, device="cpu")
        self.assertEqual(len(got), 2)
        for (meta, data), sent in zip(got, bursts):
            np.testing.assert_array_equal(data, sent)
        self.assertEqual(rx.truncated(), 1)
        self.assertEqual(rx.bursts_received(), 2)

    def test_005_noise_only_gives_no_pdu(self):
        rng = np.random.default_rng(5)
        x = ((rng.standard_normal(400000) + 1j * rng.standard_normal(400000)) *
             np.sqrt(0.5)).astype(np.complex64)
        got, rx = self.receive(x, pass_bad=True, device="cpu")
        self.assertEqual(got, [])
        self.assertEqual((rx.bursts_received(), rx.bad_bursts()), (0, 0))
        self.assertEqual(rx.samples(), len(x))
        got, _ = self.receive(np.zeros(300000, np.complex64), pass_bad=True, device="cpu")
        self.assertEqual(got, [])

    def test_006_bad_burst_counted_and_passed_marked_on_request(self):
        bursts = some_bursts(4, 95, 600)
        x, starts = self.transmit(bursts, gap=300)
        # The data symbols of the second burst drowned in strong noise; its preamble kept.
        sym = 256 + 64
        a, b = starts[1] + 2 * sym, starts[1] + burst_samples(95, 1)
        rng = np.random.default_rng(6)
        x[a:b] += (3.0 * (rng.standard_normal(b - a) + 1j * rng.standard_normal(b - a))
                   ).astype(np.complex64)
        got, rx = self.receive(x, device="cpu")
        self.assertEqual(len(got), 3)
        self.assertEqual((rx.bursts_received(), rx.bad_bursts()), (3, 1))
        self.assertEqual(rx.pdus_published(), 3)
        got, rx = self.receive(x, pass_bad=True, device="cpu")
        self.assertEqual([pmt.to_bool(m["ok"]) for m, _ in got], [True, False, True, True])
        self.assertGreater(pmt.to_long(got[1][0]["rs_uncorrectable"]), 0)
        self.assertEqual(len(got[1][1]), 95)
        for i in (0, 2, 3):
            np.testing.assert_array_equal(got[i][1], bursts[i])
        self.assertTrue(rx.pass_bad())
        rx.set_pass_bad(False)
        self.assertFalse(rx.pass_bad())

    def test_007_bad_parameters_raise_value_error(self):
        for kw, name in (({"rate_id": 7}, "rate_id"), ({"rate_id": -1}, "rate_id"),
                         ({"burst_bytes": 0}, "burst_bytes"),
                         ({"burst_bytes": -5}, "burst_bytes"),
                         ({"burst_bytes": 65536}, "burst_bytes"),
                         ({"burst_bytes": 100, "pad": False}, "burst_bytes"),
                         ({"cp_div": 5}, "cp_div"), ({"seed": 0}, "seed"),
                         ({"seed": 32768}, "seed"), ({"sample_rate": 0.0}, "sample_rate"),
                         ({"sample_rate": float("inf")}, "sample_rate"),
                         ({"batch_samples": -1}, "batch_samples"),
                         ({"batch_samples": 1000}, "batch_samples"),
                         ({"batch_samples": 2 ** 26 + 1}, "batch_samples"),
                         ({"threshold": 0.1}, "threshold"), ({"threshold": 0.9}, "threshold"),
                         ({"fft_backoff": -1}, "fft_backoff"),
                         ({"fft_backoff": 65}, "fft_backoff"),
                         ({"cp_div": 32, "fft_backoff": 9}, "fft_backoff"),
                         ({"channel_taps": 5}, "channel_taps"),
                         ({"channel_taps": 65}, "channel_taps"),
                         ({"device": "gpu"}, "device")):
            with self.subTest(**kw):
                with self.assertRaises(ValueError) as ctx:
                    gpuofdm.wimax_rx(**{"device": "cpu", **kw})
                self.assertIn(name, str(ctx.exception))
        rx = gpuofdm.wimax_rx(device="cpu")
        self.assertEqual((rx.rate_id(), rx.burst_bytes(), rx.cp_div(), rx.uplink(), rx.pad(),
                          rx.seed(), rx.pass_bad(), rx.fft_backoff(), rx.channel_taps(),
                          rx.pilot_interpolation()),
                         (1, 95, 4, False, True, 19072, False, 4, 24, False))
        self.assertEqual(rx.sample_rate(), 4e6)
        self.assertEqual(rx.batch_samples(), 1 << 18)
        self.assertAlmostEqual(rx.threshold(), 0.5, places=6)
        # Without pad a burst must fill whole blocks: 95 + 1 = 4 x 24.
        self.assertFalse(gpuofdm.wimax_rx(pad=False, device="cpu").pad())

    def test_008_uplink_pilots_and_no_pad(self):
        bursts = some_bursts(6, 71, 800)   # 71 + 1 = 2 blocks of 36 (QPSK 3/4)
        tb = gr.top_block()
        tx = gpuofdm.wimax_tx(rate_id=2, uplink=True, pad=False, seed=12345, device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(tx, snk)
        post_all(tx, bursts)
        run_with_timeout(tb)
        x = np.array(snk.data(), np.complex64)
        got, _ = self.receive(x, rate_id=2, burst_bytes=71, uplink=True, pad=False, seed=12345,
                              device="cpu")
        self.check_all_back(bursts, got, 2, start_tags(snk))
        # Another seed does not give the bursts back.
        got, rx = self.receive(x, rate_id=2, burst_bytes=71, uplink=True, pad=False, seed=1,
                               pass_bad=True, device="cpu")
        self.assertFalse(any(np.array_equal(d, b) for (_, d), b in zip(got, bursts)))

    def test_009_cuda_without_gpu_is_a_clear_error(self):
        if not gpu_reason():
            self.skipTest("a GPU is usable here; this checks the no-GPU error")
        with self.assertRaises(RuntimeError) as ctx:
            gpuofdm.wimax_rx(device="cuda")
        self.assertIn(gpu_reason(), str(ctx.exception))
        self.assertEqual(gpuofdm.wimax_rx(device="auto").device(), "cpu")

    def test_010_cuda_matches_cpu_twin(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        bursts = some_bursts(60, 300, 1200)
        x, starts = self.transmit(bursts, rate_id=4, gap=200, lead=500, last_gap=False)
        rng = np.random.default_rng(12)
        x = (x * np.exp(2j * np.pi * -3e3 / FS * np.arange(len(x))) +
             0.03 * (rng.standard_normal(len(x)) + 1j * rng.standard_normal(len(x))))
        x = x.astype(np.complex64)
        kw = dict(rate_id=4, burst_bytes=300, batch_samples=60000, pass_bad=True)
        want, _ = self.receive(x, device="cpu", **kw)
        got, grx = self.receive(x, device="cuda", **kw)
        self.assertEqual(grx.device(), "cuda:0")
        self.check_all_back(bursts, got, 4, starts, cfo_hz=-3e3)
        self.assertEqual(len(got), len(want))
        for (gm, gp), (wm, wp) in zip(got, want):
            np.testing.assert_array_equal(gp, wp)
            for k in ("profile", "burst_bytes", "ok", "start", "rs_uncorrectable"):
                self.assertTrue(pmt.equal(gm[k], wm[k]), k)
            self.assertAlmostEqual(pmt.to_double(gm["snr_db"]), pmt.to_double(wm["snr_db"]),
                                   delta=0.05)

    def test_011_pilot_interpolation_follows_a_sampling_clock_offset(self):
        # 64-QAM 3/4 bursts of 20 symbols through channel_model with a 100 ppm clock offset
        # (epsilon) and ~34 dB SNR: the FFT window drifts 0.7 samples over a burst. The
        # common phase of the pilots cannot follow the phase slope that makes across the
        # band (every burst bad); the pilots interpolated across the band can.
        ppm = 100.0
        bursts = some_bursts(6, 2159, 1300)
        for interp in (False, True):
            with self.subTest(pilot_interpolation=interp):
                ch = channels.channel_model(noise_voltage=0.02, frequency_offset=5e3 / FS,
                                            epsilon=1.0 + ppm * 1e-6, taps=[1.0], noise_seed=3)
                rx, got, starts, _ = self.loopback(bursts, ch, rate_id=6, burst_bytes=2159,
                                                   pilot_interpolation=interp)
                self.assertEqual(rx.pilot_interpolation(), interp)
                if interp:
                    # Burst starts move with the clock: n = t / (1 + e).
                    starts = [s / (1.0 + ppm * 1e-6) for s in starts]
                    self.check_all_back(bursts, got, 6, starts, cfo_hz=5e3, start_tol=8)
                    self.assertEqual((rx.bursts_received(), rx.bad_bursts()), (6, 0))
                else:
                    self.assertEqual(got, [])
                    self.assertEqual((rx.bursts_received(), rx.bad_bursts()), (0, 6))


if __name__ == "__main__":
    gr_unittest.run(qa_wimax_rx)
