#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""conv_encoder_bb in flowgraphs, against GNU Radio's fec.cc_encoder (+ fec.puncture_bb)
and the standards' examples; tagged frames and the continuous stream."""

import os

import numpy as np
from gnuradio import blocks, fec, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason, read_octet_bits, testvector_dir

SEED = 20261123

# The puncturing patterns as the standards print them, one row per mother-code output,
# one character per input bit of the period ("1": sent). 802.11a Figure 17-9 (A: g0 = 133,
# B: g1 = 171), 5/6 from 802.11n 19.3.11.6.2; 802.16-2004 Table 215 (X: 171, Y: 133).
PATTERNS = {
    "802.11a": {"1/2": ("1", "1"), "2/3": ("11", "10"), "3/4": ("110", "101"),
                "5/6": ("11010", "10101")},
    "802.16": {"1/2": ("1", "1"), "2/3": ("10", "11"), "3/4": ("101", "110"),
               "5/6": ("10101", "11010")},
}
# First and second mother-code polynomial, octal, MSB on the newest input (Figure 17-8).
POLYS = {"802.11a": (0o133, 0o171), "802.16": (0o171, 0o133)}


def reverse7(g):
    """GNU Radio's cc_encoder puts the newest input in bit 0 of its state: the
    standards' polynomials (newest input on the MSB, 133 = 1011011) read backwards."""
    return int(format(g, "07b")[::-1], 2)


def puncpat(standard, rate):
    """fec.puncture_bb's pattern over the mother code's output pairs, MSB first."""
    first, second = PATTERNS[standard][rate]
    s = "".join(a + b for a, b in zip(first, second))
    return len(s), int(s, 2)


