#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""ofdm_sync_cc in flowgraphs: wifi_tx -> channel_model (noise, 80 kHz CFO, taps) ->
ofdm_sync_cc gives one "ofdm_sync" tag per frame at its start (within a couple of samples),
cfo_hz within a few kHz, output derotated (no phase drift across T1/T2) and exactly
x[i] exp(-j cfo (i - start)), as many samples out as in, a message per frame; many short
frames with small batches (batch edges) found once each, the same for every batch size;
noise alone: no tag and the samples unchanged; NaNs: no crash; input tags passed on;
802.16 bursts from wimax_tx; bad parameters raise ValueError; CUDA against the CPU twin."""

import threading

import numpy as np
import pmt
from gnuradio import blocks, channels, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason

PDUS = pmt.intern("pdus")
RATES = (6, 9, 12, 18, 24, 36, 48, 54)
KEYS = ("cfo", "cfo_hz", "metric", "ltf_metric", "ltf_start")
RUN_TIMEOUT_S = 120


def run_with_timeout(tb, timeout=RUN_TIMEOUT_S):
    t = threading.Thread(target=tb.run, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        tb.stop()
        tb.wait()
        raise AssertionError("the flowgraph did not end within %g s" % timeout)


def make_pdu(data, **meta):
    d = pmt.make_dict()
    for k, v in meta.items():
        d = pmt.dict_add(d, pmt.intern(k), pmt.to_pmt(v))
    return pmt.cons(d, pmt.init_u8vector(len(data), [int(b) for b in data]))


def some_frames(n, seed, max_len=400):
    rng = np.random.default_rng(seed)
    return [(rng.integers(0, 256, int(rng.integers(1, max_len)), dtype=np.uint8), RATES[i % 8])
            for i in range(n)]


def tags_of(tags, key):
    """[(offset, value as a Python dict)] of the tags with this key, by offset."""
    return sorted(((t.offset, pmt.to_python(t.value)) for t in tags
                   if pmt.symbol_to_string(t.key) == key), key=lambda ov: ov[0])


def impair(x, cfo_hz, noise, seed, fs=20e6):
    n = np.arange(len(x))
    rng = np.random.default_rng(seed)
    y = x * np.exp(2j * np.pi * cfo_hz / fs * n)
    y = y + noise * (rng.standard_normal(len(x)) + 1j * rng.standard_normal(len(x))) / np.sqrt(2)
    return y.astype(np.complex64)


def expected_output(x, tags):
    """x derotated from each tag's offset on by that tag's cfo (the block's definition)."""
    y = x.astype(np.complex128).copy()
    for k, (off, d) in enumerate(tags):
        end = tags[k + 1][0] if k + 1 < len(tags) else len(x)
        i = np.arange(off, end)
        y[off:end] = x[off:end] * np.exp(-1j * d["cfo"] * (i - off))
    return y


def ltf_drift(y, ltf):
    """Phase (rad) from T1 to T2: ~64 cfo before derotation, ~0 after."""
    return float(np.angle(np.sum(y[ltf + 64:ltf + 128] * np.conj(y[ltf:ltf + 64]))))


class qa_ofdm_sync_cc(gr_unittest.TestCase):

    def transmit(self, frames, gap=300, lead=500):
        """The frames through wifi_tx (CPU): (samples with `lead` zeros in front, the true
        frame starts: wifi_start offsets)."""
        tb = gr.top_block()
        tx = gpuofdm.wifi_tx(gap_samples=gap, seed=0, device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(tx, snk)
        for data, rate in frames:
            tx._post(PDUS, make_pdu(data, rate=rate))
        tx._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))
        run_with_timeout(tb)
        x = np.concatenate([np.zeros(lead, np.complex64), np.array(snk.data(), np.complex64)])
        starts = [off + lead for off, _ in tags_of(snk.tags(), "wifi_start")]
        self.assertEqual(len(starts), len(frames))
        return x, starts

    def sync(self, x, tags=(), **kw):
        """vector_source -> ofdm_sync_cc -> vector_sink (+ message_debug on "frames"):
        (output, all output tags, the messages as dicts, block)."""
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist(), False, 1, list(tags))
        blk = gpuofdm.ofdm_sync_cc(**kw)
        snk = blocks.vector_sink_c()
        dbg = blocks.message_debug()
        tb.connect(src, blk, snk)
        tb.msg_connect(blk, "frames", dbg, "store")
        run_with_timeout(tb)
        msgs = [pmt.to_python(dbg.get_message(i)) for i in range(dbg.num_messages())]
        return np.array(snk.data(), np.complex64), snk.tags(), msgs, blk

    def check_frames(self, got, starts, cfo_hz, start_tol=2, cfo_tol=3e3):
        self.assertEqual(len(got), len(starts), [o for o, _ in got])
        for (off, d), s in zip(got, starts):
            self.assertEqual(sorted(d), sorted(KEYS))
            self.assertLessEqual(abs(off - s), start_tol, (off, s))
            # The frame's first sample is T1 - 192 (0 when T1 is found before 192).
            self.assertEqual(off, max(d["ltf_start"] - 192, 0))
            self.assertAlmostEqual(d["cfo_hz"], cfo_hz, delta=cfo_tol)
            self.assertAlmostEqual(d["cfo"], 2 * np.pi * d["cfo_hz"] / 20e6, places=9)
            self.assertGreater(d["metric"], 0.56)
            self.assertGreater(d["ltf_metric"], 0.35)

    def test_001_tx_channel_sync(self):
        # wifi_tx -> channel_model (AWGN ~26 dB, 80 kHz CFO, 3 taps) -> ofdm_sync_cc.
        frames = some_frames(20, 1, max_len=1500)
        tb = gr.top_block()
        tx = gpuofdm.wifi_tx(gap_samples=400, seed=0, device="cpu")
        ch = channels.channel_model(noise_voltage=0.05, frequency_offset=80e3 / 20e6,
                                    epsilon=1.0, taps=[1.0, 0.3j, 0.1], noise_seed=7)
        blk = gpuofdm.ofdm_sync_cc(batch_samples=16384, device="cpu")
        truth, before, after = (blocks.vector_sink_c(), blocks.vector_sink_c(),
                                blocks.vector_sink_c())
        dbg = blocks.message_debug()
        tb.connect(tx, truth)
        tb.connect(tx, ch, blk, after)
        tb.connect(ch, before)
        tb.msg_connect(blk, "frames", dbg, "store")
        for data, rate in frames:
            tx._post(PDUS, make_pdu(data, rate=rate))
        tx._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))
        run_with_timeout(tb)

        x = np.array(before.data(), np.complex64)
        y = np.array(after.data(), np.complex64)
        self.assertEqual(len(y), len(x))  # one out per in, nothing held at the end
        starts = [o for o, _ in tags_of(truth.tags(), "wifi_start")]
        got = tags_of(after.tags(), "ofdm_sync")
        self.check_frames(got, starts, 80e3, start_tol=3)
        self.assertEqual(blk.frames_detected(), len(frames))
        # The CFO is gone: no phase drift from T1 to T2 (1.6 rad before the block).
        for off, d in got:
            self.assertAlmostEqual(abs(ltf_drift(x, d["ltf_start"])), 2 * np.pi * 80e3 / 20e6 * 64,
                                   delta=0.1)
            self.assertLess(abs(ltf_drift(y, d["ltf_start"])), 0.05)
        # Exactly the stated derotation, and nothing before the first frame.
        want = expected_output(x, got)
        self.assertLess(np.max(np.abs(y - want)), 1e-4 * max(1.0, np.max(np.abs(x))))
        np.testing.assert_array_equal(y[:got[0][0]], x[:got[0][0]])
        # One message per frame: the tag's dict plus "offset".
        msgs = [pmt.to_python(dbg.get_message(i)) for i in range(dbg.num_messages())]
        self.assertEqual(len(msgs), len(got))
        for m, (off, d) in zip(msgs, got):
            self.assertEqual(m["offset"], off)
            self.assertEqual({k: m[k] for k in KEYS}, d)
        # wifi_tx's tags pass through (channel_model keeps them at their offsets, +-1).
        passed = [o for o, _ in tags_of(after.tags(), "wifi_start")]
        self.assertEqual(len(passed), len(frames))

    def test_002_batch_edges_no_frame_lost_or_doubled(self):
        # 80 short frames with short gaps: with 1024-sample calls nearly every frame
        # straddles a call edge; every batch size gives the same tags.
        frames = some_frames(80, 2, max_len=120)
        x, starts = self.transmit(frames, gap=100, lead=700)
        x = impair(x, -40e3, 0.03, 3)
        ref = None
        for batch in (1024, 1500, 4096, 65536):
            y, tags, msgs, blk = self.sync(x, batch_samples=batch, device="cpu")
            self.assertEqual(len(y), len(x))
            got = tags_of(tags, "ofdm_sync")
            self.check_frames(got, starts, -40e3)
            self.assertEqual(len(msgs), len(frames))
            if ref is None:
                ref = (got, y)
            else:
                self.assertEqual([o for o, _ in got], [o for o, _ in ref[0]], "batch %d" % batch)
                for (_, a), (_, b) in zip(got, ref[0]):
                    for k in KEYS:
                        self.assertAlmostEqual(a[k], b[k], places=5)
                self.assertLess(np.max(np.abs(y - ref[1])), 1e-4)

    def test_003_frame_at_the_very_end_and_start(self):
        # A frame ending on the stream's last sample is found, its samples all output; a
        # frame starting at sample 0 too.
        frames = some_frames(3, 4)
        x, starts = self.transmit(frames, gap=200, lead=0)
        x = impair(x[:len(x) - 200], 20e3, 0.02, 5)
        for batch in (1024, 65536):
            y, tags, _, _ = self.sync(x, batch_samples=batch, device="cpu")
            self.assertEqual(len(y), len(x))
            self.check_frames(tags_of(tags, "ofdm_sync"), starts, 20e3)

    def test_004_noise_alone_no_tag_samples_unchanged(self):
        rng = np.random.default_rng(9)
        x = ((rng.standard_normal(300000) + 1j * rng.standard_normal(300000)) / np.sqrt(2))
        x = x.astype(np.complex64)
        y, tags, msgs, blk = self.sync(x, batch_samples=8192, device="cpu")
        self.assertEqual(tags_of(tags, "ofdm_sync"), [])
        self.assertEqual(msgs, [])
        np.testing.assert_array_equal(y, x)
        self.assertEqual(blk.frames_detected(), 0)
        # Digital silence too.
        y0, tags0, _, _ = self.sync(np.zeros(50000, np.complex64), device="cpu")
        self.assertEqual(len(y0), 50000)
        self.assertEqual(tags_of(tags0, "ofdm_sync"), [])

    def test_005_nans_do_not_crash(self):
        frames = some_frames(6, 5)
        x, starts = self.transmit(frames, gap=400, lead=300)
        x = impair(x, 10e3, 0.02, 6)
        # NaNs and infinities in the gap between frames 2 and 3, and all over frame 5.
        g = starts[3] - 100
        x[g:g + 20] = np.nan
        x[g + 30] = np.inf
        x[starts[5] + 5:starts[5] + 400:7] = complex(np.nan, np.nan)
        y, tags, _, _ = self.sync(x, batch_samples=2048, device="cpu")
        self.assertEqual(len(y), len(x))
        got = [o for o, _ in tags_of(tags, "ofdm_sync")]
        for s in starts[:5]:
            self.assertTrue(any(abs(o - s) <= 2 for o in got), (s, got))
        # A NaN in is a NaN out; finite samples stay finite.
        self.assertTrue(np.array_equal(np.isfinite(y), np.isfinite(x)))

    def test_006_input_tags_pass_at_their_offsets(self):
        frames = some_frames(2, 7)
        x, starts = self.transmit(frames, gap=300, lead=300)
        tags = []
        for off in (0, 17, starts[1], len(x) - 1):
            t = gr.tag_t()
            t.offset = off
            t.key = pmt.intern("mark")
            t.value = pmt.from_long(off)
            tags.append(t)
        y, out_tags, _, _ = self.sync(x, tags=tags, batch_samples=1024, device="cpu")
        self.assertEqual([(o, v) for o, v in tags_of(out_tags, "mark")],
                         [(o, o) for o in (0, 17, starts[1], len(x) - 1)])
        self.assertEqual(len(tags_of(out_tags, "ofdm_sync")), 2)

    def test_007_wimax_bursts(self):
        # wimax_tx (long preamble, CP 1/4, 4 Msps) -> 5 kHz CFO, noise -> 802.16 sync.
        fs = 4e6
        rng = np.random.default_rng(8)
        tb = gr.top_block()
        tx = gpuofdm.wimax_tx(rate_id=1, cp_div=4, gap_samples=600, device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(tx, snk)
        for _ in range(6):
            tx._post(PDUS, make_pdu(rng.integers(0, 256, int(rng.integers(10, 200)),
                                                 dtype=np.uint8)))
        tx._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))
        run_with_timeout(tb)
        lead = 1000
        x = np.concatenate([np.zeros(lead, np.complex64), np.array(snk.data(), np.complex64)])
        starts = [o + lead for o, _ in tags_of(snk.tags(), "wimax_start")]
        self.assertEqual(len(starts), 6)
        x = impair(x, 5e3, 0.03, 9, fs=fs)
        for batch in (4096, 65536):
            y, tags, msgs, blk = self.sync(x, standard="802.16", threshold=0.5,
                                           batch_samples=batch, sample_rate=fs, device="auto")
            self.assertTrue(blk.device() == "cpu" or blk.device().startswith("cuda"))
            self.assertEqual(blk.standard(), "802.16")
            self.assertEqual(len(y), len(x))
            got = tags_of(tags, "ofdm_sync")
            self.assertEqual(len(got), len(starts), [o for o, _ in got])
            for (off, d), s in zip(got, starts):
                self.assertLessEqual(abs(off - s), 2)
                self.assertEqual(d["ltf_start"], off + 320 + 64)
                self.assertAlmostEqual(d["cfo_hz"], 5e3, delta=1e3)
                # The second preamble symbol (period 128) has no drift left.
                u = d["ltf_start"]
                ph = np.angle(np.sum(y[u + 128:u + 256] * np.conj(y[u:u + 128])))
                self.assertLess(abs(ph), 0.05)
            self.assertEqual(len(msgs), len(starts))

    def test_008_bad_parameters(self):
        bad = [dict(standard="802.11n"), dict(threshold=0.0), dict(threshold=1.0),
               dict(min_plateau=15), dict(min_plateau=97), dict(batch_samples=1023),
               dict(batch_samples=2 ** 26 + 1), dict(sample_rate=0.0),
               dict(sample_rate=float("nan")), dict(device="gpu"),
               dict(standard="802.16", threshold=0.9), dict(standard="802.16", cp_div=5),
               dict(standard="802.16", device="gpu"), dict(standard="80216", batch_samples=1024)]
        names = ["standard", "threshold", "threshold", "min_plateau", "min_plateau",
                 "batch_samples", "batch_samples", "sample_rate", "sample_rate", "device",
                 "threshold", "cp_div", "device", "batch_samples"]
        for kw, name in zip(bad, names):
            with self.assertRaises(ValueError, msg=str(kw)) as cm:
                gpuofdm.ofdm_sync_cc(**kw)
            self.assertIn(name, str(cm.exception))
        b = gpuofdm.ofdm_sync_cc("80211a", 0.5, 40, 2048, 10e6, "cpu")
        self.assertEqual((b.standard(), b.threshold(), b.min_plateau(), b.batch_samples(),
                          b.sample_rate(), b.device(), b.lookback()),
                         ("802.11a", 0.5, 40, 2048, 10e6, "cpu", 512))

    def test_009_cuda_matches_cpu(self):
        why = gpu_reason()
        if why:
            self.skipTest("no usable GPU: " + why)
        frames = some_frames(40, 10, max_len=300)
        x, starts = self.transmit(frames, gap=150, lead=400)
        x = impair(x, 60e3, 0.03, 11)
        a = self.sync(x, batch_samples=4096, device="cpu")
        b = self.sync(x, batch_samples=4096, device="cuda")
        self.assertTrue(b[3].device().startswith("cuda"))
        ta, tb_ = tags_of(a[1], "ofdm_sync"), tags_of(b[1], "ofdm_sync")
        self.check_frames(ta, starts, 60e3)
        self.assertEqual([o for o, _ in ta], [o for o, _ in tb_])
        for (_, da), (_, db) in zip(ta, tb_):
            self.assertEqual(da["ltf_start"], db["ltf_start"])
            self.assertAlmostEqual(da["cfo"], db["cfo"], delta=1e-5)
        self.assertLess(np.max(np.abs(a[0] - b[0])), 1e-3)

    def test_010_wimax_cuda_matches_cpu(self):
        why = gpu_reason()
        if why:
            self.skipTest("no usable GPU: " + why)
        rng = np.random.default_rng(10)
        tb = gr.top_block()
        tx = gpuofdm.wimax_tx(rate_id=3, cp_div=8, gap_samples=300, device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(tx, snk)
        for _ in range(8):
            tx._post(PDUS, make_pdu(rng.integers(0, 256, int(rng.integers(10, 200)),
                                                 dtype=np.uint8)))
        tx._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))
        run_with_timeout(tb)
        x = np.concatenate([np.zeros(700, np.complex64), np.array(snk.data(), np.complex64)])
        x = impair(x, -40e3, 0.05, 12, fs=4e6)
        kw = dict(standard="802.16", threshold=0.5, batch_samples=4096, sample_rate=4e6,
                  cp_div=8)
        a = self.sync(x, device="cpu", **kw)
        b = self.sync(x, device="cuda", **kw)
        self.assertTrue(b[3].device().startswith("cuda"))
        ta, tb_ = tags_of(a[1], "ofdm_sync"), tags_of(b[1], "ofdm_sync")
        self.assertEqual(len(ta), 8)
        self.assertEqual([o for o, _ in ta], [o for o, _ in tb_])
        for (_, da), (_, db) in zip(ta, tb_):
            self.assertEqual(da["ltf_start"], db["ltf_start"])
            self.assertAlmostEqual(da["cfo"], db["cfo"], delta=1e-5)
        self.assertLess(np.max(np.abs(a[0] - b[0])), 1e-3)


if __name__ == "__main__":
    gr_unittest.run(qa_ofdm_sync_cc)
