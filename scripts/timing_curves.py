#!/usr/bin/python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Timing-error variance against Es/N0 next to the modified Cramer-Rao bound, and
acquisition time against loop bandwidth, of gpuofdm.pfb_timing_sync_ccf (sequential and
chunked) and GNU Radio's digital.pfb_clock_sync_ccf on the same input.

Signal: QPSK through the analytic root-raised-cosine pulse (roll-off 0.35), 2 samples a
symbol, a fixed fractional delay, complex AWGN at Es/N0 (Es: the pulse energy over the
samples of a symbol). Receiver: 32 filters, the prototype
firdes.root_raised_cosine(32, 64, 1, 0.35, 704).

Timing error: the loop's phase output k (filters) unwrapped over whole samples, in symbols
(k / 32 / sps), modulo a symbol around its median (cycle slips aside); its variance after
acquisition (the first 1000 symbols dropped), against

    MCRB(tau) / T^2 = B_L T / (8 pi^2 xi Es/N0),  xi = 1/12 + beta^2 (1/4 - 2/pi^2)

(Mengali and D'Andrea, for a raised-cosine spectrum), where B_L T is the noise bandwidth of
the loop linearised with the detector slope measured here (open loop, loop_bw 0, the mean
error against the phase). Also the floor of the bank's quantisation, 1 / (12 (32 sps)^2).

Acquisition: the loop started half a symbol off (init_phase), symbols until the timing
averaged over the next 32 symbols is within 0.05 T of where it settles (modulo a symbol),
mean over 20 noise seeds and delays, Es/N0 15 dB.

Run with PYTHONPATH=<build>/python /usr/bin/python3 scripts/timing_curves.py [--quick].
Writes docs/timing_error_variance.png and docs/timing_acquisition.png with matplotlib, or,
without matplotlib, says so and writes the numbers as JSON (docs/timing_curves.json is
written in both cases)."""

import argparse
import json
import os
import sys

import numpy as np
from gnuradio import blocks, digital, gr
from gnuradio.filter import firdes

from gnuradio import gpuofdm

SPS = 2
NF = 32
BETA = 0.35
DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")


def rrc(t, beta):
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


def qpsk(n_sym, delay, esn0_db, seed, span=8):
    rng = np.random.default_rng(seed)
    sym = np.exp(1j * (np.pi / 4 + np.pi / 2 * rng.integers(0, 4, n_sym)))
    n = (n_sym - 2 * span - 2) * SPS
    t = np.arange(n) / SPS + delay + span
    k0 = np.floor(t).astype(int)
    x = np.zeros(n, complex)
    for d in range(-span, span + 1):
        x += sym[k0 + d] * rrc(t - (k0 + d), BETA)
    if esn0_db is not None:
        n0 = SPS / 10 ** (esn0_db / 10)
        x += np.sqrt(n0 / 2) * (rng.standard_normal(n) + 1j * rng.standard_normal(n))
    return x.astype(np.complex64)


def taps():
    return firdes.root_raised_cosine(NF, NF * SPS, 1.0, BETA, 11 * SPS * NF)


def make(kind, loop_bw, init_phase):
    if kind == "pfb_clock_sync_ccf":
        return digital.pfb_clock_sync_ccf(SPS, loop_bw, taps(), NF, init_phase, 1.5, 1)
    return gpuofdm.pfb_timing_sync_ccf(SPS, loop_bw, taps(), NF, init_phase, 1.5, 1, "auto",
                                       kind, 8192, 2048)


def run(x, blk):
    """The error and phase outputs of blk on x."""
    tb = gr.top_block()
    src = blocks.vector_source_c(x.tolist())
    tb.connect(src, blk)
    sinks = [blocks.null_sink(gr.sizeof_gr_complex)]
    sinks += [blocks.vector_sink_f() for _ in range(3)]
    for i, s in enumerate(sinks):
        tb.connect((blk, i), s)
    tb.run()
    return np.array(sinks[1].data()), np.array(sinks[3].data())


def timing_symbols(phase):
    """The phase output unwrapped over whole samples, in symbols."""
    return np.unwrap(phase * 2 * np.pi / NF) * NF / (2 * np.pi) / NF / SPS


def detector_slope():
    """Open loop (loop_bw 0): the mean error against the phase, per filter, near lock."""
    x = qpsk(4000, 0.0, None, 1)
    pts = []
    for k in range(0, NF):
        err, _ = run(x, make("pfb_clock_sync_ccf", 0.0, float(k)))
        pts.append(np.mean(err[200:]))
    pts = np.array(pts)
    # The stable zero: error falling through zero as the phase grows.
    i = int(np.argmin([pts[j] if pts[j] > 0 > pts[(j + 1) % NF] else np.inf
                       for j in range(NF)]))
    return pts[(i + 1) % NF] - pts[i]  # per filter (negative: restoring)


def loop_noise_bandwidth(loop_bw, kd):
    """B_L T of pfb_clock_sync_ccf's loop linearised: per symbol, e = -kd (k - k*),
    sps steps of rate += beta e, k += rate + alpha e."""
    damping = 2.0 * NF
    denom = 1 + 2 * damping * loop_bw + loop_bw ** 2
    alpha = 4 * damping * loop_bw / denom
    beta = 4 * loop_bw ** 2 / denom
    # Impulse response of k to a unit step of k* -> differentiate the step response.
    k, rate, target, ks = 0.0, 0.0, 1.0, []
    for _ in range(20000):
        e = kd * (k - target)
        for _ in range(SPS):
            rate += beta * e
            k += rate + alpha * e
        ks.append(k)
    h = np.diff(np.concatenate([[0.0], ks]))
    return 0.5 * np.sum(h ** 2) / np.sum(h) ** 2


def mcrb(esn0_db, bl):
    xi = 1 / 12 + BETA ** 2 * (1 / 4 - 2 / np.pi ** 2)
    return bl / (8 * np.pi ** 2 * xi * 10 ** (np.asarray(esn0_db) / 10))


def variance_curve(esn0s, n_sym, loop_bw):
    out = {}
    for kind in ("pfb_clock_sync_ccf", "sequential", "chunked"):
        v = []
        for i, es in enumerate(esn0s):
            x = qpsk(n_sym, 0.3, es, 100 + i)
            _, phase = run(x, make(kind, loop_bw, NF / 2))
            tau = timing_symbols(phase)[1000:]
            # Modulo a symbol: a cycle slip (0 dB) moves the timing by a whole symbol.
            off = (tau - np.median(tau) + 0.5) % 1.0 - 0.5
            v.append(float(np.var(off)))
        out[kind] = v
    return out


def acquisition(bws, seeds):
    out = {}
    for kind in ("pfb_clock_sync_ccf", "sequential"):
        means = []
        for bw in bws:
            times = []
            for s in range(seeds):
                delay = (s * 0.37) % 1.0
                x = qpsk(3000, delay, 15.0, 500 + s)
                _, phase = run(x, make(kind, bw, NF / 2 + NF * 0.5))
                tau = timing_symbols(phase)
                settled = np.median(tau[-500:])
                off = (tau - settled + 0.5) % 1.0 - 0.5
                # The first symbol from which the mean offset over 32 symbols is within 0.05 T.
                mean32 = np.convolve(off, np.ones(32) / 32, mode="valid")
                inside = np.nonzero(np.abs(mean32) < 0.05)[0]
                times.append(int(inside[0]) if len(inside) else len(off))
            means.append(float(np.mean(times)))
        out[kind] = means
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer points and symbols")
    args = ap.parse_args()
    loop_bw = 2 * np.pi / 100
    esn0s = [0, 5, 10, 15, 20] if args.quick else list(range(0, 21, 2))
    n_sym = 6000 if args.quick else 40000
    bws = [0.01, 0.03, 0.0628, 0.1] if args.quick else [0.005, 0.01, 0.02, 0.03, 0.05, 0.0628,
                                                        0.1, 0.15]
    seeds = 4 if args.quick else 20

    kd = detector_slope()
    bl = loop_noise_bandwidth(loop_bw, kd)
    result = {
        "loop_bw": loop_bw, "detector_slope_per_filter": float(kd), "BLT": float(bl),
        "esn0_db": esn0s, "mcrb": [float(v) for v in mcrb(esn0s, bl)],
        "quantisation_floor": 1 / (12 * (NF * SPS) ** 2),
        "variance": variance_curve(esn0s, n_sym, loop_bw),
        "loop_bws": bws, "acquisition_symbols": acquisition(bws, seeds),
    }
    print(json.dumps(result, indent=1))
    with open(os.path.join(DOCS, "timing_curves.json"), "w") as f:
        json.dump(result, f, indent=1)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no PNG written (apt install python3-matplotlib); "
              "the numbers are in docs/timing_curves.json", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for kind, mark in (("pfb_clock_sync_ccf", "o"), ("sequential", "x"), ("chunked", "+")):
        label = "pfb_clock_sync_ccf" if kind.startswith("pfb") else "gpuofdm " + kind
        ax.semilogy(esn0s, result["variance"][kind], mark + "-", label=label)
    ax.semilogy(esn0s, result["mcrb"], "k--", label="MCRB (B_L T = %.4f)" % bl)
    ax.axhline(result["quantisation_floor"], color="gray", ls=":",
               label="bank quantisation 1/(12 (32 sps)^2)")
    ax.set_xlabel("Es/N0 (dB)")
    ax.set_ylabel("timing-error variance / T^2")
    ax.set_title("QPSK, RRC 0.35, sps 2, 32 filters, loop_bw 2pi/100")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "timing_error_variance.png"), dpi=110)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for kind, mark in (("pfb_clock_sync_ccf", "o"), ("sequential", "x")):
        label = "pfb_clock_sync_ccf" if kind.startswith("pfb") else "gpuofdm " + kind
        ax.loglog(bws, result["acquisition_symbols"][kind], mark + "-", label=label)
    ax.set_xlabel("loop_bw")
    ax.set_ylabel("symbols until within 0.05 T (32-symbol mean)")
    ax.set_title("Acquisition from half a symbol off, QPSK, Es/N0 15 dB (mean of %d)" % seeds)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "timing_acquisition.png"), dpi=110)
    print("wrote docs/timing_error_variance.png, docs/timing_acquisition.png")


if __name__ == "__main__":
    main()
