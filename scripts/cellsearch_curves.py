#!/usr/bin/python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Detection curves and threshold calibration of the cell search, from the JSON of
gpuofdm_cellsearch_pd.

Inputs: --scan FILE ... : runs with --scan (one sync period, every detection's PSS and SSS
metric kept, noise-only windows included); --combined FILE ... : runs at fixed thresholds
(e.g. --periods 4, or 5GTF's --combine-symbols), plotted as they are.

Calibration: a noise-only window (one sync period of timings at one raster candidate: NR
20 ms, LTE and 5GTF 5 ms) raises a false alarm when one of its PSS peaks passes the PSS
threshold Tp and the SSS metric at that peak passes Ts. The SSS at a noise peak is
independent of the PSS value (other samples), so the false-alarm probability per window
is estimated as

    Pfa(Tp, Ts) = (PSS peaks >= Tp per window) x P(SSS >= Ts at a noise peak),

both counted in the noise windows (and the windows with a detection counted directly as
a check). Among the (Tp, Ts) whose Pfa is at most --target in every standard, the pair
with the highest mean Pd at --at-db over the standards and channels of the scan runs is
chosen (Pd counted from the same detections at those thresholds).

Writes docs/cellsearch_pd.png (Pd vs SNR), docs/cellsearch_pfa.png (false alarms against
the thresholds) and docs/cellsearch_curves.json (the numbers) with matplotlib, or,
without matplotlib, says so and writes the JSON only.

Run: /usr/bin/python3 scripts/cellsearch_curves.py --scan scan_nr.json scan_lte.json
     scan_5gtf.json [--combined periods4.json] [--target 1e-5] [--at-db -6]"""

import argparse
import json
import os
import sys
from collections import defaultdict

import numpy as np

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")


def load(paths):
    """The runs' standards, those of one standard, period count and symbol combining
    merged (curves from one run and noise windows from another)."""
    out = {}
    for p in paths:
        with open(p) as f:
            run = json.load(f)
        for std in run["standards"]:
            std["periods"] = run["periods"]
            std["combine_symbols"] = run.get("combine_symbols", False)
            std["curves"] = [c for c in std["curves"] if c["points"][0]["trials"] > 0]
            key = (std["standard"], std["periods"], std["combine_symbols"])
            if key not in out:
                out[key] = std
                continue
            out[key]["curves"] += std["curves"]
            if "noise" not in std:
                continue
            if "noise" not in out[key]:
                out[key]["noise"] = std["noise"]
                continue
            # Noise windows of runs with other seeds: numbered on after the ones held.
            held = out[key]["noise"]
            if "detections" in held:  # --scan runs keep every noise detection
                held["detections"] += [[w + held["windows"]] + rest
                                       for w, *rest in std["noise"]["detections"]]
            for k in ("windows", "false_windows", "false_detections"):
                held[k] += std["noise"][k]
    return list(out.values())


def pd_where(point, passes):
    """Fraction of trials whose strongest detection (PSS metric) among those for which
    passes(pss, sss, *rest) holds is right (rest: NR's DM-RS metric in scans since
    5f5cf02)."""
    best = {}
    for t, p, s, ok, *rest in point["detections"]:
        if passes(p, s, *rest) and (t not in best or p > best[t][0]):
            best[t] = (p, ok)
    return sum(1 for p, ok in best.values() if ok) / point["trials"]


def pd_at(point, tp, ts):
    """Fraction of trials whose strongest detection passing (tp, ts) is right."""
    return pd_where(point, lambda p, s, *_: p >= tp and s >= ts)


def noise_stats(std):
    noise = std["noise"]
    windows = noise["windows"]
    det = np.array([d[:3] for d in noise["detections"]], float).reshape(-1, 3)
    return windows, det


def tail(values, total, t, min_count=20):
    """P(value >= t) over total draws: counted where at least min_count values pass,
    beyond that the exponential tail fitted to the counted part (slope and level by least
    squares on log counts; the metrics are exponential in noise), extrapolated.
    Returns (probability, fitted slope or None)."""
    values = np.sort(np.asarray(values, float))
    count = len(values) - np.searchsorted(values, t)
    if count >= min_count or len(values) < min_count:
        return count / total, None
    # The fit: log P(value >= x) at the points of the counted range's upper half.
    counted = values[:len(values) - min_count + 1]
    xs = np.linspace(counted[len(counted) // 2], counted[-1], 12)
    ps = np.array([(len(values) - np.searchsorted(values, x)) / total for x in xs])
    slope, level = np.polyfit(xs, np.log(ps), 1)
    return float(np.exp(level + slope * t)), float(-slope)


def pfa_estimate(windows, det, tp, ts):
    """(false alarms per window, noise windows with a detection counted)."""
    if len(det) == 0:
        return 0.0, 0
    rate, _ = tail(det[:, 1], windows, tp)
    q, _ = tail(det[:, 2], len(det), ts)
    hit = det[(det[:, 1] >= tp) & (det[:, 2] >= ts)]
    return rate * q, len(np.unique(hit[:, 0]))


def noise_and_points(scans, noise, at_db):
    """For each scan with noise detections: (scan, noise windows, their detections, the
    probability that the SSS at a noise peak passes a level (vectorized; counted, past the
    counts its fitted exponential tail), the (channel, point) pairs at at_db)."""
    grid = np.arange(0.0, 60.0, 0.05)
    for st in scans:
        w, d = noise[st["standard"]]
        if len(d) == 0:
            continue
        q = np.array([tail(d[:, 2], len(d), y)[0] for y in grid])
        points = [(c["channel"], pt) for c in st["curves"] for pt in c["points"]
                  if abs(pt["snr_db"] - at_db) < 1e-9]
        yield st, w, d, lambda level, q=q: np.interp(level, grid, q), points


def sum_rule_study(scans, noise, target, at_db, floors=(4, 6, 8, 10, 12), ratio=0.3):
    """A decision on PSS + SSS instead of each on its own threshold: a candidate passes when
    its PSS metric is >= tp, its SSS >= max(floor, ratio x PSS) (a cell's SSS carries as
    much energy as its PSS: a strong PSS with a noise-like SSS is a strong cell seen
    elsewhere) and PSS + SSS >= the sum's threshold, which is placed per standard so that
    noise passes at most `target` times a window: the sum over the noise windows' PSS peaks
    of P(SSS >= what the peak needs), the SSS's law at a noise peak taken from all of them
    (counted, past the counts its fitted exponential tail). Prints, for each PSS
    pre-threshold, the floor with the highest mean Pd at at_db and that Pd per channel."""
    for st, w, d, pass_p, points in noise_and_points(scans, noise, at_db):
        print("%s, PSS + SSS decision (SSS >= %.1f x PSS too), false alarms <= %g a window:"
              % (st["standard"], ratio, target))
        for tp in np.arange(12.0, 16.01, 1.0):
            peaks = d[d[:, 1] >= tp, 1]

            def pfa(floor, total):
                need = np.maximum(np.maximum(floor, ratio * peaks), total - peaks)
                return float(np.sum(pass_p(need))) / w

            best = None
            for floor in floors:
                lo, hi = tp + floor, 80.0
                for _ in range(40):
                    mid = (lo + hi) / 2
                    lo, hi = (mid, hi) if pfa(floor, mid) > target else (lo, mid)
                total = hi
                pds = [(ch, pd_where(pt, lambda p, s, *_: p >= tp and s >= max(floor, ratio * p)
                                     and p + s >= total)) for ch, pt in points]
                score = float(np.mean([v for _, v in pds])) if pds else 0
                if best is None or score > best[0]:
                    best = (score, floor, total, pds)
            score, floor, total, pds = best
            print("  PSS >= %4.1f (%.2f noise peaks a window): SSS floor %4.1f, sum >= %.2f;"
                  " Pd at %g dB: %s" % (tp, len(peaks) / w, floor, total, at_db,
                                        ", ".join("%s %.3f" % v for v in pds)))


def staircase_study(scans, noise, at_db, tp=16.0, ts=14.75, rises=(1, 1.5, 2, 2.5, 3),
                    max_steps=4):
    """One period's staircase (cell_search_params::pss_steps): a candidate passes on the pair
    (tp, ts) or on step j (1..n), PSS >= tp - j and SSS >= ts + r j. Prints for each n and r
    the false alarms a window (the sum over the noise windows' PSS peaks of P(SSS >= the
    lowest level a step the peak passes asks), the SSS's law at a noise peak counted, past
    the counts its fitted tail), the noise peaks a window read (PSS >= tp - n), the noise
    windows with a detection counted, and Pd at at_db per channel."""
    for st, w, d, pass_p, points in noise_and_points(scans, noise, at_db):
        print("%s, one period, %d noise windows, staircase below PSS %.2f / SSS %.2f:"
              % (st["standard"], w, tp, ts))
        for n in range(0, max_steps + 1):
            for r in (rises if n > 0 else rises[:1]):
                levels = [(tp - j, ts + r * j) for j in range(n + 1)]

                def need(p):
                    return min((b for a, b in levels if p >= a), default=np.inf)

                def passes(p, s, *_):
                    return any(p >= a and s >= b for a, b in levels)

                peaks = d[d[:, 1] >= tp - n]
                needs = np.array([need(p) for p in peaks[:, 1]])
                pfa = float(np.sum(pass_p(needs))) / w
                hit = [row for row in peaks if passes(row[1], row[2])]
                windows_hit = len({int(row[0]) for row in hit})
                pds = ", ".join("%s %.3f" % (ch, pd_where(pt, passes)) for ch, pt in points)
                print("  %d steps of %.1f: %.2e false alarms a window (%d windows hit), "
                      "%.2f noise peaks read a window; Pd at %g dB: %s"
                      % (n, r, pfa, windows_hit, len(peaks) / w, at_db, pds))


def dmrs_study(scans, noise, at_db, tp=16.0, ts=14.75, rise=2.0, reliefs=(4, 5, 6, 8),
               confirms=(1e-3, 3e-4, 1e-4), floors=(0.0, 1.0, 2.3), steps=(0, 4)):
    """NR: an SSS up to `relief` under its level passes where the PBCH DM-RS of its cell
    confirms it (its metric, -ln of noise's probability, >= -ln(confirm)); one at its level
    needs a DM-RS metric >= floor; with one period's staircase of n steps (rise r) or
    none. Prints how often noise's DM-RS passes each level (counted, against the nominal),
    then for each rule the false alarms a window (the sum over the noise windows' PSS peaks
    of P(SSS >= the level) x P(noise's DM-RS >= floor, counted) + P(level - relief <= SSS
    < level) x confirm) and Pd at at_db per channel. Needs scans made since 5f5cf02
    (their rows carry the DM-RS metric)."""
    for st, w, d, pass_p, points in noise_and_points(scans, noise, at_db):
        rows = [r for r in st["noise"]["detections"] if len(r) >= 4 and r[3] >= 0]
        if not rows:
            continue
        dm = np.array([r[3] for r in rows], float)
        print("%s, one period, %d noise windows; noise's DM-RS at its %d PSS peaks:"
              % (st["standard"], w, len(dm)))
        for c in confirms + (0.1, np.exp(-1)):
            print("  metric >= %.2f: %.2e of them (nominal %.3g)"
                  % (-np.log(c), np.mean(dm >= -np.log(c)), c))
        for n in steps:
            levels = [(tp - j, ts + rise * j) for j in range(n + 1)]
            peaks = d[d[:, 1] >= tp - n]
            need = np.full(len(peaks), np.inf)
            for a, b in reversed(levels):
                need = np.where(peaks[:, 1] >= a, b, need)
            rules = [(0.0, confirms[0], 0.0)]
            rules += [(r, c, f) for r in reliefs for c in confirms for f in floors]
            for relief, c, floor in rules:
                pfa = float(np.sum(pass_p(need) * np.mean(dm >= floor) +
                                   (pass_p(need - relief) - pass_p(need)) * c)) / w

                def passes(p, s, dmrs=-1.0, *_):
                    level = min((b for a, b in levels if p >= a), default=np.inf)
                    return ((s >= level and dmrs >= floor) or
                            (s >= level - relief and dmrs >= -np.log(c)))
                pds = ", ".join("%s %.3f" % (ch, pd_where(pt, passes)) for ch, pt in points)
                print("  %d steps, relief %4.1f, confirm %g, floor %.1f: %.2e false alarms a "
                      "window; Pd at %g dB: %s" % (n, relief, c, floor, pfa, at_db, pds))


def draw_pd(plt, result, order, tp, ts, at_db):
    """docs/cellsearch_pd.png: Pd against SNR, one panel a standard."""
    names = {"nr": "5G NR (SSB 30 kHz)", "lte": "LTE", "5gtf": "Verizon 5GTF"}
    fig, axes = plt.subplots(1, len(order), figsize=(4.2 * len(order), 4), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, std in zip(axes, order):
        # The standard's own SSS threshold (LTE's differs since 8cc51ed), where its
        # one-period entry records it.
        own_ts = ts
        for entry in result["standards"]:
            if entry["standard"] != std:
                continue
            symbols = entry.get("combine_symbols", False)
            if entry["periods"] == 1 and not symbols and "sss_threshold" in entry:
                own_ts = entry["sss_threshold"]
            for ch, cv in entry["curves"].items():
                style = "-" if ch == "awgn" else "--"
                mark = ("^" if symbols else "o") if entry["periods"] == 1 else (
                    "v" if symbols else "s")
                plural = "" if entry["periods"] == 1 else "s"
                ax.plot(cv["snr_db"], cv["pd"], mark + style, ms=4,
                        label="%s, %d period%s%s" % (ch, entry["periods"], plural,
                                                     ", 14 symbols" if symbols else ""))
        ax.axhline(0.99, color="gray", ls=":", lw=1)
        ax.axvline(at_db, color="gray", ls=":", lw=1)
        ax.set_title("%s, SSS threshold %.2f" % (names.get(std, std), own_ts))
        ax.set_xlabel("SNR over the sync signal's band (dB)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    axes[0].set_ylabel("P(strongest detection = right cell ID and timing)")
    fig.suptitle("Cell search, one raster candidate: random ID, timing, CFO over the search "
                 "range, 20 ppm SRO; PSS threshold %.2f" % tp, fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "cellsearch_pd.png"), dpi=100)


def combined_entry(s):
    """A run at fixed thresholds as cellsearch_curves.json holds it: Pd per channel and SNR,
    the points of runs with other seeds or SNRs pooled."""
    entry = {"standard": s["standard"], "window_s": s["window_s"],
             "pss_threshold": s["pss_threshold"], "sss_threshold": s["sss_threshold"],
             "periods": s["periods"], "combine_symbols": s["combine_symbols"],
             "curves": {}}
    if "noise" in s:
        entry["noise_windows"] = s["noise"]["windows"]
        entry["noise_windows_with_detection"] = s["noise"]["false_windows"]
    pooled = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for c in s["curves"]:
        for pt in c["points"]:
            tally = pooled[c["channel"]][pt["snr_db"]]
            tally[0] += pt["success"]
            tally[1] += pt["trials"]
    for ch, points in pooled.items():
        snrs = sorted(points)
        entry["curves"][ch] = {"snr_db": snrs,
                               "pd": [points[v][0] / points[v][1] for v in snrs],
                               "trials": [points[v][1] for v in snrs]}
    return entry


def pyplot_or_none():
    """matplotlib's pyplot on the Agg backend, or None with a note when it is missing (the
    JSON has been written by then)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no PNG written (apt install python3-matplotlib); "
              "the numbers are in docs/cellsearch_curves.json", file=sys.stderr)
        return None
    return plt


