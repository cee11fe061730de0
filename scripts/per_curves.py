#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Plots gpuofdm_per's CSV as PER-versus-SNR curves and reads off the SNR at PER 1%.

    per_curves.py RESULTS.csv [--out DIR] [--target 0.01] [--max-gap 1.0]

One PNG per channel: every rate (802.11a, DIR/per_<channel>.png) or burst profile
(802.16, gpuofdm_per --standard wimax: the 'rate' column holds the profile's name, e.g.
QPSK-3/4; DIR/per_wimax_<channel>.png), the real receiver solid, the reference receiver
(true timing, CFO and channel) dashed, and where the CSV has them (--diagnose) the receiver
given the true timing and CFO only dotted. Prints a Markdown table of the SNR at the
target PER of both receivers and the gap (log-PER interpolated between the points around
the target); exits 1 when a gap is above --max-gap or a curve never reaches the target.
Needs matplotlib (Debian: python3-matplotlib).
"""

import argparse
import csv
import math
import os
import sys
from collections import defaultdict


# gpuofdm_per --standard wimax's profile names, in Rate_ID order.
WIMAX_PROFILES = ["BPSK-1/2", "QPSK-1/2", "QPSK-3/4", "16-QAM-1/2", "16-QAM-3/4",
                  "64-QAM-2/3", "64-QAM-3/4"]


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
            key = (row["channel"], row["rate"], row["receiver"])
            curves[key].append((float(row["snr_db"]), float(row["per"])))
            frames.add(int(row["frames"]))
    # 802.11a rates are numbers (Mb/s); 802.16 profiles are names.
    wimax = any(not k[1].isdigit() for k in curves)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(a.out, exist_ok=True)
    channels = sorted({k[0] for k in curves})
    if wimax:
        order = {p: i for i, p in enumerate(WIMAX_PROFILES)}
        rates = sorted({k[1] for k in curves}, key=lambda r: (order.get(r, len(order)), r))
    else:
        rates = sorted({k[1] for k in curves}, key=int)
    floor = 0.5 / max(frames)
    failed = False
    print("| channel | %s | SNR at PER %g, receiver | reference | gap (dB) |"
          % ("profile" if wimax else "rate (Mb/s)", a.target))
    print("|---|---|---|---|---|")
    for ch in channels:
        fig, ax = plt.subplots(figsize=(8, 5.5))
        colors = plt.cm.viridis([i / max(1, len(rates) - 1) for i in range(len(rates))])
        for rate, color in zip(rates, colors):
            name = " ".join(rate.rsplit("-", 1)) if wimax else "%s Mb/s" % rate
            for rx, style in (("real", "-"), ("reference", "--"), ("true_timing_cfo", ":")):
                pts = sorted(curves.get((ch, rate, rx), []))
                if not pts:
                    continue
                ax.semilogy([s for s, _ in pts], [max(p, floor) for _, p in pts], style,
                            color=color, marker="o" if rx == "real" else None, markersize=3,
                            label=name if rx == "real" else None)
            real = snr_at(curves.get((ch, rate, "real"), []), a.target)
            ref = snr_at(curves.get((ch, rate, "reference"), []), a.target)
            if real is None or ref is None:
                failed = True
                print("| %s | %s | %s | %s | - |" % (ch, rate, real, ref))
                continue
            gap = real - ref
            failed |= gap > a.max_gap
            print("| %s | %s | %.2f | %.2f | %.2f |" % (ch, rate, real, ref, gap))
        ax.axhline(a.target, color="gray", linewidth=0.8)
        ax.set_ylim(floor * 0.8, 1.05)
        ax.set_xlabel("SNR per sample (dB)")
        ax.set_ylabel("packet error rate")
        if wimax:
            dotted = any(k[0] == ch and k[2] == "true_timing_cfo" for k in curves)
            ax.set_title("802.16 OFDM-256, %s channel, 1000-octet bursts, CFO within +-100 kHz "
                         "at 4 Msps\nwimax_rx (solid, o) vs the same receiver given the true "
                         "timing, CFO and channel (dashed)%s"
                         % (ch, "\nand given the true timing and CFO only (dotted)"
                            if dotted else ""), fontsize=9)
        else:
            ax.set_title("802.11a, %s channel, 1000-octet frames, CFO within +-100 kHz\n"
                         "wifi_rx (solid, o) vs the same receiver given the true timing, CFO "
                         "and channel (dashed)" % ch, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, ncol=2)
        path = os.path.join(a.out, ("per_wimax_%s.png" if wimax else "per_%s.png") % ch)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        print("", file=sys.stderr)
        print("wrote " + path, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
