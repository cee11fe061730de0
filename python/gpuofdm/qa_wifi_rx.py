#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""wifi_rx in flowgraphs: wifi_tx -> channel_model (noise, CFO, taps) -> wifi_rx gives every
PSDU back with its metadata; a recorded stream (vector and file sources) is decoded to its
very last frame at the end of the stream; noise alone gives no PDU; bad FCS counted and
passed on request; the PCAP file holds one record per PDU; PDUs from a message strobe; the
block sleeps when idle; bad parameters raise ValueError; CUDA against the CPU twin."""

import os
import struct
import tempfile
import threading
import time
import zlib

import numpy as np
import pmt
from gnuradio import blocks, channels, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason, make_pdu, pdus_of, run_with_timeout

PDUS = pmt.intern("pdus")
RATES = (6, 9, 12, 18, 24, 36, 48, 54)
N_DBPS = {6: 24, 9: 36, 12: 48, 18: 72, 24: 96, 36: 144, 48: 192, 54: 216}
KEYS = ("rate", "psdu_len", "crc_ok", "seed", "snr_db", "cfo_hz", "start", "sync_metric")


def frame_samples(psdu_len, rate):
    n_sym = -(-(16 + 8 * psdu_len + 6) // N_DBPS[rate])
    return 320 + 80 * (1 + n_sym) + 1


def psdu_with_fcs(n, seed):
    """n octets: random, then the 802.11 FCS (CRC-32, least significant octet first)."""
    body = np.random.default_rng(seed).integers(0, 256, n - 4, dtype=np.uint8).tobytes()
    return np.frombuffer(body + struct.pack("<I", zlib.crc32(body)), dtype=np.uint8)


def some_frames(n, seed, max_len=1500):
    rng = np.random.default_rng(seed)
    return [(psdu_with_fcs(int(rng.integers(24, max_len)), seed + i), RATES[i % 8])
            for i in range(n)]


def read_pcap(path):
    """(global header fields, [(sec, usec, incl, orig, payload)]) of a classic pcap file."""
    with open(path, "rb") as f:
        b = f.read()
    magic, major, minor, zone, sigfigs, snaplen, network = struct.unpack_from("<IHHiIII", b, 0)
    recs, at = [], 24
    while at < len(b):
        sec, usec, incl, orig = struct.unpack_from("<IIII", b, at)
        recs.append((sec, usec, incl, orig, b[at + 16:at + 16 + incl]))
        at += 16 + incl
    return (magic, major, minor, zone, sigfigs, snaplen, network), recs


class qa_wifi_rx(gr_unittest.TestCase):

    def transmit(self, frames, gap=400, lead=0, last_gap=True):
        """The frames through wifi_tx (CPU) into a vector sink: (samples with `lead` zeros
        in front, the wifi_start tags' [(offset, dict)])."""
        tb = gr.top_block()
        tx = gpuofdm.wifi_tx(gap_samples=gap, seed=0, device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(tx, snk)
        for psdu, rate in frames:
            tx._post(PDUS, make_pdu(psdu, rate=rate))
        tx._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))
        run_with_timeout(tb)
        x = np.concatenate([np.zeros(lead, np.complex64), np.array(snk.data(), np.complex64)])
        if not last_gap:
            x = x[:len(x) - gap]
        tags = sorted((t.offset + lead, pmt.to_python(t.value)) for t in snk.tags()
                      if pmt.symbol_to_string(t.key) == "wifi_start")
        self.assertEqual(len(tags), len(frames))
        return x, tags

    def receive(self, x, **kw):
        """vector_source -> wifi_rx -> message_debug, run to the end; (PDUs, block)."""
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist(), False)
        rx = gpuofdm.wifi_rx(**kw)
        dbg = blocks.message_debug()
        tb.connect(src, rx)
        tb.msg_connect(rx, "pdus", dbg, "store")
        run_with_timeout(tb)
        return pdus_of(dbg), rx

    def check_all_back(self, frames, got, tags=None, cfo_hz=0.0, start_tol=0):
        self.assertEqual(len(got), len(frames))
        for i, ((psdu, rate), (meta, data)) in enumerate(zip(frames, got)):
            self.assertEqual(sorted(meta), sorted(KEYS), "frame %d" % i)
            np.testing.assert_array_equal(data, psdu, "frame %d" % i)
            self.assertEqual(pmt.to_long(meta["rate"]), rate)
            self.assertEqual(pmt.to_long(meta["psdu_len"]), len(psdu))
            self.assertTrue(pmt.is_bool(meta["crc_ok"]) and pmt.to_bool(meta["crc_ok"]))
            self.assertTrue(pmt.is_uint64(meta["start"]))
            self.assertGreater(pmt.to_double(meta["sync_metric"]), 0.56)
            self.assertGreater(pmt.to_double(meta["snr_db"]), 10.0)
            self.assertAlmostEqual(pmt.to_double(meta["cfo_hz"]), cfo_hz, delta=2e3)
            if tags is not None:
                off, tag = tags[i]
                self.assertLessEqual(abs(pmt.to_uint64(meta["start"]) - off), start_tol,
                                     "frame %d" % i)
                self.assertEqual(pmt.to_long(meta["seed"]), tag["seed"])

    def test_001_tx_channel_rx_every_psdu_back(self):
        # wifi_tx -> channel_model (AWGN ~26 dB, 50 kHz CFO, 3 taps) -> wifi_rx -> message_debug;
        # the flowgraph ends by itself once wifi_tx has sent everything.
        frames = some_frames(30, 100)
        tb = gr.top_block()
        tx = gpuofdm.wifi_tx(gap_samples=400, seed=0, device="cpu")
        ch = channels.channel_model(noise_voltage=0.05, frequency_offset=50e3 / 20e6,
                                    epsilon=1.0, taps=[1.0, 0.3j, 0.1], noise_seed=7)
        rx = gpuofdm.wifi_rx(batch_samples=131072, device="cpu")
        dbg = blocks.message_debug()
        tags = blocks.vector_sink_c()
        tb.connect(tx, ch, rx)
        tb.connect(tx, tags)
        tb.msg_connect(rx, "pdus", dbg, "store")
        for psdu, rate in frames:
            tx._post(PDUS, make_pdu(psdu, rate=rate))
        tx._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))
        run_with_timeout(tb)
        starts = sorted((t.offset, pmt.to_python(t.value)) for t in tags.tags())
        self.check_all_back(frames, pdus_of(dbg), starts, cfo_hz=50e3, start_tol=3)
        self.assertEqual(rx.frames_received(), len(frames))
        self.assertEqual(rx.crc_errors(), 0)
        self.assertEqual(rx.truncated(), 0)
        self.assertEqual(rx.pdus_published(), len(frames))
        # channel_model's fractional resampler keeps a few samples back (its history).
        self.assertLessEqual(abs(rx.samples() - len(tags.data())), 16)
        self.assertEqual(rx.device(), "cpu")

    def test_002_recorded_stream_decoded_to_the_last_frame(self):
        # Frames back to back (no gap), the last ending on the stream's last sample: the
        # whole stream fits one batch (everything is decoded at the end of the stream) or
        # spans several (frames straddle batch boundaries).
        frames = some_frames(12, 200) + [(psdu_with_fcs(4095, 1), 6), (psdu_with_fcs(60, 2), 54)]
        x, tags = self.transmit(frames, gap=0, lead=300, last_gap=False)
        self.assertEqual(len(x), 300 + sum(frame_samples(len(p), r) for p, r in frames))
        x = x + 0.02 * (np.random.default_rng(3).standard_normal((len(x), 2)) @ [1, 1j])
        x = x.astype(np.complex64)
        for batch in (131072, 1 << 20):
            got, rx = self.receive(x, batch_samples=batch, device="cpu")
            self.check_all_back(frames, got, tags)
            self.assertEqual(rx.truncated(), 0)
            self.assertEqual(rx.samples(), len(x))
        # Only the last frame, alone in the stream: decoded at the end.
        x1, tags1 = self.transmit(frames[-1:], gap=0, last_gap=False)
        got, _ = self.receive(x1, device="cpu")
        self.check_all_back(frames[-1:], got, tags1)

    def test_002b_pilot_interpolation_decodes_too(self):
        # The interpolating pilot tracker in the block: every rate back through noise.
        frames = some_frames(16, 300)
        x, tags = self.transmit(frames, gap=200, lead=300)
        x = x + 0.02 * (np.random.default_rng(4).standard_normal((len(x), 2)) @ [1, 1j])
        got, rx = self.receive(x.astype(np.complex64), device="cpu", pilot_interpolation=True)
        self.assertTrue(rx.pilot_interpolation())
        self.check_all_back(frames, got, tags)

    def test_003_file_source_to_the_end(self):
        frames = some_frames(8, 300)
        x, tags = self.transmit(frames, gap=250, lead=1000, last_gap=False)
        with tempfile.TemporaryDirectory(prefix="gpuofdm_qa_wifi_rx_") as tmp:
            path = os.path.join(tmp, "frames.cf32")
            x.astype(np.complex64).tofile(path)
            tb = gr.top_block()
            src = blocks.file_source(gr.sizeof_gr_complex, path, False)
            rx = gpuofdm.wifi_rx(device="cpu")
            dbg = blocks.message_debug()
            tb.connect(src, rx)
            tb.msg_connect(rx, "pdus", dbg, "store")
            run_with_timeout(tb)
        self.check_all_back(frames, pdus_of(dbg), tags)
        self.assertEqual(rx.samples(), len(x))

    def test_004_cut_frame_counted_not_published(self):
        frames = some_frames(3, 400)
        x, _ = self.transmit(frames, gap=100, last_gap=False)
        got, rx = self.receive(x[:-300], pass_bad_crc=True, device="cpu")
        self.assertEqual([len(p) for _, p in got], [len(frames[0][0]), len(frames[1][0])])
        self.assertEqual(rx.truncated(), 1)

    def test_005_noise_only_gives_no_pdu(self):
        rng = np.random.default_rng(5)
        x = ((rng.standard_normal(500000) + 1j * rng.standard_normal(500000)) *
             np.sqrt(0.5)).astype(np.complex64)
        got, rx = self.receive(x, pass_bad_crc=True, device="cpu")
        self.assertEqual(got, [])
        self.assertEqual(rx.frames_received(), 0)
        self.assertEqual(rx.samples(), len(x))
        got, _ = self.receive(np.zeros(300000, np.complex64), pass_bad_crc=True, device="cpu")
        self.assertEqual(got, [])

    def test_006_bad_fcs_counted_and_passed_on_request(self):
        frames = some_frames(4, 600)
        bad = frames[1][0].copy()
        bad[-1] ^= 0x5A                     # a wrong FCS
        sent = [frames[0], (bad, frames[1][1]), frames[2], frames[3]]
        x, _ = self.transmit(sent, gap=300)
        got, rx = self.receive(x, device="cpu")
        self.assertEqual(len(got), 3)
        self.assertEqual((rx.frames_received(), rx.crc_errors()), (3, 1))
        got, rx = self.receive(x, pass_bad_crc=True, device="cpu")
        self.assertEqual([pmt.to_bool(m["crc_ok"]) for m, _ in got], [True, False, True, True])
        np.testing.assert_array_equal(got[1][1], bad)
        self.assertTrue(rx.pass_bad_crc())
        rx.set_pass_bad_crc(False)
        self.assertFalse(rx.pass_bad_crc())

    def test_007_pcap_one_record_per_pdu(self):
        frames = some_frames(6, 700)
        bad = frames[2][0].copy()
        bad[0] ^= 1
        frames[2] = (bad, frames[2][1])
        x, tags = self.transmit(frames, gap=500, lead=4000)
        with tempfile.TemporaryDirectory(prefix="gpuofdm_qa_wifi_rx_") as tmp:
            path = os.path.join(tmp, "rx.pcap")
            got, rx = self.receive(x, pass_bad_crc=True, pcap_file=path, device="cpu")
            self.assertEqual(rx.pcap_file(), path)
            header, recs = read_pcap(path)
        self.assertEqual(header, (0xa1b2c3d4, 2, 4, 0, 0, 65535, 105))
        self.assertEqual(len(got), len(frames))
        self.assertEqual(len(recs), len(got))
        for (meta, psdu), (sec, usec, incl, orig, payload) in zip(got, recs):
            self.assertEqual((incl, orig), (len(psdu), len(psdu)))
            self.assertEqual(payload, psdu.tobytes())
            self.assertAlmostEqual(sec + usec * 1e-6, pmt.to_uint64(meta["start"]) / 20e6,
                                   delta=1e-6)
        self.assertEqual(pmt.to_uint64(got[0][0]["start"]), tags[0][0])
        # Good frames only: the bad one is neither published nor written.
        with tempfile.TemporaryDirectory(prefix="gpuofdm_qa_wifi_rx_") as tmp:
            path = os.path.join(tmp, "rx.pcap")
            got, _ = self.receive(x, pcap_file=path, device="cpu")
            _, recs = read_pcap(path)
        self.assertEqual(len(got), len(frames) - 1)
        self.assertEqual(len(recs), len(got))

    def test_008_message_strobe_and_stop(self):
        # PDUs from a message strobe, a live-like flowgraph stopped with tb.stop().
        psdu = psdu_with_fcs(1000, 8)
        tb = gr.top_block()
        strobe = blocks.message_strobe(make_pdu(psdu, rate=36), 5)
        tx = gpuofdm.wifi_tx(gap_samples=400, device="cpu")
        rx = gpuofdm.wifi_rx(batch_samples=131072, device="cpu")
        dbg = blocks.message_debug()
        tb.msg_connect(strobe, "strobe", tx, "pdus")
        tb.connect(tx, rx)
        tb.msg_connect(rx, "pdus", dbg, "store")
        tb.start()
        t0 = time.time()
        while dbg.num_messages() < 3 and time.time() - t0 < 30:
            time.sleep(0.05)
        stopper = threading.Thread(target=lambda: (tb.stop(), tb.wait()), daemon=True)
        stopper.start()
        stopper.join(10)
        self.assertFalse(stopper.is_alive(), "the flowgraph did not stop")
        got = pdus_of(dbg)
        self.assertGreaterEqual(len(got), 3)
        for meta, data in got:
            np.testing.assert_array_equal(data, psdu)
            self.assertEqual(pmt.to_long(meta["rate"]), 36)
        # Frames held at the stop are counted too (not necessarily published).
        self.assertGreaterEqual(rx.frames_received(), len(got))

    def test_009_idle_block_does_not_spin(self):
        # One frame, then nothing: the block keeps its newest sample back and must sleep.
        tb = gr.top_block()
        tx = gpuofdm.wifi_tx(device="cpu")
        rx = gpuofdm.wifi_rx(device="cpu")
        tb.connect(tx, rx)
        tx._post(PDUS, make_pdu(psdu_with_fcs(100, 9), rate=54))
        tb.start()
        t0 = time.time()
        while rx.samples() == 0 and time.time() - t0 < 10:
            time.sleep(0.02)
        time.sleep(0.2)
        c0, t0 = time.process_time(), time.time()
        time.sleep(1.0)
        cpu = (time.process_time() - c0) / (time.time() - t0)
        tb.stop()
        tb.wait()
        self.assertLess(cpu, 0.2, "the idle flowgraph used %.0f%% of a core" % (100 * cpu))
        # The newest sample stays unread while the stream goes on.
        self.assertIn(rx.samples(), (frame_samples(100, 54) + 399, frame_samples(100, 54) + 400))
        self.assertEqual(rx.frames_received(), 1)  # decoded in stop()

    def test_010_bad_parameters_raise_value_error(self):
        for kw, name in (({"batch_samples": 1000}, "batch_samples"),
                         ({"batch_samples": 2 ** 24 + 1}, "batch_samples"),
                         ({"threshold": 0.0}, "threshold"), ({"threshold": 1.0}, "threshold"),
                         ({"threshold": float("nan")}, "threshold"),
                         ({"fft_backoff": -1}, "fft_backoff"), ({"fft_backoff": 9}, "fft_backoff"),
                         ({"device": "gpu"}, "device")):
            with self.assertRaises(ValueError) as ctx:
                gpuofdm.wifi_rx(**kw)
            self.assertIn(name, str(ctx.exception))
        with self.assertRaises(RuntimeError) as ctx:
            gpuofdm.wifi_rx(pcap_file="/nonexistent-gpuofdm-dir/x.pcap", device="cpu")
        self.assertIn("/nonexistent-gpuofdm-dir/x.pcap", str(ctx.exception))
        rx = gpuofdm.wifi_rx(device="cpu")
        self.assertEqual((rx.batch_samples(), rx.pass_bad_crc(), rx.pcap_file(),
                          rx.fft_backoff()), (262144, False, "", 3))
        self.assertAlmostEqual(rx.threshold(), 0.56, places=6)

    def test_011_cuda_without_gpu_is_a_clear_error(self):
        if not gpu_reason():
            self.skipTest("a GPU is usable here; this checks the no-GPU error")
        with self.assertRaises(RuntimeError) as ctx:
            gpuofdm.wifi_rx(device="cuda")
        self.assertIn(gpu_reason(), str(ctx.exception))
        self.assertEqual(gpuofdm.wifi_rx(device="auto").device(), "cpu")

    def test_012_cuda_matches_cpu_twin(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        frames = some_frames(60, 1200)
        x, tags = self.transmit(frames, gap=200, lead=500, last_gap=False)
        rng = np.random.default_rng(12)
        x = (x * np.exp(2j * np.pi * -20e3 / 20e6 * np.arange(len(x))) +
             0.03 * (rng.standard_normal(len(x)) + 1j * rng.standard_normal(len(x))))
        x = x.astype(np.complex64)
        want, _ = self.receive(x, batch_samples=131072, pass_bad_crc=True, device="cpu")
        got, grx = self.receive(x, batch_samples=131072, pass_bad_crc=True, device="cuda")
        self.assertEqual(grx.device(), "cuda:0")
        self.check_all_back(frames, got, tags, cfo_hz=-20e3)
        self.assertEqual(len(got), len(want))
        for (gm, gp), (wm, wp) in zip(got, want):
            np.testing.assert_array_equal(gp, wp)
            for k in ("rate", "psdu_len", "crc_ok", "seed", "start"):
                self.assertTrue(pmt.equal(gm[k], wm[k]), k)
            self.assertAlmostEqual(pmt.to_double(gm["snr_db"]), pmt.to_double(wm["snr_db"]),
                                   delta=0.05)


if __name__ == "__main__":
    gr_unittest.run(qa_wifi_rx)
