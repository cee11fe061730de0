#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cell_searcher_cc in a flowgraph: two NR cells on two GSCNs of a 30.72 Msps stream at
3.5 GHz, from sync_signal_source_c; every sample passes through unchanged, each SSB is
reported on its GSCN with its cell ID and tagged on its first sample; bad parameters."""

import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuofdm

FS = 30.72e6
CENTER = 3.5e9


def gscn_hz(g):
    # 38.104 Table 5.4.3.1-1, 3000..24250 MHz: SS_REF = 3000 MHz + (GSCN - 7499) x 1.44 MHz
    return 3000e6 + (g - 7499) * 1.44e6


def run_through(src, head, search, n, timeout_s=60):
    """src -> head -> search into a vector sink, head into a second one, the detections
    into a message_debug; the flowgraph stopped after timeout_s if the n samples have not
    all come out (a stall then fails the test instead of hanging it)."""
    ref = blocks.vector_sink_c()
    out = blocks.vector_sink_c()
    dbg = blocks.message_debug()
    tb = gr.top_block()
    tb.connect(src, head, search, out)
    tb.connect(head, ref)
    tb.msg_connect(search, "cells", dbg, "store")
    tb.start()
    deadline = time.time() + timeout_s
    while len(out.data()) < n and time.time() < deadline:
        time.sleep(0.05)
    if len(out.data()) < n:
        tb.stop()
    tb.wait()
    return out, ref, dbg


class qa_cell_searcher_cc(gr_unittest.TestCase):

    def test_001_two_cells_on_two_gscns(self):
        cells = [(17, 7843, 1.0e-3), (600, 7850, 6.0e-3)]
        src = gpuofdm.sync_signal_source_c(
            "nr", FS, [c[0] for c in cells], offsets_hz=[gscn_hz(c[1]) - CENTER for c in cells],
            cfo_hz=[2e3, -3e3], start_s=[c[2] for c in cells], snr_db=5.0, center_freq=CENTER)
        n = int(FS * 25e-3)
        head = blocks.head(gr.sizeof_gr_complex, n)
        search = gpuofdm.cell_searcher_cc("nr", FS, CENTER, device="cpu")
        self.assertGreater(search.candidates(), 10)
        out, ref, dbg = run_through(src, head, search, n)

        self.assertEqual(len(out.data()), n)  # nothing lost at the end of the stream
        self.assertTrue(np.array_equal(np.array(out.data()), np.array(ref.data())))
        found = []
        for i in range(dbg.num_messages()):
            d = pmt.to_python(dbg.get_message(i))
            found.append((d["cell_id"], d["raster_number"], d["sample"], d["ssb_index"]))
            # At 5 dB the PBCH DM-RS stands far out of noise (about 1 there).
            self.assertGreater(d["dmrs_metric"], 20, d)
        # SSB 0 of case C: half-frame symbol 2, whose CP starts 1112 + 1096 = 2208 samples
        # into the frame at 30.72 Msps; a burst every 20 ms.
        want = []
        for cell_id, g, start in cells:
            for k in range(2):
                s = int(round(start * FS)) + 2208 + k * int(FS * 20e-3)
                if s + 4 * 1100 < n:
                    want.append((cell_id, g, s, 0))
        self.assertEqual(sorted(f[:2] + (f[3],) for f in found),
                         sorted(w[:2] + (w[3],) for w in want))
        for f in found:
            self.assertTrue(any(f[0] == w[0] and abs(f[2] - w[2]) <= 4 for w in want), f)
        tags = [t for t in out.tags() if pmt.symbol_to_string(t.key) == "cell"]
        self.assertEqual(sorted(t.offset for t in tags), sorted(f[2] for f in found))

    def test_003_combined_periods_keep_flowing(self):
        # Four 20 ms periods combined: a window's search needs 80 ms of stream in hand, more
        # than two 20 ms windows and 20 ms each; the block holds enough (it once stalled).
        fs = 7.68e6
        src = gpuofdm.sync_signal_source_c("nr", fs, [17], offsets_hz=[0.0], cfo_hz=[1e3],
                                           start_s=[1e-3], snr_db=0.0, center_freq=CENTER)
        n = int(fs * 0.2)
        head = blocks.head(gr.sizeof_gr_complex, n)
        search = gpuofdm.cell_searcher_cc("nr", fs, CENTER, offsets_hz=[0.0],
                                          combine_periods=4, device="cpu")
        out, ref, dbg = run_through(src, head, search, n)
        self.assertEqual(len(out.data()), n)
        self.assertTrue(np.array_equal(np.array(out.data()), np.array(ref.data())))
        ids = [pmt.to_python(dbg.get_message(i))["cell_id"] for i in range(dbg.num_messages())]
        self.assertGreater(len(ids), 0)
        self.assertEqual(set(ids), {17})

    def test_004_fivegtf_sync_symbols_combined(self):
        # 5GTF at -8 dB over its sync band, where one symbol's metric mostly misses the
        # threshold: with its 14 sync symbols combined, each sync subframe (1, 6 and 11 ms)
        # is reported once, at its symbol 0, though 5 ms windows end inside them.
        fs = 19.2e6
        src = gpuofdm.sync_signal_source_c("5gtf", fs, [211], offsets_hz=[0.0], cfo_hz=[-20e3],
                                           start_s=[1e-3], snr_db=-8.0, seed=3)
        n = int(fs * 16e-3)
        head = blocks.head(gr.sizeof_gr_complex, n)
        search = gpuofdm.cell_searcher_cc("5gtf", fs, window_ms=5.0, device="cpu",
                                          combine_symbols=True)
        out, ref, dbg = run_through(src, head, search, n)
        self.assertEqual(len(out.data()), n)
        dicts = [pmt.to_python(dbg.get_message(i)) for i in range(dbg.num_messages())]
        self.assertTrue(all(d["dmrs_metric"] == -1 for d in dicts))  # NR's only
        found = sorted((d["sample"], d["cell_id"], d["subframe"], d["symbol"]) for d in dicts)
        self.assertEqual([f[1:] for f in found], [(211, 0, 0), (211, 25, 0), (211, 0, 0)])
        # Symbol 0's CP starts at the subframe's start (V5G.211's 0.2 ms subframes).
        for f, start in zip(found, (1e-3, 6e-3, 11e-3)):
            self.assertLessEqual(abs(f[0] - start * fs), 3)

    def test_002_bad_parameters(self):
        with self.assertRaisesRegex(ValueError, "standard"):
            gpuofdm.cell_searcher_cc("gsm", FS)
        with self.assertRaisesRegex(ValueError, "center_freq: NR's GSCN raster needs"):
            gpuofdm.cell_searcher_cc("nr", FS, 0.0)
        with self.assertRaisesRegex(ValueError, "combine_periods: 1..16"):
            gpuofdm.cell_searcher_cc("lte", FS, combine_periods=0)
        with self.assertRaisesRegex(ValueError, "window_ms"):
            gpuofdm.cell_searcher_cc("lte", FS, window_ms=1.0)
        with self.assertRaisesRegex(ValueError, "samp_rate"):
            gpuofdm.cell_searcher_cc("lte", 1e6)
        with self.assertRaisesRegex(ValueError, "combine_symbols is for 5GTF"):
            gpuofdm.cell_searcher_cc("lte", FS, combine_symbols=True)
        with self.assertRaisesRegex(ValueError, "pss_steps: -1..6"):
            gpuofdm.cell_searcher_cc("lte", FS, pss_steps=7)
        with self.assertRaisesRegex(ValueError, "pss_steps is -1 or 0 with 5GTF"):
            gpuofdm.cell_searcher_cc("5gtf", FS, combine_periods=2, pss_steps=1)


if __name__ == "__main__":
    gr_unittest.run(qa_cell_searcher_cc)
