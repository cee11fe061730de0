#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""pfb_timing_sync_ccf against GNU Radio's own digital.pfb_clock_sync_ccf in one flowgraph
(same input, same parameters): RRC-shaped BPSK, QPSK and 8PSK, sps 2 and 4, roll-off 0.35
and 0.5, fractional delays, clock offsets up to +-100 ppm, Es/N0 0..20 dB.

The tolerance: GNU Radio's VOLK dot products and ours sum in different orders, so the
symbols agree within float rounding (1e-5 of the RMS) and the loops' phases drift apart by
rounding only, until the two phases fall into different filters once; from that symbol on
the two loops track on their own. So each case checks: every symbol before that point
within 1e-5 of the RMS, the two phases then within 0.01 filter (a rounding split, not a
different rule), at least 500 symbols before it, the error, rate and phase outputs the
same there, and afterwards the same symbol decisions (Es/N0 >= 10 dB). The banks equal
GNU Radio's taps() and diff_taps(); the stream cut into calls of any size gives the same
symbols; time_est tags act as in GNU Radio's block; other tags are moved onto symbols;
chunked mode recovers the symbols; bad parameters raise ValueError; CUDA = CPU."""

import itertools

import numpy as np
import pmt
from gnuradio import blocks, digital, gr, gr_unittest
from gnuradio.filter import firdes

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason

NFILTS = 32
LOOP_BW = 2 * np.pi / 100


def rrc(t, beta):
    """The root-raised-cosine pulse of unit symbol period at times t (symbols)."""
    t = np.asarray(t, float)
    out = np.empty_like(t)
    zero = np.abs(t) < 1e-9
    sing = np.abs(np.abs(t) - 1 / (4 * beta)) < 1e-9
    o = ~(zero | sing)
    u = t[o]
    out[o] = ((np.sin(np.pi * u * (1 - beta)) + 4 * beta * u * np.cos(np.pi * u * (1 + beta)))
              / (np.pi * u * (1 - (4 * beta * u) ** 2)))
    out[zero] = 1 - beta + 4 * beta / np.pi
    out[sing] = beta / np.sqrt(2) * ((1 + 2 / np.pi) * np.sin(np.pi / (4 * beta))
                                     + (1 - 2 / np.pi) * np.cos(np.pi / (4 * beta)))
    return out


def psk_signal(n_sym, sps, beta, order, delay, ppm, esn0_db, seed, span=8):
    """M-PSK through the analytic RRC pulse, sampled at sps*(1 + ppm 1e-6) with a delay (in
    symbols), complex AWGN at Es/N0 (Es: the pulse energy over sps samples). Returns the
    samples and the symbols."""
    rng = np.random.default_rng(seed)
    offset = np.pi / 4 if order == 4 else 0.0
    sym = np.exp(1j * (2 * np.pi * rng.integers(0, order, n_sym) / order + offset))
    n = int((n_sym - 2 * span - 3 - n_sym * abs(ppm) * 1e-6) * sps)
    t = np.arange(n) / sps * (1 + ppm * 1e-6) + delay + span
    k0 = np.floor(t).astype(int)
    x = np.zeros(n, complex)
    for d in range(-span, span + 1):
        x += sym[k0 + d] * rrc(t - (k0 + d), beta)
    n0 = sps / 10 ** (esn0_db / 10)
    x += np.sqrt(n0 / 2) * (rng.standard_normal(n) + 1j * rng.standard_normal(n))
    return x.astype(np.complex64), sym


def prototype(sps, beta):
    return firdes.root_raised_cosine(NFILTS, NFILTS * sps, 1.0, beta, 11 * sps * NFILTS)


def run_both(x, sps, beta, osps=1, ours=None, tags=()):
    """(GNU Radio's 4 outputs, ours) on the same input, as numpy arrays."""
    taps = prototype(sps, beta)
    tb = gr.top_block()
    src = blocks.vector_source_c(x.tolist(), False, 1, list(tags))
    ref = digital.pfb_clock_sync_ccf(sps, LOOP_BW, taps, NFILTS, NFILTS / 2, 1.5, osps)
    if ours is None:
        ours = gpuofdm.pfb_timing_sync_ccf(sps, LOOP_BW, taps, NFILTS, NFILTS / 2, 1.5, osps,
                                           "cpu")
    sinks = []
    for blk in (ref, ours):
        tb.connect(src, blk)
        row = [blocks.vector_sink_c()] + [blocks.vector_sink_f() for _ in range(3)]
        for i, s in enumerate(row):
            tb.connect((blk, i), s)
        sinks.append(row)
    tb.run()
    return [[np.array(s.data()) for s in row] for row in sinks]


def run_ours(x, block, max_items=None):
    tb = gr.top_block()
    src = blocks.vector_source_c(x.tolist())
    snk = blocks.vector_sink_c()
    tb.connect(src, block, snk)
    if max_items:
        block.set_max_noutput_items(max_items)
    tb.run()
    return np.array(snk.data())


def decisions(y, order):
    offset = np.pi / 4 if order == 4 else 0.0
    return np.round((np.angle(y) - offset) / (2 * np.pi / order)).astype(int) % order


class qa_pfb_timing_sync_ccf(gr_unittest.TestCase):

    def compare(self, ref, ours, osps, order, esn0, label):
        n = min(len(ref[0]), len(ours[0]))
        self.assertGreater(n, 0.95 * len(ref[0]), label)
        rms = np.sqrt(np.mean(np.abs(ref[0][:n]) ** 2))
        dy = np.abs(ref[0][:n] - ours[0][:n]) / rms
        parted = np.nonzero(dy > 1e-5)[0]
        split = int(parted[0]) if len(parted) else n
        first_symbol = split // osps
        self.assertGreaterEqual(first_symbol, min(300, n // osps), label)
        if split < n:
            # A split of rounding: the phases of the symbol before are the same to 0.01.
            i = first_symbol * osps - osps
            dk = abs(ref[3][i] - ours[3][i])
            dk = min(dk, abs(dk - NFILTS))
            self.assertLess(dk, 0.01, label)
        # The error, rate and phase outputs (one value a symbol) up to there.
        idx = np.arange(0, split, osps)
        for port, tol in ((1, 1e-4), (2, 1e-6), (3, 1e-2)):
            self.assertLess(np.max(np.abs(ref[port][idx] - ours[port][idx]), initial=0), tol,
                            "%s port %d" % (label, port))
        if esn0 >= 10:
            s0 = 300 * osps
            a = decisions(ref[0][s0:n:osps], order)
            b = decisions(ours[0][s0:n:osps], order)
            self.assertGreater(np.mean(a == b), 0.995, label)

    def test_against_pfb_clock_sync(self):
        rng = np.random.default_rng(2026)
        cases = list(itertools.product((2, 4, 8), (2, 4), (0.35, 0.5), (0, 10, 20)))
        for order, sps, beta, esn0 in cases:
            delay = float(rng.uniform(0, 1))
            ppm = float(rng.choice([-100.0, 100.0, 37.0]))
            label = "%d-PSK sps %d beta %.2f Es/N0 %d delay %.2f ppm %g" % (
                order, sps, beta, esn0, delay, ppm)
            x, _ = psk_signal(3000, sps, beta, order, delay, ppm, esn0, int(rng.integers(1 << 30)))
            ref, ours = run_both(x, sps, beta)
            self.compare(ref, ours, 1, order, esn0, label)

    def test_osps_2(self):
        x, _ = psk_signal(3000, 4, 0.35, 4, 0.3, 100, 20, 5)
        ref, ours = run_both(x, 4, 0.35, osps=2)
        n = min(len(ref[0]), len(ours[0]))
        self.assertGreater(n, 5000)
        rms = np.sqrt(np.mean(np.abs(ref[0][:n]) ** 2))
        dy = np.abs(ref[0][:n] - ours[0][:n]) / rms
        parted = np.nonzero(dy > 1e-5)[0]
        split = int(parted[0]) if len(parted) else n
        self.assertGreaterEqual(split, 1000)

    def test_banks_are_gnuradio_banks(self):
        for sps, beta, nf in ((2, 0.35, 32), (4, 0.5, 27), (3, 0.25, 64)):
            taps = firdes.root_raised_cosine(nf, nf * sps, 1.0, beta, 11 * sps * nf + 5)
            ref = digital.pfb_clock_sync_ccf(sps, LOOP_BW, taps, nf, 0, 1.5, 1)
            ours = gpuofdm.pfb_timing_sync_ccf(sps, LOOP_BW, taps, nf, 0, 1.5, 1, "cpu")
            np.testing.assert_array_equal(np.array(ref.taps()), np.array(ours.taps()))
            np.testing.assert_array_equal(np.array(ref.diff_taps()), np.array(ours.diff_taps()))
            self.assertEqual(ref.alpha(), ours.alpha())
            self.assertEqual(ref.beta(), ours.beta())

    def test_any_cut_same_symbols(self):
        x, _ = psk_signal(4000, 2, 0.35, 4, 0.4, -100, 10, 9)
        taps = prototype(2, 0.35)

        def make(mode):
            return gpuofdm.pfb_timing_sync_ccf(2, LOOP_BW, taps, NFILTS, 16, 1.5, 1, "cpu", mode,
                                               2048, 512)
        for mode in ("sequential", "chunked", "hybrid"):
            whole = run_ours(x, make(mode))
            for items in (1, 7, 100, 1000):
                cut = run_ours(x, make(mode), items)
                np.testing.assert_array_equal(whole, cut, "%s, %d a call" % (mode, items))
            if mode == "hybrid":
                # The grid walked on the host: the sequential loop's symbols.
                np.testing.assert_array_equal(whole, run_ours(x, make("sequential")))

    def test_time_est_tags(self):
        x, _ = psk_signal(3000, 4, 0.35, 2, 0.0, 0, 20, 13)
        tags = []
        for off, centre in ((1001, 0.3), (2203, 0.75), (6000, 0.1)):
            t = gr.tag_t()
            t.offset = off
            t.key = pmt.intern("time_est")
            t.value = pmt.from_double(centre)
            tags.append(t)
        ref, ours = run_both(x, 4, 0.35, tags=tags)
        n = min(len(ref[0]), len(ours[0]))
        rms = np.sqrt(np.mean(np.abs(ref[0][:n]) ** 2))
        dy = np.abs(ref[0][:n] - ours[0][:n]) / rms
        parted = np.nonzero(dy > 1e-5)[0]
        split = int(parted[0]) if len(parted) else n
        # The tags move the phase (GNU Radio's phase output jumps there); the two agree past
        # the last tag.
        self.assertGreater(split, 6000 // 4 + 10)

    def test_other_tags_move_to_symbols(self):
        x, _ = psk_signal(2000, 4, 0.35, 4, 0.2, 0, 20, 3)
        taps = prototype(4, 0.35)
        tags = []
        for off in (400, 4000):
            t = gr.tag_t()
            t.offset = off
            t.key = pmt.intern("burst")
            t.value = pmt.from_long(off)
            tags.append(t)
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist(), False, 1, tags)
        blk = gpuofdm.pfb_timing_sync_ccf(4, LOOP_BW, taps, NFILTS, 16, 1.5, 1, "cpu")
        snk = blocks.vector_sink_c()
        tb.connect(src, blk, snk)
        tb.run()
        got = sorted((t.offset, pmt.to_long(t.value)) for t in snk.tags())
        self.assertEqual([v for _, v in got], [400, 4000])
        # The symbol whose matched filter is centred on the tagged sample: the stream is read
        # after history - 1 = T + 2 sps - 1 zeros, the filter of T taps is centred (T - 1) / 2
        # into its window, a symbol every sps samples.
        T = 44
        for off, v in got:
            self.assertLess(abs(off - (v + T + 2 * 4 - 1 - (T - 1) // 2) / 4), 1.5, got)

    def test_chunked_recovers_symbols(self):
        x, sym = psk_signal(20000, 2, 0.35, 4, 0.6, 100, 20, 21)
        taps = prototype(2, 0.35)
        out = {}
        for mode in ("sequential", "chunked"):
            blk = gpuofdm.pfb_timing_sync_ccf(2, LOOP_BW, taps, NFILTS, 16, 1.5, 1, "cpu", mode,
                                              4096, 1024)
            out[mode] = run_ours(x, blk)
        a, b = out["sequential"], out["chunked"]
        # Same symbols, no symbol lost or repeated: equal lengths and equal decisions.
        self.assertLessEqual(abs(len(a) - len(b)), 1)
        n = min(len(a), len(b))
        self.assertEqual(np.mean(decisions(a[200:n], 4) == decisions(b[200:n], 4)), 1.0)

    def test_multi_channel_block(self):
        # pfb_timing_sync_multi_ccf: each output is what pfb_timing_sync_ccf gives on that
        # input alone, with inputs of different lengths, delays and drifts.
        taps = prototype(4, 0.35)
        xs = [psk_signal(1500 + 300 * c, 4, 0.35, 4, 0.25 * c, 50.0 * c - 100, 15, 40 + c)[0]
              for c in range(4)]
        for mode in ("sequential", "chunked"):
            tb = gr.top_block()
            blk = gpuofdm.pfb_timing_sync_multi_ccf(4, 4, LOOP_BW, taps, NFILTS, 16, 1.5, 1,
                                                    "cpu", mode, 4096, 1024)
            sinks = []
            for c, x in enumerate(xs):
                src = blocks.vector_source_c(x.tolist())
                snk = blocks.vector_sink_c()
                tb.connect(src, (blk, c))
                tb.connect((blk, c), snk)
                sinks.append(snk)
            tb.run()
            for c, x in enumerate(xs):
                alone = run_ours(x, gpuofdm.pfb_timing_sync_ccf(4, LOOP_BW, taps, NFILTS, 16, 1.5,
                                                                1, "cpu", mode, 4096, 1024))
                np.testing.assert_array_equal(np.array(sinks[c].data()), alone,
                                              "%s channel %d" % (mode, c))
        with self.assertRaises(ValueError):
            gpuofdm.pfb_timing_sync_multi_ccf(0, 4, LOOP_BW, taps)

    def test_multi_channel_vector_port(self):
        # One vector port of 4 channels (item t = channels 0..3): channel c of the output is
        # pfb_timing_sync_ccf's output on channel c alone, zero-filled to the longest at the
        # end.
        taps = prototype(4, 0.35)
        n = 1800 * 4
        xs = [psk_signal(1900, 4, 0.35, 4, 0.25 * c, 50.0 * c - 100, 15, 60 + c)[0][:n]
              for c in range(4)]
        inter = np.stack(xs, axis=1).reshape(-1)
        for mode in ("sequential", "chunked"):
            tb = gr.top_block()
            src = blocks.vector_source_c(inter.tolist(), False, 4)
            blk = gpuofdm.pfb_timing_sync_multi_ccf(4, 4, LOOP_BW, taps, NFILTS, 16, 1.5, 1,
                                                    "cpu", mode, 4096, 1024, True)
            snk = blocks.vector_sink_c(4)
            tb.connect(src, blk, snk)
            tb.run()
            got = np.array(snk.data()).reshape(-1, 4)
            alone = [run_ours(x, gpuofdm.pfb_timing_sync_ccf(4, LOOP_BW, taps, NFILTS, 16, 1.5,
                                                             1, "cpu", mode, 4096, 1024))
                     for x in xs]
            self.assertEqual(len(got), max(len(a) for a in alone), mode)
            for c in range(4):
                np.testing.assert_array_equal(got[:len(alone[c]), c], alone[c],
                                              "%s channel %d" % (mode, c))
                self.assertTrue(np.all(got[len(alone[c]):, c] == 0), mode)

    def test_chunked_timing_variance_is_the_sequential_one(self):
        # The timing error (phase output in symbols, modulo a symbol) after acquisition:
        # variances within 15 % of each other (QPSK, Es/N0 10 dB, 20000 symbols).
        x, _ = psk_signal(20000, 2, 0.35, 4, 0.3, 0, 10, 31)
        taps = prototype(2, 0.35)
        var = []
        for mode in ("sequential", "chunked"):
            blk = gpuofdm.pfb_timing_sync_ccf(2, LOOP_BW, taps, NFILTS, 16, 1.5, 1, "cpu", mode,
                                              4096, 1024)
            tb = gr.top_block()
            src = blocks.vector_source_c(x.tolist())
            sinks = [blocks.vector_sink_c()] + [blocks.vector_sink_f() for _ in range(3)]
            tb.connect(src, blk)
            for i, snk in enumerate(sinks):
                tb.connect((blk, i), snk)
            tb.run()
            k = np.array(sinks[3].data())
            tau = np.unwrap(k * 2 * np.pi / NFILTS) / (2 * np.pi) / 2
            off = (tau[1000:] - np.median(tau[1000:]) + 0.5) % 1.0 - 0.5
            var.append(np.var(off))
        self.assertLess(abs(var[1] / var[0] - 1), 0.15, var)

    def test_non_finite_input(self):
        # NaN and Inf samples: no hang, no crash; the loop recovers after them.
        x, _ = psk_signal(3000, 2, 0.35, 4, 0.4, 0, 20, 9)
        x[1000:1010] = np.nan
        x[2000] = np.inf
        taps = prototype(2, 0.35)
        for mode in ("sequential", "chunked"):
            y = run_ours(x, gpuofdm.pfb_timing_sync_ccf(2, LOOP_BW, taps, NFILTS, 16, 1.5, 1,
                                                        "cpu", mode, 2048, 512))
            self.assertGreater(len(y), 2900, mode)
            tail = y[-500:]
            self.assertTrue(np.all(np.isfinite(tail)), mode)
            self.assertLess(np.std(np.abs(tail)), 0.2, mode)

    def test_bad_parameters(self):
        taps = prototype(2, 0.35)
        bad = [dict(sps=0.5), dict(loop_bw=-0.1), dict(loop_bw=2.0), dict(taps=[1.0]),
               dict(taps=[1.0, 1.0, 1.0]), dict(filter_size=0), dict(osps=3),
               dict(max_rate_deviation=-1.0), dict(mode="fast"), dict(chunk_samples=10),
               dict(device="tpu"), dict(init_phase=float("nan"))]
        for b in bad:
            kw = dict(sps=2, loop_bw=LOOP_BW, taps=taps, filter_size=NFILTS, init_phase=16.0,
                      max_rate_deviation=1.5, osps=1, device="cpu", mode="sequential",
                      chunk_samples=16384)
            kw.update(b)
            with self.assertRaises((ValueError, RuntimeError), msg=str(b)):
                gpuofdm.pfb_timing_sync_ccf(**kw)

    def test_cuda_matches_cpu(self):
        why = gpu_reason()
        if why:
            self.skipTest("no usable GPU: " + why)
        x, _ = psk_signal(20000, 4, 0.35, 8, 0.3, -100, 10, 17)
        taps = prototype(4, 0.35)
        for mode in ("sequential", "chunked", "hybrid"):
            res = [run_ours(x, gpuofdm.pfb_timing_sync_ccf(4, LOOP_BW, taps, NFILTS, 16, 1.5, 1,
                                                           dev, mode, 8192, 2048))
                   for dev in ("cpu", "cuda")]
            np.testing.assert_array_equal(res[0], res[1], mode)


if __name__ == "__main__":
    gr_unittest.run(qa_pfb_timing_sync_ccf)