def output_len(standard, rate, n):
    """Bits sent for n input bits from phase 0, counted on the printed pattern."""
    first, second = PATTERNS[standard][rate]
    per = [int(a) + int(b) for a, b in zip(first, second)]
    return (n // len(per)) * sum(per) + sum(per[:n % len(per)])


def first_output_of(standard, rate, i):
    return output_len(standard, rate, i)


def len_tag(offset, n, key="packet_len"):
    return gr.tag_utils.python_to_tag((offset, gr.pmt.intern(key), gr.pmt.from_long(n)))


class qa_conv_encoder_bb(gr_unittest.TestCase):

    def run_ours(self, bits, standard="802.11a", rate="1/2", frames=None, key="packet_len",
                 tags=(), device="cpu", batch=0):
        """frames: lengths of tagged frames (tagged mode), or None for a continuous stream."""
        tags = list(tags)
        if frames is not None:
            offs = np.cumsum([0] + list(frames))
            self.assertEqual(offs[-1], len(bits))
            tags += [len_tag(int(o), int(n), key) for o, n in zip(offs[:-1], frames)]
        tb = gr.top_block()
        src = blocks.vector_source_b(list(bits), False, 1, tags)
        blk = gpuofdm.conv_encoder_bb(standard, rate, key if frames is not None else "",
                                      batch, device)
        snk = blocks.vector_sink_b()
        tb.connect(src, blk, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.uint8), snk.tags()

    def run_gnuradio(self, bits, standard, rate, frame_size, mode):
        g1, g2 = POLYS[standard]
        enc = fec.cc_encoder_make(frame_size, 7, 2, [reverse7(g1), reverse7(g2)], 0, mode, False)
        tb = gr.top_block()
        src = blocks.vector_source_b(list(bits))
        blk = fec.encoder(enc, gr.sizeof_char, gr.sizeof_char)
        snk = blocks.vector_sink_b()
        size, pat = puncpat(standard, rate)
        if rate == "1/2":
            tb.connect(src, blk, snk)
        else:
            tb.connect(src, blk, fec.puncture_bb(size, pat, 0), snk)
        tb.run()
        return np.array(snk.data(), dtype=np.uint8)

    def test_001_hand_case(self):
        # An impulse gives the generators' taps: 802.11a A = 133 = 1011011, B = 171 =
        # 1111001, newest input first, interleaved A0 B0 A1 B1 ...
        bits = [1, 0, 0, 0, 0, 0, 0]
        got, _ = self.run_ours(bits, "802.11a", "1/2", [7])
        np.testing.assert_array_equal(got, [1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 1])
        got, _ = self.run_ours(bits, "802.16", "1/2", [7])  # X = 171 first
        np.testing.assert_array_equal(got, [1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1])

    def test_002_rate_half_matches_cc_encoder(self):
        rng = np.random.default_rng(SEED)
        frame = 480
        bits = rng.integers(0, 2, frame * 20, dtype=np.uint8)
        for standard in ("802.11a", "802.16"):
            want = self.run_gnuradio(bits, standard, "1/2", frame, fec.CC_TRUNCATED)
            got, _ = self.run_ours(bits, standard, "1/2", [frame] * 20)
            np.testing.assert_array_equal(got, want, standard + " frames (CC_TRUNCATED)")
            want = self.run_gnuradio(bits, standard, "1/2", frame, fec.CC_STREAMING)
            got, _ = self.run_ours(bits, standard, "1/2", None)
            np.testing.assert_array_equal(got, want, standard + " stream (CC_STREAMING)")

    def test_003_punctured_rates_match_cc_encoder_and_puncture_bb(self):
        rng = np.random.default_rng(SEED + 1)
        frame = 600  # a multiple of every period (2, 3, 5)
        bits = rng.integers(0, 2, frame * 10, dtype=np.uint8)
        for standard in ("802.11a", "802.16"):
            for rate in ("2/3", "3/4", "5/6"):
                want = self.run_gnuradio(bits, standard, rate, frame, fec.CC_TRUNCATED)
                self.assertEqual(len(want), 10 * output_len(standard, rate, frame))
                got, _ = self.run_ours(bits, standard, rate, [frame] * 10)
                np.testing.assert_array_equal(got, want, "%s %s frames" % (standard, rate))
                want = self.run_gnuradio(bits, standard, rate, frame, fec.CC_STREAMING)
                got, _ = self.run_ours(bits, standard, rate, None)
                np.testing.assert_array_equal(got, want, "%s %s stream" % (standard, rate))

    def test_004_tail_bits_give_cc_terminated(self):
        # The caller appends six zeros; the frame then matches GNU Radio's terminated code.
        rng = np.random.default_rng(SEED + 2)
        frame = 200
        bits = rng.integers(0, 2, frame * 4, dtype=np.uint8).reshape(4, frame)
        with_tail = np.concatenate([np.concatenate([b, np.zeros(6, np.uint8)]) for b in bits])
        want = self.run_gnuradio(bits.ravel(), "802.11a", "1/2", frame, fec.CC_TERMINATED)
        got, _ = self.run_ours(with_tail, "802.11a", "1/2", [frame + 6] * 4)
        np.testing.assert_array_equal(got, want)

    def test_005_80211a_annex_g_rate_3_4(self):
        d = os.path.join(testvector_dir(), "ieee80211a-annex-g")
        if not os.path.isfile(os.path.join(d, "G18.txt")):
            self.skipTest("802.11a Annex G vectors not found in " + d)
        scrambled = read_octet_bits(os.path.join(d, "G16.txt"))  # first 144 DATA bits
        want = read_octet_bits(os.path.join(d, "G18.txt"))        # first symbol, 192 bits
        got, _ = self.run_ours(scrambled, "802.11a", "3/4", [len(scrambled)])
        np.testing.assert_array_equal(got, want)
        got, _ = self.run_ours(scrambled, "802.11a", "3/4", None)
        np.testing.assert_array_equal(got, want)

    def test_006_80216_example_rate_5_6(self):
        d = os.path.join(testvector_dir(), "ieee80216-ofdm")
        if not os.path.isfile(os.path.join(d, "cc_encoded.txt")):
            self.skipTest("802.16 OFDM vectors not found in " + d)
        rs = read_octet_bits(os.path.join(d, "rs_encoded.txt"))  # tail octet included
        got, _ = self.run_ours(rs, "802.16", "5/6", [len(rs)])
        np.testing.assert_array_equal(got, read_octet_bits(os.path.join(d, "cc_encoded.txt")))

    def test_007_frames_of_any_length_and_their_tags(self):
        rng = np.random.default_rng(SEED + 3)
        frames = [7, 1, 2, 3, 100, 31, 5]
        bits = rng.integers(0, 2, sum(frames), dtype=np.uint8)
        other = [gr.tag_utils.python_to_tag((o, gr.pmt.intern("x"), gr.pmt.from_long(o)))
                 for o in (0, 2, 8, 113)]  # bits 0 and 2 of frame 0, bit 0 of frames 2 and 5
        for standard, rate in (("802.11a", "3/4"), ("802.16", "5/6"), ("802.11a", "2/3")):
            got, tags = self.run_ours(bits, standard, rate, frames, tags=other)
            # each frame alone from the zero state (the single-frame run is the reference)
            want, out_start = [], [0]
            pos = 0
            for n in frames:
                one, _ = self.run_ours(bits[pos:pos + n], standard, rate, None)
                self.assertEqual(len(one), output_len(standard, rate, n))
                want.append(one)
                out_start.append(out_start[-1] + len(one))
                pos += n
            np.testing.assert_array_equal(got, np.concatenate(want))
            lens = sorted((t.offset, gr.pmt.to_long(t.value)) for t in tags
                          if gr.pmt.symbol_to_string(t.key) == "packet_len")
            self.assertEqual(lens, [(out_start[i], len(w)) for i, w in enumerate(want)])
            # a tag on input bit i of a frame: the first output bit of bit i
            in_start = np.cumsum([0] + frames)
            moved = sorted((t.offset, gr.pmt.to_long(t.value)) for t in tags
                           if gr.pmt.symbol_to_string(t.key) == "x")
            expect = []
            for o in (0, 2, 8, 113):
                f = int(np.searchsorted(in_start, o, side="right") - 1)
                expect.append((out_start[f] + first_output_of(standard, rate, o - in_start[f]), o))
            self.assertEqual(moved, sorted(expect))

    def test_008_stream_loses_nothing_at_the_end(self):
        rng = np.random.default_rng(SEED + 4)
        for n in (1, 2, 3, 4, 5, 7, 1001, 4097):
            bits = rng.integers(0, 2, n, dtype=np.uint8)
            for standard, rate in (("802.11a", "3/4"), ("802.16", "5/6"), ("802.11a", "1/2")):
                got, _ = self.run_ours(bits, standard, rate, None)
                self.assertEqual(len(got), output_len(standard, rate, n),
                                 "%s %s n=%d" % (standard, rate, n))
                framed, _ = self.run_ours(bits, standard, rate, [n])
                np.testing.assert_array_equal(got, framed)
        # a long stream (many scheduler calls): GNU Radio's streaming code on all but the
        # last two bits, and those two still come out
        n = 65537
        bits = rng.integers(0, 2, n, dtype=np.uint8)
        for standard, rate in (("802.11a", "3/4"), ("802.16", "5/6")):
            got, _ = self.run_ours(bits, standard, rate, None)
            self.assertEqual(len(got), output_len(standard, rate, n))
            want = self.run_gnuradio(bits[:n - 2], standard, rate, 4369, fec.CC_STREAMING)
            np.testing.assert_array_equal(got[:len(want)], want)

    def test_009_stream_tags_move_to_first_output_bit(self):
        bits = np.zeros(40, dtype=np.uint8)
        offs = (0, 1, 2, 3, 4, 39)
        tags = [gr.tag_utils.python_to_tag((o, gr.pmt.intern("x"), gr.pmt.from_long(o)))
                for o in offs]
        _, out = self.run_ours(bits, "802.11a", "3/4", None, tags=tags)
        got = sorted((t.offset, gr.pmt.to_long(t.value)) for t in out)
        # 3/4 sends A0 B0 | A1 | B2 per period: first outputs at 0, 2, 3, then + 4
        self.assertEqual(got, [(0, 0), (2, 1), (3, 2), (4, 3), (6, 4), (52, 39)])

    def test_010_bad_parameters_raise_value_error(self):
        for kwargs, name in ((dict(standard="802.11n"), "standard"),
                             (dict(rate="1/3"), "rate"),
                             (dict(rate="7/8"), "rate"),
                             (dict(batch=-5), "batch"),
                             (dict(device="cuda0"), "device")):
            with self.assertRaises(ValueError) as ctx:
                gpuofdm.conv_encoder_bb(**kwargs)
            self.assertIn(name, str(ctx.exception))
        blk = gpuofdm.conv_encoder_bb("802.16", "5/6", "", device="cpu")
        self.assertEqual((blk.device(), blk.output_len(5), blk.output_len(7)), ("cpu", 6, 9))

    def test_011_cuda_without_gpu_is_a_clear_error(self):
        if not gpu_reason():
            self.skipTest("a GPU is usable here; this checks the no-GPU error")
        with self.assertRaises(RuntimeError) as ctx:
            gpuofdm.conv_encoder_bb(device="cuda:0")
        self.assertIn(gpu_reason(), str(ctx.exception))
        self.assertEqual(gpuofdm.conv_encoder_bb(device="auto").device(), "cpu")

    def test_012_cuda_matches_cpu_twin(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        rng = np.random.default_rng(SEED + 5)
        frames = [1, 2, 999, 4096, 12345, 7]
        bits = rng.integers(0, 2, sum(frames), dtype=np.uint8)
        for standard, rate in (("802.11a", "3/4"), ("802.16", "5/6"), ("802.11a", "1/2")):
            for fr in (frames, None):
                want, _ = self.run_ours(bits, standard, rate, fr, device="cpu")
                for batch in (0, 100, 4099):
                    got, _ = self.run_ours(bits, standard, rate, fr, device="cuda", batch=batch)
                    np.testing.assert_array_equal(got, want)


if __name__ == '__main__':
    gr_unittest.run(qa_conv_encoder_bb)
