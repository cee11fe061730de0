#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""rs_encoder_bb / rs_decoder_bb in flowgraphs: the 802.16 example, error correction,
uncorrectable codewords tagged, bad parameters."""

import os

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason, testvector_dir

SEED = 8033
PROFILES = [(32, 24, 4), (40, 36, 2), (64, 48, 8), (80, 72, 4), (108, 96, 6), (120, 108, 6)]


def vector_dir():
    return os.path.join(testvector_dir(), "ieee80216-ofdm")


def read_octets(name):
    with open(os.path.join(vector_dir(), name)) as f:
        return [int(line, 16) for line in f if line.strip()]


def run(block, data):
    tb = gr.top_block()
    src = blocks.vector_source_b(list(data))
    snk = blocks.vector_sink_b()
    tb.connect(src, block, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), snk.tags()


class qa_rs_codec(gr_unittest.TestCase):

    def test_001_ieee80216_example(self):
        if not os.path.isdir(vector_dir()):
            self.skipTest("802.16 test vectors not found at " + vector_dir())
        data = read_octets("randomized.txt") + [0x00]  # the tail byte ends the burst
        want = read_octets("rs_encoded.txt")
        got, _ = run(gpuofdm.rs_encoder_bb(40, 36, 2, 0, "cpu"), data)
        self.assertEqual(list(got), want)
        back, tags = run(gpuofdm.rs_decoder_bb(40, 36, 2, 0, "cpu"), want)
        self.assertEqual(list(back), data)
        self.assertEqual(len(tags), 0)

    def test_002_corrects_up_to_t_and_tags_the_rest(self):
        rng = np.random.default_rng(SEED)
        for n, k, t in PROFILES:
            n_cw = 60
            data = rng.integers(0, 256, n_cw * k, dtype=np.uint8)
            coded, _ = run(gpuofdm.rs_encoder_bb(n, k, t, 0, "cpu"), data)
            self.assertEqual(len(coded), n_cw * n)
            noisy = coded.reshape(n_cw, n).copy()
            errors = [cw % (t + 1) for cw in range(n_cw)]  # 0..T errors
            errors[7] = t + 3  # one codeword well beyond T
            for cw, e in enumerate(errors):
                pos = rng.choice(n, e, replace=False)
                noisy[cw, pos] ^= rng.integers(1, 256, e, dtype=np.uint8)
            dec = gpuofdm.rs_decoder_bb(n, k, t, 0, "cpu")
            got, tags = run(dec, noisy.ravel())
            got = got.reshape(n_cw, k)
            want = data.reshape(n_cw, k)
            for cw, e in enumerate(errors):
                if e <= t:
                    np.testing.assert_array_equal(got[cw], want[cw],
                                                  "profile %s cw %d" % ((n, k, t), cw))
            self.assertEqual(dec.codewords(), n_cw)
            self.assertEqual(dec.corrected_bytes(), sum(e for e in errors if e <= t))
            # T+3 errors are flagged, never silently "corrected" into wrong data without a tag
            flagged = {gr.pmt.to_uint64(tg.value) for tg in tags}
            self.assertTrue(7 in flagged or np.array_equal(got[7], want[7]),
                            "profile %s: a codeword beyond T came out wrong and untagged"
                            % ((n, k, t),))
            self.assertEqual(dec.uncorrectable(), len(flagged))
            for tg in tags:
                self.assertEqual(gr.pmt.symbol_to_string(tg.key), "rs_uncorrectable")
                self.assertEqual(tg.offset, gr.pmt.to_uint64(tg.value) * k)

    def test_003_partial_codeword_at_end_is_held(self):
        got, _ = run(gpuofdm.rs_encoder_bb(40, 36, 2, 0, "cpu"), [1] * (36 * 3 + 5))
        self.assertEqual(len(got), 40 * 3)

    def test_004_bad_parameters(self):
        for args in ((40, 35, 2), (255, 239, 9), (-1, 36, 2)):
            with self.assertRaises(ValueError) as ctx:
                gpuofdm.rs_encoder_bb(*args)
            self.assertIn("profile", str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            gpuofdm.rs_decoder_bb(40, 36, 2, -5)
        self.assertIn("batch", str(ctx.exception))
        for block in (gpuofdm.rs_encoder_bb, gpuofdm.rs_decoder_bb):
            with self.assertRaises(ValueError) as ctx:
                block(40, 36, 2, 2 ** 24 + 1, "cpu")
            self.assertIn("batch", str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            gpuofdm.rs_decoder_bb(40, 36, 2, 0, "gpu")
        self.assertIn("device", str(ctx.exception))

    def test_005_cuda_matches_cpu(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        rng = np.random.default_rng(SEED + 1)
        data = rng.integers(0, 256, 5000 * 48, dtype=np.uint8)
        cpu, _ = run(gpuofdm.rs_encoder_bb(64, 48, 8, 0, "cpu"), data)
        gpu, _ = run(gpuofdm.rs_encoder_bb(64, 48, 8, 1000, "cuda"), data)
        np.testing.assert_array_equal(gpu, cpu)
        noisy = cpu.copy()
        noisy[rng.choice(len(noisy), 3000, replace=False)] ^= 0x5A
        d_cpu, t_cpu = run(gpuofdm.rs_decoder_bb(64, 48, 8, 0, "cpu"), noisy)
        d_gpu, t_gpu = run(gpuofdm.rs_decoder_bb(64, 48, 8, 1000, "cuda"), noisy)
        np.testing.assert_array_equal(d_gpu, d_cpu)
        self.assertEqual([t.offset for t in t_gpu], [t.offset for t in t_cpu])


if __name__ == '__main__':
    gr_unittest.run(qa_rs_codec)
