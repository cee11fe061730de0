#!/usr/bin/python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""
OFDM loopback: random QPSK bins -> gpuofdm.ofdm_ifft (IFFT + CP) -> gpuofdm.ofdm_fft
(CP removal + FFT) -> vector sink, then the largest round-trip error and the throughput.

Both blocks use scale = 1/sqrt(fft_len), so the round trip gives the bins back.
The throughput is the wall-clock time of tb.run() for the whole flowgraph (source, both
blocks, sink and the GNU Radio scheduler), not the GPU kernel time alone.

Run with Debian's Python, which has GNU Radio:
    /usr/bin/python3 examples/ofdm_loopback.py --device auto --fft-len 64 --cp 16 --symbols 20000
From a build tree, add PYTHONPATH=<build>/python.
"""

import argparse
import sys
import time

import numpy as np

from gnuradio import blocks, gr

try:
    from gnuradio import gpuofdm
except ImportError as e:
    sys.exit("cannot import gnuradio.gpuofdm ({}); install gr-gpuofdm or set "
             "PYTHONPATH=<build>/python".format(e))


def cp_list(text):
    """'16' or '160,144,144,144,144,144,144' -> list of ints."""
    try:
        cps = [int(c) for c in text.split(",") if c.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("--cp: give integers separated by commas")
    if not cps:
        raise argparse.ArgumentTypeError("--cp: give at least one CP length")
    return cps


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    p.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N (default: auto)")
    p.add_argument("--fft-len", type=int, default=64, help="FFT size (default: 64)")
    p.add_argument("--cp", type=cp_list, default=[16],
                   help="CP length, or comma-separated lengths used round robin (default: 16)")
    p.add_argument("--symbols", type=int, default=20000,
                   help="OFDM symbols to send (default: 20000)")
    p.add_argument("--batch", type=int, default=0,
                   help="symbols per GPU launch, 0 = the block's default (default: 0)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default: 1)")
    args = p.parse_args(argv)
    if args.fft_len < 1:
        p.error("--fft-len must be at least 1")
    if args.symbols < 1:
        p.error("--symbols must be at least 1")

    n = args.fft_len
    rng = np.random.default_rng(args.seed)
    qpsk = np.array([1 + 1j, -1 + 1j, -1 - 1j, 1 - 1j], dtype=np.complex64) / np.sqrt(2)
    bins = qpsk[rng.integers(0, 4, size=args.symbols * n)]

    scale = 1.0 / np.sqrt(n)
    try:
        ifft = gpuofdm.ofdm_ifft(n, args.cp, shift=True, scale=scale, batch=args.batch,
                                 device=args.device)
        fft = gpuofdm.ofdm_fft(n, args.cp, shift=True, scale=scale, batch=args.batch,
                               device=args.device)
    except (ValueError, RuntimeError) as e:
        sys.exit("error: {}".format(e))

    tb = gr.top_block("ofdm_loopback")
    src = blocks.vector_source_c(bins.tolist(), False, n)
    snk = blocks.vector_sink_c(n, args.symbols)
    tb.connect(src, ifft, fft, snk)

    t0 = time.perf_counter()
    tb.run()
    elapsed = time.perf_counter() - t0

    out = np.asarray(snk.data(), dtype=np.complex64)
    if out.size != bins.size:
        sys.exit("error: got {} bins back, sent {}".format(out.size, bins.size))
    err = float(np.max(np.abs(out - bins)))

    cps = [args.cp[i % len(args.cp)] for i in range(args.symbols)]
    samples = args.symbols * n + sum(cps)
    print("device      : {} (asked for {}), batch {}".format(
        ifft.device(), args.device, ifft.batch()))
    print("symbols     : {} x fft_len {}, CP {}".format(args.symbols, n, args.cp))
    print("max |error| : {:.3g}".format(err))
    print("run time    : {:.4f} s".format(elapsed))
    print("throughput  : {:.0f} symbols/s, {:.3f} Msample/s (time-domain samples)".format(
        args.symbols / elapsed, samples / elapsed / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
