#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""scrambler_bb in flowgraphs: the standards' sequences and examples, and
digital.additive_scrambler_bb with the equivalent mask, seed and length."""

import os

import numpy as np
from gnuradio import blocks, digital, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason, read_octet_bits, testvector_dir

SEED = 20261122

# 802.11a 17.3.5.4: the 127-bit sequence from the all-ones state, leftmost first.
SEQ_80211A_ONES = (
    "00001110 11110010 11001001 00000010 00100110 00101110 10110110 00001100 "
    "11010100 11100111 10110100 00101010 11111010 01010001 10111000 1111111").replace(" ", "")


def reference_sequence(standard, seed, n):
    """The scrambling bits, from the standards' figures, independent of the module:
    802.11a Figure 17-7: x1..x7, s = x7 ^ x4 fed into x1 (seed printed x7..x1);
    802.16 Figure 202: reg1..reg15, s = reg14 ^ reg15 fed into reg1 (printed reg1..reg15)."""
    if standard == "802.11a":
        reg = [(seed >> i) & 1 for i in range(7)]          # reg[i] = x_{i+1}
        a, b = 6, 3
    else:
        reg = [(seed >> (14 - i)) & 1 for i in range(15)]  # reg[i] = reg_{i+1}
        a, b = 14, 13
    out = np.empty(n, dtype=np.uint8)
    for k in range(n):
        s = reg[a] ^ reg[b]
        out[k] = s
        reg = [s] + reg[:-1]
    return out


def gnuradio_equivalent(standard, seed):
    """(mask, seed, len) for digital.additive_scrambler_bb giving the same sequence.

    GNU Radio's lfsr outputs bit 0 of its register, shifts right and puts the parity of
    (register & mask) in bit len, so bit j holds the output j steps ahead and
    o[n + len + 1] = XOR of o[n + j] over the mask's bits j. 802.11a's sequence obeys
    s[n + 7] = s[n + 3] ^ s[n] (x^7 + x^4 + 1): len 6, mask bits 0 and 3 = 0x09.
    802.16's obeys s[n + 15] = s[n + 1] ^ s[n] (1 + x^14 + x^15): len 14, mask 0x03.
    The register starts with the first len + 1 scrambling bits, the first in bit 0."""
    length, mask = (6, 0x09) if standard == "802.11a" else (14, 0x03)
    first = reference_sequence(standard, seed, length + 1)
    return mask, int(sum(int(b) << j for j, b in enumerate(first))), length


class qa_scrambler_bb(gr_unittest.TestCase):

    def run_ours(self, bits, standard="802.11a", seed=-1, reset_tag_key="", tags=(),
                 device="cpu", batch=0):
        tb = gr.top_block()
        src = blocks.vector_source_b(list(bits), False, 1, list(tags))
        blk = gpuofdm.scrambler_bb(standard, seed, reset_tag_key, batch, device)
        snk = blocks.vector_sink_b()
        tb.connect(src, blk, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.uint8), snk.tags()

    def run_gnuradio(self, bits, standard, seed, reset_tag_key="", tags=()):
        mask, gseed, length = gnuradio_equivalent(standard, seed)
        tb = gr.top_block()
        src = blocks.vector_source_b(list(bits), False, 1, list(tags))
        blk = digital.additive_scrambler_bb(mask, gseed, length, 0, 1, reset_tag_key)
        snk = blocks.vector_sink_b()
        tb.connect(src, blk, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.uint8)

    @staticmethod
    def tag(offset, key="frame"):
        return gr.tag_utils.python_to_tag(
            (offset, gr.pmt.intern(key), gr.pmt.from_long(offset)))

    def test_001_80211a_sequence_of_the_standard(self):
        # The reference model first, then the block: zeros in give the sequence out.
        want = np.array([int(c) for c in SEQ_80211A_ONES], dtype=np.uint8)
        np.testing.assert_array_equal(reference_sequence("802.11a", 127, 127), want)
        got, _ = self.run_ours(np.zeros(3 * 127, dtype=np.uint8), "802.11a", 127)
        np.testing.assert_array_equal(got, np.tile(want, 3))

    def test_002_80211a_annex_g(self):
        d = os.path.join(testvector_dir(), "ieee80211a-annex-g")
        if not os.path.isfile(os.path.join(d, "G16.txt")):
            self.skipTest("802.11a Annex G vectors not found in " + d)
        data = read_octet_bits(os.path.join(d, "G13.txt"))
        got, _ = self.run_ours(data, "802.11a", 0b1011101)
        np.testing.assert_array_equal(got, read_octet_bits(os.path.join(d, "G16.txt")))
        got, _ = self.run_ours(data, "802.11a", -1)  # the default seed is Annex G's
        np.testing.assert_array_equal(got, read_octet_bits(os.path.join(d, "G16.txt")))

    def test_003_80216_example(self):
        d = os.path.join(testvector_dir(), "ieee80216-ofdm")
        if not os.path.isfile(os.path.join(d, "randomized.txt")):
            self.skipTest("802.16 OFDM vectors not found in " + d)
        data = read_octet_bits(os.path.join(d, "input.txt"))
        got, _ = self.run_ours(data, "802.16", 0b000111011110001)
        np.testing.assert_array_equal(got, read_octet_bits(os.path.join(d, "randomized.txt")))

    def test_004_matches_additive_scrambler_bb(self):
        rng = np.random.default_rng(SEED)
        bits = rng.integers(0, 2, 20000, dtype=np.uint8)
        for standard, seeds in (("802.11a", (1, 93, 127, 64)),
                                ("802.16", (1, 0x4A80, 0x0EF1, 32767))):
            for seed in seeds:
                got, _ = self.run_ours(bits, standard, seed)
                want = self.run_gnuradio(bits, standard, seed)
                np.testing.assert_array_equal(got, want, "%s seed %d" % (standard, seed))
                # and GNU Radio's is the standard's sequence, so the equivalence is right
                np.testing.assert_array_equal(
                    want, bits ^ reference_sequence(standard, seed, len(bits)))

    def test_005_reset_tags_match_additive_scrambler_bb(self):
        rng = np.random.default_rng(SEED + 1)
        bits = rng.integers(0, 2, 30000, dtype=np.uint8)
        offsets = (0, 1, 500, 501, 4095, 4096, 12345, 29999)
        tags = [self.tag(o) for o in offsets] + [self.tag(700, "other")]
        for standard, seed in (("802.11a", 93), ("802.16", 0x4A80)):
            got, out_tags = self.run_ours(bits, standard, seed, "frame", tags)
            want = self.run_gnuradio(bits, standard, seed, "frame", tags)
            np.testing.assert_array_equal(got, want)
            # the frame after each tag is scrambled from the seed
            start, end = 4096, 12345
            np.testing.assert_array_equal(
                got[start:end], bits[start:end] ^ reference_sequence(standard, seed, end - start))
            # tags pass through unchanged
            self.assertEqual(sorted((t.offset, gr.pmt.symbol_to_string(t.key)) for t in out_tags),
                             sorted([(o, "frame") for o in offsets] + [(700, "other")]))

    def test_006_no_reset_without_key_and_descrambles(self):
        rng = np.random.default_rng(SEED + 2)
        bits = rng.integers(0, 2, 5000, dtype=np.uint8)
        got, _ = self.run_ours(bits, "802.11a", 93, "", [self.tag(1000)])
        np.testing.assert_array_equal(got, bits ^ reference_sequence("802.11a", 93, len(bits)))
        back, _ = self.run_ours(got, "802.11a", 93)
        np.testing.assert_array_equal(back, bits)
        # only bit 0 of an input byte counts
        got2, _ = self.run_ours(bits | 0xFE, "802.11a", 93)
        np.testing.assert_array_equal(got2, got)

    def test_007_bad_parameters_raise_value_error(self):
        for kwargs, name in ((dict(standard="802.11b"), "standard"),
                             (dict(standard="802.11a", seed=0), "seed"),
                             (dict(standard="802.11a", seed=128), "seed"),
                             (dict(standard="802.16", seed=32768), "seed"),
                             (dict(batch=-1), "batch"),
                             (dict(device="gpu"), "device")):
            with self.assertRaises(ValueError) as ctx:
                gpuofdm.scrambler_bb(**kwargs)
            self.assertIn(name, str(ctx.exception))
        self.assertEqual(gpuofdm.scrambler_bb("802.16", 32767, device="cpu").device(), "cpu")

    def test_008_cuda_without_gpu_is_a_clear_error(self):
        if not gpu_reason():
            self.skipTest("a GPU is usable here; this checks the no-GPU error")
        with self.assertRaises(RuntimeError) as ctx:
            gpuofdm.scrambler_bb(device="cuda")
        self.assertIn(gpu_reason(), str(ctx.exception))
        self.assertEqual(gpuofdm.scrambler_bb(device="auto").device(), "cpu")

    def test_009_cuda_matches_cpu_twin(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        rng = np.random.default_rng(SEED + 3)
        bits = rng.integers(0, 2, 200003, dtype=np.uint8)
        tags = [self.tag(o) for o in (0, 17, 65536, 100000, 199999)]
        for standard, seed in (("802.11a", 93), ("802.16", 0x4A80)):
            want, _ = self.run_ours(bits, standard, seed, "frame", tags, "cpu")
            for batch in (0, 1000, 4096):
                got, _ = self.run_ours(bits, standard, seed, "frame", tags, "cuda", batch)
                np.testing.assert_array_equal(got, want)


if __name__ == '__main__':
    gr_unittest.run(qa_scrambler_bb)
