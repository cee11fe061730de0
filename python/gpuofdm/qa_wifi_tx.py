#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""wifi_tx in flowgraphs: the Annex G packet (Table G.24), several PDUs with their tags
and gaps, bad PDUs dropped, PDUs from a message strobe and from tagged_stream_to_pdu, no
busy wait when idle, and CUDA against the CPU twin."""

import glob
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, pdu

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason, source_dir, testvector_dir

PDUS = pmt.intern("pdus")
UNIT_POWER = 64 / math.sqrt(52)
N_DBPS = {6: 24, 9: 36, 12: 48, 18: 72, 24: 96, 36: 144, 48: 192, 54: 216}
TIME_TOL = 2e-3   # Table G.24 prints 3 decimals
RUN_TIMEOUT_S = 60


def annex_g(name):
    return os.path.join(testvector_dir(), "ieee80211a-annex-g", name)


def read_lines(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip() and not line.startswith("#")]


def frame_samples(psdu_len, rate):
    """802.11a 17.3.2 and Annex G: preamble 320, SIGNAL and N_SYM DATA symbols of 80, one
    more sample for the windowing; independent of the module."""
    n_sym = -(-(16 + 8 * psdu_len + 6) // N_DBPS[rate])
    return 320 + 80 * (1 + n_sym) + 1


def make_pdu(psdu, **meta):
    d = pmt.make_dict()
    for k, v in meta.items():
        d = pmt.dict_add(d, pmt.intern(k), v if isinstance(v, pmt.pmt_base) else pmt.to_pmt(v))
    return pmt.cons(d, pmt.init_u8vector(len(psdu), [int(b) for b in psdu]))


def random_psdu(n, seed):
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8)


def run_with_timeout(tb, timeout=RUN_TIMEOUT_S):
    """tb.run() that fails instead of hanging."""
    t = threading.Thread(target=tb.run, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        tb.stop()
        tb.wait()
        raise AssertionError("the flowgraph did not end within %g s" % timeout)


def start_tags(snk):
    """(offset, dict) of every wifi_start tag, in order."""
    out = []
    for t in snk.tags():
        if pmt.symbol_to_string(t.key) == "wifi_start":
            v = t.value
            out.append((t.offset, {k: pmt.to_long(pmt.dict_ref(v, pmt.intern(k), pmt.PMT_NIL))
                                   for k in ("rate", "psdu_len", "seed", "n_samples")}))
    return sorted(out, key=lambda x: x[0])


class qa_wifi_tx(gr_unittest.TestCase):

    def run_pdus(self, msgs, device="cpu", **kw):
        """Posts msgs to a fresh wifi_tx, then 'done' on its system port, so the graph
        ends once every frame is out; returns (samples, tags, block)."""
        tb = gr.top_block()
        blk = gpuofdm.wifi_tx(device=device, **kw)
        snk = blocks.vector_sink_c()
        tb.connect(blk, snk)
        for m in msgs:
            blk._post(PDUS, m)
        blk._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))
        run_with_timeout(tb)
        return np.array(snk.data(), dtype=np.complex64), start_tags(snk), blk

    def load_annex_g(self):
        g1, g24 = annex_g("G1.txt"), annex_g("G24.txt")
        if not (os.path.isfile(g1) and os.path.isfile(g24)):
            self.skipTest("Annex G test vectors absent (%s); set GPUOFDM_TESTVECTORS" % g1)
        psdu = np.array([int(x[0], 16) for x in read_lines(g1)], dtype=np.uint8)
        g24 = np.array([float(x[0]) + 1j * float(x[1]) for x in read_lines(g24)])
        self.assertEqual(len(psdu), 100)
        self.assertEqual(len(g24), 881)
        return psdu, g24

    def test_001_annex_g_packet(self):
        psdu, g24 = self.load_annex_g()
        # Scale 1: the tables' level, rate and seed from the block's defaults.
        out, tags, blk = self.run_pdus([make_pdu(psdu)], rate=36, seed=93, gap_samples=0,
                                       scale=1.0)
        self.assertEqual(len(out), 881)
        self.assertLessEqual(np.max(np.abs(out - g24)), TIME_TOL)
        self.assertEqual(tags, [(0, {"rate": 36, "psdu_len": 100, "seed": 93,
                                     "n_samples": 881})])
        self.assertEqual(blk.frames_sent(), 1)
        # The default scale, rate and seed from the metadata, a gap after the frame.
        out, tags, _ = self.run_pdus([make_pdu(psdu, rate=36, seed=93)], rate=6, seed=5)
        self.assertEqual(len(out), 881 + 400)
        self.assertLessEqual(np.max(np.abs(out[:881] / UNIT_POWER - g24)), TIME_TOL)
        self.assertTrue(np.all(out[881:] == 0))
        self.assertEqual(tags[0][1]["seed"], 93)
        # Unit average power over SIGNAL and DATA (samples 320 .. 880).
        self.assertAlmostEqual(np.mean(np.abs(out[400:880]) ** 2), 1.0, delta=0.1)

    def test_002_several_pdus_tags_and_gaps(self):
        psdu, g24 = self.load_annex_g()
        lens_rates = [(1, 6), (100, 36), (1500, 54), (37, 9), (4095, 48), (200, 54)]
        psdus = [psdu if (n, r) == (100, 36) else random_psdu(n, n) for n, r in lens_rates]
        msgs = [make_pdu(p, rate=r, seed=93) for p, (n, r) in zip(psdus, lens_rates)]
        gap = 123
        # A small batch limit too, so the frames go out in several batches.
        for batch in (64, 2):
            out, tags, blk = self.run_pdus(msgs, gap_samples=gap, max_frames_per_batch=batch)
            sizes = [frame_samples(n, r) for n, r in lens_rates]
            self.assertEqual(len(out), sum(sizes) + gap * len(sizes))
            offsets = np.cumsum([0] + [s + gap for s in sizes])[:-1]
            self.assertEqual([t[0] for t in tags], list(offsets))
            for (off, v), (n, r), s in zip(tags, lens_rates, sizes):
                self.assertEqual(v, {"rate": r, "psdu_len": n, "seed": 93, "n_samples": s})
                self.assertTrue(np.all(out[off + s:off + s + gap] == 0), "gap after %d" % off)
                self.assertGreater(np.min(np.abs(out[off:off + 320])), 0)  # the preamble is there
            self.assertEqual(blk.frames_sent(), len(sizes))
            # The Annex G frame, second in line, is Table G.24.
            a = offsets[1]
            self.assertLessEqual(np.max(np.abs(out[a:a + 881] / UNIT_POWER - g24)), TIME_TOL)
            # Each frame is what it is alone.
            for i in (0, 2, 4):
                alone, _, _ = self.run_pdus([msgs[i]], gap_samples=0)
                np.testing.assert_array_equal(out[offsets[i]:offsets[i] + sizes[i]], alone)

    def test_003_seed_zero_counts_1_to_127(self):
        p = random_psdu(50, 3)
        out, tags, _ = self.run_pdus([make_pdu(p)] * 130 + [make_pdu(p, seed=77)], seed=0,
                                     rate=24, gap_samples=0)
        self.assertEqual([t[1]["seed"] for t in tags],
                         list(range(1, 128)) + [1, 2, 3] + [77])
        # The third frame is the frame with seed 3.
        n = frame_samples(50, 24)
        alone, _, _ = self.run_pdus([make_pdu(p, seed=3)], rate=24, gap_samples=0)
        np.testing.assert_array_equal(out[2 * n:3 * n], alone)
        self.assertFalse(np.array_equal(out[:n], out[n:2 * n]))

    def test_004_bad_pdus_dropped_rest_sent(self):
        good = [make_pdu(random_psdu(n, n), rate=r) for n, r in ((10, 6), (300, 54), (4095, 6))]
        bad = [
            make_pdu([]),                                              # empty
            make_pdu(random_psdu(4096, 1)),                            # too long
            make_pdu(random_psdu(10, 2), rate=7),                      # unknown rate
            make_pdu(random_psdu(10, 2), rate="fast"),                 # not a number
            make_pdu(random_psdu(10, 2), seed=0),                      # seed outside 1..127
            make_pdu(random_psdu(10, 2), seed=128),
            pmt.cons(pmt.make_dict(), pmt.init_f32vector(3, [1.0, 2.0, 3.0])),  # not u8
            pmt.cons(pmt.make_dict(), pmt.intern("abc")),
            pmt.cons(pmt.from_long(3), pmt.init_u8vector(3, [1, 2, 3])),        # meta not dict
            pmt.intern("not a pdu"),
        ]
        msgs = [bad[0], good[0], *bad[1:6], good[1], *bad[6:], good[2]]
        out, tags, blk = self.run_pdus(msgs, gap_samples=10)
        self.assertEqual(blk.pdus_dropped(), len(bad))
        self.assertEqual(blk.frames_sent(), 3)
        self.assertEqual([(t[1]["psdu_len"], t[1]["rate"]) for t in tags],
                         [(10, 6), (300, 54), (4095, 6)])
        self.assertEqual(len(out), sum(frame_samples(n, r) + 10
                                       for n, r in ((10, 6), (300, 54), (4095, 6))))

    def test_005_rate_as_real_and_setters(self):
        p = random_psdu(64, 5)
        out, tags, blk = self.run_pdus([make_pdu(p, rate=12.0), make_pdu(p)], rate=18,
                                       gap_samples=0)
        self.assertEqual([t[1]["rate"] for t in tags], [12, 18])
        blk.set_rate(48)
        blk.set_seed(0)
        self.assertEqual((blk.rate(), blk.seed()), (48, 0))
        with self.assertRaises(ValueError):
            blk.set_rate(11)
        with self.assertRaises(ValueError):
            blk.set_seed(128)

    def test_006_bad_parameters_raise_value_error(self):
        for kw, name in (({"rate": 5}, "rate"), ({"seed": -1}, "seed"), ({"seed": 128}, "seed"),
                         ({"gap_samples": -1}, "gap_samples"), ({"scale": 0.0}, "scale"),
                         ({"scale": float("nan")}, "scale"),
                         ({"max_frames_per_batch": 0}, "max_frames_per_batch"),
                         ({"max_frames_per_batch": 4097}, "max_frames_per_batch"),
                         ({"max_frames_per_batch": -1}, "max_frames_per_batch"),
                         ({"device": "gpu"}, "device")):
            with self.assertRaises(ValueError) as ctx:
                gpuofdm.wifi_tx(**kw)
            self.assertIn(name, str(ctx.exception))
        blk = gpuofdm.wifi_tx()
        self.assertEqual((blk.rate(), blk.seed(), blk.gap_samples(), blk.max_frames_per_batch()),
                         (54, 93, 400, 64))
        self.assertAlmostEqual(blk.scale(), UNIT_POWER, places=5)

    def test_007_from_tagged_stream_to_pdu_ends_by_itself(self):
        # A finite PDU source: when it ends, wifi_tx writes what it has and ends too.
        n, count = 100, 5
        p = random_psdu(n, 7)
        tb = gr.top_block()
        src = blocks.vector_source_b(np.tile(p, count).tolist(), False)
        s2ts = blocks.stream_to_tagged_stream(gr.sizeof_char, 1, n, "packet_len")
        ts2pdu = pdu.tagged_stream_to_pdu(gr.types.byte_t, "packet_len")
        blk = gpuofdm.wifi_tx(rate=24, gap_samples=50, device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(src, s2ts, ts2pdu)
        tb.msg_connect(ts2pdu, "pdus", blk, "pdus")
        tb.connect(blk, snk)
        run_with_timeout(tb)
        self.assertEqual(len(snk.data()), count * (frame_samples(n, 24) + 50))
        self.assertEqual(len(start_tags(snk)), count)

    def test_008_message_strobe_and_stop(self):
        # Frames from a message strobe; the flowgraph stops cleanly on tb.stop().
        p = random_psdu(200, 8)
        n = frame_samples(200, 54) + 100
        tb = gr.top_block()
        strobe = blocks.message_strobe(make_pdu(p), 20)
        blk = gpuofdm.wifi_tx(gap_samples=100, device="cpu")
        snk = blocks.vector_sink_c()
        tb.msg_connect(strobe, "strobe", blk, "pdus")
        tb.connect(blk, snk)
        tb.start()
        t0 = time.time()
        while len(snk.data()) < 3 * n and time.time() - t0 < 10:
            time.sleep(0.02)
        stopper = threading.Thread(target=lambda: (tb.stop(), tb.wait()), daemon=True)
        stopper.start()
        stopper.join(10)
        self.assertFalse(stopper.is_alive(), "the flowgraph did not stop")
        data = np.array(snk.data(), dtype=np.complex64)
        self.assertGreaterEqual(len(data), 3 * n)
        self.assertEqual(len(data) % n, 0)
        np.testing.assert_array_equal(data[:n], data[n:2 * n])  # the same PSDU and seed

    def test_009_idle_block_does_not_spin(self):
        # No PDU for a second: the block must sleep, not poll.
        tb = gr.top_block()
        blk = gpuofdm.wifi_tx(device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(blk, snk)
        tb.start()
        time.sleep(0.2)
        c0, t0 = time.process_time(), time.time()
        time.sleep(1.0)
        cpu = (time.process_time() - c0) / (time.time() - t0)
        tb.stop()
        tb.wait()
        self.assertLess(cpu, 0.2, "the idle flowgraph used %.0f%% of a core" % (100 * cpu))
        self.assertEqual(len(snk.data()), 0)

    def test_010_cuda_without_gpu_is_a_clear_error(self):
        if not gpu_reason():
            self.skipTest("a GPU is usable here; this checks the no-GPU error")
        with self.assertRaises(RuntimeError) as ctx:
            gpuofdm.wifi_tx(device="cuda")
        self.assertIn(gpu_reason(), str(ctx.exception))
        self.assertEqual(gpuofdm.wifi_tx(device="auto").device(), "cpu")

    def test_011_cuda_matches_cpu_twin(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        rng = np.random.default_rng(11)
        rates = sorted(N_DBPS)
        msgs = [make_pdu(random_psdu(int(rng.integers(1, 1600)), i), rate=rates[i % 8])
                for i in range(200)]
        msgs.append(make_pdu(random_psdu(4095, 99), rate=6))
        for batch in (1, 16, 64):
            got, gtags, gblk = self.run_pdus(msgs, device="cuda", seed=0,
                                             max_frames_per_batch=batch)
            want, wtags, _ = self.run_pdus(msgs, device="cpu", seed=0)
            self.assertEqual(gblk.device(), "cuda:0")
            self.assertEqual(gtags, wtags)
            self.assertEqual(got.shape, want.shape)
            for off, v in wtags:  # each frame to 1e-5 of its RMS (cuFFT vs FFTW rounding)
                g, w = got[off:off + v["n_samples"]], want[off:off + v["n_samples"]]
                rms = np.sqrt(np.mean(np.abs(w) ** 2))
                self.assertLessEqual(np.max(np.abs(g - w)), 1e-5 * rms, "frame at %d" % off)
            self.assertTrue(np.all(got[[o + v["n_samples"] for o, v in wtags]] == 0))

    def test_012_example_flowgraph_writes_the_frames(self):
        grcc = shutil.which("grcc")
        grc = os.path.join(source_dir(), "examples", "wifi_tx_to_file.grc")
        if not grcc or not os.path.isfile(grc):
            self.skipTest("grcc or examples/wifi_tx_to_file.grc absent")
        env = os.environ.copy()
        env["GRC_BLOCKS_PATH"] = os.pathsep.join(
            [os.path.join(source_dir(), "grc")] +
            [p for p in env.get("GRC_BLOCKS_PATH", "").split(os.pathsep) if p])
        tmp = tempfile.mkdtemp(prefix="gpuofdm_qa_wifi_tx_")
        try:
            subprocess.run([grcc, grc, "-o", tmp], env=env, check=True, timeout=120,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            (py,) = glob.glob(os.path.join(tmp, "*.py"))
            out = os.path.join(tmp, "frames")  # a SigMF recording, cf32_le by default
            subprocess.run([sys.executable, py, "-o", out, "-n", "7", "-l", "300", "-r", "36",
                            "-d", "cpu"], env=env, check=True, timeout=RUN_TIMEOUT_S,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            x = np.fromfile(out + ".sigmf-data", dtype=np.complex64)
            n = frame_samples(300, 36) + 400
            self.assertEqual(len(x), 7 * n)
            frames = x.reshape(7, n)
            self.assertTrue(np.all(frames[:, n - 400:] == 0))
            self.assertFalse(np.array_equal(frames[0], frames[1]))  # seed 0: new seeds
            np.testing.assert_array_equal(frames[0, :400], frames[1, :400])  # same preamble
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    gr_unittest.run(qa_wifi_tx)
