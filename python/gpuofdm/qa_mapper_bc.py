#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""mapper_bc in flowgraphs, against digital.chunks_to_symbols_bc and a
digital.constellation built from 802.11a Tables 17-8 .. 17-11, and Annex G."""

import os

import numpy as np
from gnuradio import blocks, digital, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason, read_octet_bits, testvector_dir

SEED = 20261125

# 802.11a 17.3.5.7: per-axis Gray levels, the bits as printed (first bit first).
TABLE_17_8 = {"0": -1, "1": 1}                                        # BPSK, I only
TABLE_17_9 = {"0": -1, "1": 1}                                        # QPSK, b0 -> I, b1 -> Q
TABLE_17_10 = {"00": -3, "01": -1, "11": 1, "10": 3}                  # 16-QAM, b0b1 / b2b3
TABLE_17_11 = {"000": -7, "001": -5, "011": -3, "010": -1,            # 64-QAM, b0b1b2 / b3b4b5
               "110": 1, "111": 3, "101": 5, "100": 7}
# Table 17-7: K_MOD.
MODS = {"BPSK": (1, TABLE_17_8, 1.0), "QPSK": (2, TABLE_17_9, 1 / np.sqrt(2)),
        "16QAM": (4, TABLE_17_10, 1 / np.sqrt(10)), "64QAM": (6, TABLE_17_11, 1 / np.sqrt(42))}


def symbol_table(mod):
    """table[label], label = b0 b1 ... read as a binary number with b0 the MSB (the order
    blocks.pack_k_bits_bb packs them in), straight from the tables above."""
    n, axis, k = MODS[mod]
    table = []
    for label in range(2 ** n):
        b = format(label, "0%db" % n)
        if n == 1:
            table.append(complex(k * axis[b], 0))
        else:
            table.append(complex(k * axis[b[:n // 2]], k * axis[b[n // 2:]]))
    return table


class qa_mapper_bc(gr_unittest.TestCase):

    def run_ours(self, bits, mod, tags=(), device="cpu", batch=0):
        tb = gr.top_block()
        src = blocks.vector_source_b(list(map(int, bits)), False, 1, list(tags))
        blk = gpuofdm.mapper_bc(mod, batch, device)
        snk = blocks.vector_sink_c()
        tb.connect(src, blk, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.complex64), snk.tags()

    def run_chunks_to_symbols(self, bits, mod):
        n = MODS[mod][0]
        tb = gr.top_block()
        src = blocks.vector_source_b(list(map(int, bits)))
        pack = blocks.pack_k_bits_bb(n)
        c2s = digital.chunks_to_symbols_bc(symbol_table(mod), 1)
        snk = blocks.vector_sink_c()
        tb.connect(src, pack, c2s, snk)
        tb.run()
        return np.array(snk.data(), dtype=np.complex64)

    def test_001_hand_case_16qam(self):
        # b0b1 = 10 -> I = +3, b2b3 = 01 -> Q = -1, over sqrt(10)
        got, _ = self.run_ours([1, 0, 0, 1, 0, 0, 0, 0], "16QAM")
        np.testing.assert_allclose(got, np.array([3 - 1j, -3 - 3j]) / np.sqrt(10), atol=1e-6)

    def test_002_matches_chunks_to_symbols_with_the_standard_tables(self):
        rng = np.random.default_rng(SEED)
        for mod, (n, _, _) in MODS.items():
            bits = rng.integers(0, 2, n * 5000, dtype=np.uint8)
            got, _ = self.run_ours(bits, mod)
            want = self.run_chunks_to_symbols(bits, mod)
            self.assertEqual(len(got), 5000)
            np.testing.assert_allclose(got, want, atol=1e-6, err_msg=mod)
            # unit average power over the whole constellation
            self.assertAlmostEqual(np.mean(np.abs(symbol_table(mod)) ** 2), 1.0, places=6)

    def test_003_constellation_decoder_gives_the_bits_back(self):
        # digital.constellation_calcdist on the standard's table, as GNU Radio's decoder
        rng = np.random.default_rng(SEED + 1)
        for mod, (n, _, _) in MODS.items():
            bits = rng.integers(0, 2, n * 3000, dtype=np.uint8)
            const = digital.constellation_calcdist(symbol_table(mod), [], 4, 1)
            tb = gr.top_block()
            src = blocks.vector_source_b(bits.tolist())
            blk = gpuofdm.mapper_bc(mod, 0, "cpu")
            dec = digital.constellation_decoder_cb(const.base())
            unpack = blocks.unpack_k_bits_bb(n)
            snk = blocks.vector_sink_b()
            tb.connect(src, blk, dec, unpack, snk)
            tb.run()
            np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), bits, mod)
        # and the block's own table is GNU Radio's BPSK
        np.testing.assert_allclose(gpuofdm.mapper_bc("BPSK", 0, "cpu").points(),
                                   digital.constellation_bpsk().points(), atol=1e-7)
        np.testing.assert_allclose(gpuofdm.mapper_bc("64QAM", 0, "cpu").points(),
                                   symbol_table("64QAM"), atol=1e-6)

    def test_004_80211a_annex_g_first_data_symbol(self):
        d = os.path.join(testvector_dir(), "ieee80211a-annex-g")
        if not os.path.isfile(os.path.join(d, "G22.txt")):
            self.skipTest("802.11a Annex G vectors not found in " + d)
        bits = read_octet_bits(os.path.join(d, "G21.txt"))  # interleaved, 192 bits
        with open(os.path.join(d, "G22.txt")) as f:
            rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
        bins = np.array([float(re) + 1j * float(im) for re, im in rows])
        # 17.3.5.9: data point k sits on subcarrier M(k), -26..26 without 0, +-7, +-21
        carriers = [c for c in range(-26, 27) if c not in (0, -7, 7, -21, 21)]
        want = bins[np.array(carriers) % 64]
        got, _ = self.run_ours(bits, "16QAM")
        np.testing.assert_allclose(got, want, atol=2e-3)

    def test_005_tags_and_trailing_bits(self):
        bits = np.zeros(6 * 10 + 5, dtype=np.uint8)
        tags = [gr.tag_utils.python_to_tag((o, gr.pmt.intern("t"), gr.pmt.from_long(o)))
                for o in (0, 5, 6, 59)]
        got, out = self.run_ours(bits, "64QAM", tags)
        self.assertEqual(len(got), 10)  # the last 5 bits fill no point
        self.assertEqual(sorted((t.offset, gr.pmt.to_long(t.value)) for t in out),
                         [(0, 0), (0, 5), (1, 6), (9, 59)])

    def test_006_names_and_bits_per_point(self):
        for name, n in (("BPSK", 1), ("qpsk", 2), ("16QAM", 4), ("16-QAM", 4), ("64qam", 6)):
            blk = gpuofdm.mapper_bc(name, 0, "cpu")
            self.assertEqual(blk.bits_per_point(), n)
            self.assertEqual(len(blk.points()), 2 ** n)

    def test_007_bad_parameters_raise_value_error(self):
        for kwargs, name in ((dict(modulation="8PSK"), "modulation"),
                             (dict(modulation="256QAM"), "modulation"),
                             (dict(batch=-1), "batch"),
                             (dict(batch=2 ** 30), "batch"),
                             (dict(device="cuda:x"), "device")):
            with self.assertRaises(ValueError) as ctx:
                gpuofdm.mapper_bc(**kwargs)
            self.assertIn(name, str(ctx.exception))

    def test_008_cuda_without_gpu_is_a_clear_error(self):
        if not gpu_reason():
            self.skipTest("a GPU is usable here; this checks the no-GPU error")
        with self.assertRaises(RuntimeError) as ctx:
            gpuofdm.mapper_bc(device="cuda")
        self.assertIn(gpu_reason(), str(ctx.exception))
        self.assertEqual(gpuofdm.mapper_bc(device="auto").device(), "cpu")

    def test_009_cuda_matches_cpu_twin(self):
        if gpu_reason():
            self.skipTest("no usable GPU: " + gpu_reason())
        rng = np.random.default_rng(SEED + 2)
        for mod, (n, _, _) in MODS.items():
            bits = rng.integers(0, 2, n * 300001, dtype=np.uint8)
            want, _ = self.run_ours(bits, mod, device="cpu")
            for batch in (0, 1000, 65536):
                got, _ = self.run_ours(bits, mod, device="cuda", batch=batch)
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-7, err_msg=mod)


if __name__ == '__main__':
    gr_unittest.run(qa_mapper_bc)