def update_combined(paths, at_db):
    """Replaces the entries of docs/cellsearch_curves.json that runs at fixed thresholds
    give anew (same standard, periods and symbol combining), keeps the rest, and redraws
    docs/cellsearch_pd.png: for a change that moves only those curves."""
    path = os.path.join(DOCS, "cellsearch_curves.json")
    with open(path) as f:
        result = json.load(f)
    fresh = [combined_entry(s) for s in load(paths)]

    def key(e):
        return (e["standard"], e["periods"], e.get("combine_symbols", False))
    keys = {key(e) for e in fresh}
    result["standards"] = [e for e in result["standards"] if key(e) not in keys] + fresh
    with open(path, "w") as f:
        json.dump(result, f, indent=1)
    for e in fresh:
        print("%-5s %d period(s)%s: " % (e["standard"], e["periods"],
                                         ", 14 symbols" if e["combine_symbols"] else "") +
              "; ".join("%s %s" % (ch, " ".join("%g:%.3f" % v for v in zip(cv["snr_db"], cv["pd"])))
                        for ch, cv in e["curves"].items()))
    plt = pyplot_or_none()
    if plt is None:
        return
    order = [e["standard"] for e in result["standards"]
             if e["periods"] == 1 and not e.get("combine_symbols", False)]
    draw_pd(plt, result, order, result["pss_threshold"], result["sss_threshold"], at_db)
    print("wrote docs/cellsearch_pd.png, docs/cellsearch_curves.json")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scan", nargs="+")
    ap.add_argument("--combined", nargs="*", default=[])
    ap.add_argument("--target", type=float, default=1e-5,
                    help="false-alarm probability per noise window (1e-5)")
    ap.add_argument("--at-db", type=float, default=-6)
    ap.add_argument("--thresholds", default="",
                    help="TP,TS: draw the curves at these (e.g. the defaults), not the pair found")
    ap.add_argument("--compare", default="",
                    help="TP,TS: also print false alarms and Pd at these thresholds")
    ap.add_argument("--peaks", type=float, default=1.0,
                    help="noise PSS peaks per window passing the PSS threshold, at most (1)")
    ap.add_argument("--sum-rule", action="store_true",
                    help="print what a decision on PSS + SSS would detect at the same false-"
                         "alarm rate (sum_rule_study()), then stop")
    ap.add_argument("--staircase", action="store_true",
                    help="print false alarms and Pd of one period's staircases of levels "
                         "(staircase_study()), then stop")
    ap.add_argument("--dmrs", action="store_true",
                    help="print false alarms and Pd of NR's SSS confirmed by the PBCH DM-RS "
                         "(dmrs_study()), then stop")
    ap.add_argument("--update-combined", nargs="+", metavar="RUN",
                    help="only replace the fixed-threshold curves these runs give in "
                         "docs/cellsearch_curves.json and redraw the Pd figure "
                         "(update_combined()); no --scan needed")
    args = ap.parse_args()
    if args.update_combined:
        update_combined(args.update_combined, args.at_db)
        return
    if not args.scan:
        ap.error("--scan is required (or --update-combined)")
    scans = load(args.scan)
    combined = load(args.combined)
    if args.staircase:
        staircase_study(scans, {s["standard"]: noise_stats(s) for s in scans}, args.at_db)
        return
    if args.dmrs:
        dmrs_study(scans, {s["standard"]: noise_stats(s) for s in scans}, args.at_db)
        return
    if args.sum_rule:
        sum_rule_study(scans, {s["standard"]: noise_stats(s) for s in scans}, args.target,
                       args.at_db)
        return

    scan_floor = 12.0
    tps = np.arange(scan_floor, 30.01, 0.25)
    tss = np.arange(6.0, 30.01, 0.25)
    noise = {s["standard"]: noise_stats(s) for s in scans}
    # The least Ts for each Tp that meets the target in every standard; Tp high enough that
    # noise gives the SSS stage (on the host) at most --peaks PSS peaks per window.
    feasible = []
    for tp in tps:
        if any(tail(d[:, 1], w, tp)[0] > args.peaks for w, d in noise.values()):
            continue
        for ts in tss:
            if all(pfa_estimate(w, d, tp, ts)[0] <= args.target for w, d in noise.values()):
                feasible.append((float(tp), float(ts)))
                break
    best, best_score = None, -1
    for tp, ts in feasible:
        scores = [pd_at(pt, tp, ts) for s in scans for c in s["curves"] for pt in c["points"]
                  if abs(pt["snr_db"] - args.at_db) < 1e-9]
        score = float(np.mean(scores)) if scores else 0
        if score > best_score:
            best, best_score = (tp, ts), score
    tp, ts = best
    print("thresholds: PSS %.2f SSS %.2f (false alarms per window <= %g in every standard; "
          "mean Pd %.4f at %g dB)" % (tp, ts, args.target, best_score, args.at_db))
    if args.thresholds:
        tp, ts = (float(v) for v in args.thresholds.split(","))
        print("curves at the thresholds given: PSS %g SSS %g" % (tp, ts))

    if args.compare:
        ctp, cts = (float(v) for v in args.compare.split(","))
        for st in scans:
            w, d = noise[st["standard"]]
            pds = ["%s %.3f" % (c["channel"], pd_at(pt, ctp, cts)) for c in st["curves"]
                   for pt in c["points"] if abs(pt["snr_db"] - args.at_db) < 1e-9]
            print("at PSS %g SSS %g: %-5s Pfa estimate %.2e per window; Pd at %g dB: %s" % (
                ctp, cts, st["standard"], pfa_estimate(w, d, ctp, cts)[0], args.at_db,
                ", ".join(pds)))
    result = {"target_pfa_per_window": args.target, "pss_threshold": tp, "sss_threshold": ts,
              "standards": []}
    for s in scans:
        w, d = noise[s["standard"]]
        est, hit = pfa_estimate(w, d, tp, ts)
        entry = {"standard": s["standard"], "window_s": s["window_s"], "noise_windows": w,
                 "pfa_estimate": est, "noise_windows_with_detection": hit,
                 "periods": 1, "curves": {}}
        for c in s["curves"]:
            entry["curves"][c["channel"]] = {
                "snr_db": [pt["snr_db"] for pt in c["points"]],
                "pd": [pd_at(pt, tp, ts) for pt in c["points"]],
                "trials": c["points"][0]["trials"]}
        entry["pss_peaks_per_window"] = tail(d[:, 1], w, tp)[0]
        entry["pss_tail_slope"] = tail(d[:, 1], w, 100)[1]
        entry["sss_tail_slope"] = tail(d[:, 2], len(d), 100)[1]
        print("%-5s Pfa estimate %.2e per %.0f ms window, %d of %d noise windows with a "
              "detection; %.3f PSS peaks per window; fitted tail slopes PSS %.2f SSS %.2f "
              "(exponential: 1)" % (s["standard"], est, s["window_s"] * 1e3, hit, w,
                                    entry["pss_peaks_per_window"], entry["pss_tail_slope"],
                                    entry["sss_tail_slope"]))
        for ch, cv in entry["curves"].items():
            print("      %-9s " % ch + " ".join("%5.1f:%.3f" % v
                                                for v in zip(cv["snr_db"], cv["pd"])))
        result["standards"].append(entry)
    result["standards"] += [combined_entry(s) for s in combined]
    with open(os.path.join(DOCS, "cellsearch_curves.json"), "w") as f:
        json.dump(result, f, indent=1)

    plt = pyplot_or_none()
    if plt is None:
        return
    draw_pd(plt, result, [s["standard"] for s in scans], tp, ts, args.at_db)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    grid = np.arange(scan_floor, 30.01, 0.25)
    for std in (s["standard"] for s in scans):
        w, d = noise[std]
        peaks = [np.count_nonzero(d[:, 1] >= t) / w for t in grid]
        joint = [pfa_estimate(w, d, t, ts)[0] for t in grid]
        line, = ax.semilogy(grid, peaks, "-", label="%s: PSS peaks per window (%d windows)"
                            % (std, w))
        ax.semilogy(grid, joint, "--", color=line.get_color(),
                    label="%s: Pfa with SSS >= %.2f" % (std, ts))
    ax.axhline(args.target, color="gray", ls=":", label="target %g" % args.target)
    ax.axvline(tp, color="k", ls=":", lw=1)
    ax.set_xlabel("PSS threshold (metric: mean 1 in noise)")
    ax.set_ylabel("per noise-only window")
    ax.set_ylim(1e-9, 1e2)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("Noise only, one sync period a window: counted (solid), and the false-alarm "
                 "estimate (dashed)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "cellsearch_pfa.png"), dpi=100)
    print("wrote docs/cellsearch_pd.png, docs/cellsearch_pfa.png, docs/cellsearch_curves.json")


if __name__ == "__main__":
    main()
