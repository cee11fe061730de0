#!/usr/bin/python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Detection probability against SNR of the PRACH detector (CPU twin), from the JSON of
gpuofdm_prach_mc: one curve per (format, subcarrier spacing, antennas), the 3GPP TS 38.104
8.4 requirement (Pd >= 99 % at the table's SNR) marked, the measured false-alarm rate in
the legend.

    gpuofdm_prach_mc --curves 0:0:2:-22:-12:1,... --json docs/prach_curves.json
    /usr/bin/python3 scripts/prach_curves.py docs/prach_curves.json docs/prach_pd.png

Without matplotlib it says so and exits 1."""

import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="gpuofdm_prach_mc --json output")
    ap.add_argument("png", help="the picture to write")
    ap.add_argument("--requirements", help="a second JSON whose points are the 38.104 ones")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("prach_curves.py: matplotlib is not installed", file=sys.stderr)
        return 1
    with open(args.json) as f:
        points = json.load(f)
    required = []
    if args.requirements:
        with open(args.requirements) as f:
            required = [p for p in json.load(f) if p.get("required_snr_db") is not None]
    curves = {}
    for p in points:
        key = (p["format"], p["scs_khz"], p["antennas"])
        curves.setdefault(key, []).append(p)
    fig, ax = plt.subplots(figsize=(9, 6))
    for (fmt, scs, ant), pts in sorted(curves.items()):
        pts.sort(key=lambda p: p["snr_db"])
        miss = [max(1.0 - p["pd"], 0.5 / p["pd_trials"]) for p in pts]
        label = "format %s%s, %d antennas (Pfa %.2g %%)" % (
            fmt, "" if scs == 0 else " %d kHz" % scs, ant, 100 * pts[0]["pfa"])
        ax.semilogy([p["snr_db"] for p in pts], miss, marker="o", label=label)
    if required:
        ax.plot([p["required_snr_db"] for p in required],
                [max(1.0 - p["pd"], 0.5 / p["pd_trials"]) for p in required],
                marker="x", color="black", linestyle="none",
                label="the %d 38.104 points at their SNR (worst Pfa %.2g %%)" % (
                    len(required), 100 * max(p["pfa"] for p in required)))
    ax.axhline(0.01, color="gray", linestyle="--", linewidth=1)
    ax.text(ax.get_xlim()[0], 0.011, " 38.104 8.4: Pd >= 99 %", fontsize=8, color="gray")
    ax.set_xlabel("SNR per RE and antenna (dB)")
    ax.set_ylabel("1 - Pd (missed: wrong preamble or timing error beyond tolerance)")
    ax.set_title("PRACH detector, AWGN, CPU twin (no miss: drawn at half a trial)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print("wrote %s" % args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
