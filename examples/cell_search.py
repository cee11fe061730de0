#!/usr/bin/python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""
Cell search in a flowgraph: gpuofdm.sync_signal_source_c (cells' sync signals plus noise)
-> head -> gpuofdm.cell_searcher_cc -> null sink, the searcher's "cells" messages
collected; then a table of the cells found and a verdict: PASS when every cell sent is
found with its ID at its raster position, and nothing else is found.

Default: two 5G NR cells on two GSCNs of a 30.72 Msps stream at 3.5 GHz (SSB spacing
30 kHz), 0 dB SNR over the SSB's band, 45 ms. The searcher tries every GSCN inside the
band. --standard lte or 5gtf with --cells of offsets from the stream's centre.

Run with Debian's Python, which has GNU Radio:
    /usr/bin/python3 examples/cell_search.py --device auto
    /usr/bin/python3 examples/cell_search.py --standard lte --rate 7.68e6 --center 0 \\
        --cells 101@-1500000,302@2000000
    /usr/bin/python3 examples/cell_search.py --standard 5gtf --rate 19.2e6 --center 0 \\
        --cells 211@0 --snr -9 --combine-symbols
    /usr/bin/python3 examples/cell_search.py --snr -5 --pss-steps 4
From a build tree, add PYTHONPATH=<build>/python.
"""

import argparse
import sys

import pmt
from gnuradio import blocks, gr

try:
    from gnuradio import gpuofdm
except ImportError as e:
    sys.exit("cannot import gnuradio.gpuofdm ({}); install gr-gpuofdm or set "
             "PYTHONPATH=<build>/python".format(e))


def gscn_hz(g):
    """38.104 Table 5.4.3.1-1, 3000..24250 MHz: SS_REF = 3000 MHz + (GSCN - 7499) 1.44 MHz."""
    return 3000e6 + (g - 7499) * 1.44e6


def cell_list(text):
    """'ID@OFFSET_HZ[@CFO_HZ],...' -> [(id, offset, cfo)]."""
    cells = []
    for item in text.split(","):
        parts = item.split("@")
        try:
            if len(parts) not in (2, 3):
                raise ValueError
            cells.append((int(parts[0]), float(parts[1]),
                          float(parts[2]) if len(parts) == 3 else 0.0))
        except ValueError:
            raise argparse.ArgumentTypeError(
                "--cells: expected ID@OFFSET_HZ[@CFO_HZ], got '{}'".format(item))
    return cells


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    p.add_argument("--standard", default="nr", choices=["nr", "lte", "5gtf"])
    p.add_argument("--rate", type=float, default=30.72e6, help="sample rate (30.72e6)")
    p.add_argument("--center", type=float, default=3.5e9,
                   help="centre frequency in Hz, 0: unknown (3.5e9)")
    p.add_argument("--cells", type=cell_list,
                   default=[(17, gscn_hz(7843) - 3.5e9, 2e3), (600, gscn_hz(7850) - 3.5e9, -3e3)],
                   help="ID@OFFSET_HZ[@CFO_HZ],... (two NR cells on GSCNs 7843 and 7850)")
    p.add_argument("--snr", type=float, default=0.0,
                   help="dB over the sync signal's band (0)")
    p.add_argument("--seconds", type=float, default=45e-3, help="stream length (45 ms)")
    p.add_argument("--periods", type=int, default=1, help="sync periods combined (1)")
    p.add_argument("--combine-symbols", action="store_true",
                   help="5GTF: also combine each sync subframe's 14 symbols (weak cells)")
    p.add_argument("--pss-steps", type=int, default=-1,
                   help="steps of levels below the thresholds: weaker cells, more host work "
                        "(-1: the block's default, none with one period)")
    p.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N (auto)")
    args = p.parse_args(argv)
    if args.seconds <= 0:
        p.error("--seconds must be positive")

    ids = [c[0] for c in args.cells]
    offsets = [c[1] for c in args.cells]
    src = gpuofdm.sync_signal_source_c(
        args.standard, args.rate, ids, offsets_hz=offsets, cfo_hz=[c[2] for c in args.cells],
        start_s=[1e-3 * (i + 1) for i in range(len(ids))], snr_db=args.snr,
        center_freq=args.center)
    head = blocks.head(gr.sizeof_gr_complex, int(args.rate * args.seconds))
    search = gpuofdm.cell_searcher_cc(args.standard, args.rate, args.center,
                                      combine_periods=args.periods, device=args.device,
                                      combine_symbols=args.combine_symbols,
                                      pss_steps=args.pss_steps)
    store = blocks.message_debug()
    tb = gr.top_block()
    tb.connect(src, head, search, blocks.null_sink(gr.sizeof_gr_complex))
    tb.msg_connect(search, "cells", store, "store")
    print("{}: {} cell(s) at {:.4g} Msps, {} raster candidates searched, {:.0f} ms".format(
        args.standard, len(ids), args.rate / 1e6, search.candidates(), args.seconds * 1e3))
    tb.run()

    # One line per (raster position, cell ID): its strongest detection and how often seen.
    cells = {}
    for i in range(store.num_messages()):
        d = pmt.to_python(store.get_message(i))
        key = (round(d["offset_hz"]), d["cell_id"])
        best, seen = cells.get(key, (None, 0))
        if best is None or d["metric"] > best["metric"]:
            best = d
        cells[key] = (best, seen + 1)
    print("{:>5} {:>13} {:>8} {:>10} {:>8} {:>8} {:>5}".format(
        "cell", "offset_Hz", "raster", "cfo_Hz", "snr_dB", "metric", "seen"))
    for (offset, cell_id), (d, seen) in sorted(cells.items(), key=lambda kv: -kv[1][0]["metric"]):
        print("{:>5} {:>13.0f} {:>8} {:>10.0f} {:>8.1f} {:>8.1f} {:>5}".format(
            cell_id, d["offset_hz"], d["raster_number"], d["cfo_hz"], d["snr_db"], d["metric"],
            seen))
    # A cell is found when its ID is reported at a candidate within half an SSB / PSS
    # bandwidth of where it was sent (the raster point nearest it).
    tolerance = {"nr": 1e6, "lte": 50e3, "5gtf": 1e6}[args.standard]
    missing = [c for c in args.cells if not any(
        cid == c[0] and abs(off - c[1]) < tolerance for off, cid in cells)]
    extra = [k for k in cells if not any(
        k[1] == c[0] and abs(k[0] - c[1]) < tolerance for c in args.cells)]
    ok = not missing and not extra
    print("{}: {} of {} cells found, {} other detection(s)".format(
        "PASS" if ok else "FAIL", len(args.cells) - len(missing), len(args.cells), len(extra)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
