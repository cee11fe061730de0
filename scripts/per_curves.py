#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Plots gpuofdm_per's CSV as PER-versus-SNR curves and reads off the SNR at PER 1%.

    per_curves.py RESULTS.csv [--out DIR] [--target 0.01] [--max-gap 1.0]

One PNG per channel (DIR/per_<channel>.png): every rate, the real receiver solid, the
reference receiver (true timing, CFO and channel) dashed. Prints a Markdown table of the
SNR at the target PER of both receivers and the gap (log-PER interpolated between the
points around the target); exits 1 when a gap is above --max-gap or a curve never reaches
the target. Needs matplotlib (Debian: python3-matplotlib).
"""

import argparse
import csv
import math
import os
import sys
from collections import defaultdict


def snr_at(points, target):
    """SNR where the curve first falls to target, log(PER) linear between points."""
    points = sorted(points)
    for (s0, p0), (s1, p1) in zip(points, points[1:]):
        if p0 > target >= p1:
            if p1 <= 0:
                # The next point has no error at all: bound by interpolating to a floor
                # of half an error in the frames counted is not possible here; take the
                # linear interpolation in PER instead.
                return s0 + (s1 - s0) * (p0 - target) / (p0 - p1)
            l0, l1, lt = math.log10(p0), math.log10(p1), math.log10(target)
            return s0 + (s1 - s0) * (l0 - lt) / (l0 - l1)
    if points and points[0][1] <= target:
        return points[0][0]  # already below at the first point (an upper bound)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--out", default="docs")
    ap.add_argument("--target", type=float, default=0.01)
    ap.add_argument("--max-gap", type=float, default=1.0)
    a = ap.parse_args()

    curves = defaultdict(list)  # (channel, rate, receiver) -> [(snr, per)]
    frames = set()
    with open(a.csv) as f:
        for row in csv.DictReader(f):
            key = (row["channel"], int(row["rate"]), row["receiver"])
            curves[key].append((float(row["snr_db"]), float(row["per"])))
            frames.add(int(row["frames"]))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(a.out, exist_ok=True)
    channels = sorted({k[0] for k in curves})
    rates = sorted({k[1] for k in curves})
    floor = 0.5 / max(frames)
    failed = False
    print("| channel | rate (Mb/s) | SNR at PER %g, receiver | reference | gap (dB) |"
          % a.target)
    print("|---|---|---|---|---|")
    for ch in channels:
        fig, ax = plt.subplots(figsize=(8, 5.5))
        colors = plt.cm.viridis([i / max(1, len(rates) - 1) for i in range(len(rates))])
        for rate, color in zip(rates, colors):
            for rx, style in (("real", "-"), ("reference", "--")):
                pts = sorted(curves.get((ch, rate, rx), []))
                if not pts:
                    continue
                ax.semilogy([s for s, _ in pts], [max(p, floor) for _, p in pts], style,
                            color=color, marker="o" if rx == "real" else None, markersize=3,
                            label="%d Mb/s" % rate if rx == "real" else None)
            real = snr_at(curves.get((ch, rate, "real"), []), a.target)
            ref = snr_at(curves.get((ch, rate, "reference"), []), a.target)
            if real is None or ref is None:
                failed = True
                print("| %s | %d | %s | %s | - |" % (ch, rate, real, ref))
                continue
            gap = real - ref
            failed |= gap > a.max_gap
            print("| %s | %d | %.2f | %.2f | %.2f |" % (ch, rate, real, ref, gap))
        ax.axhline(a.target, color="gray", linewidth=0.8)
        ax.set_ylim(floor * 0.8, 1.05)
        ax.set_xlabel("SNR per sample (dB)")
        ax.set_ylabel("packet error rate")
        ax.set_title("802.11a, %s channel, 1000-octet frames, CFO within +-100 kHz\n"
                     "wifi_rx (solid, o) vs the same receiver given the true timing, CFO and "
                     "channel (dashed)" % ch, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, ncol=2)
        path = os.path.join(a.out, "per_%s.png" % ch)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        print("", file=sys.stderr)
        print("wrote " + path, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
