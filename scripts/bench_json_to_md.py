#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Turns gpuofdm_bench JSON files into the Markdown tables of docs/BENCHMARKS.md.

    scripts/bench_json_to_md.py bench.json [more.json ...] > tables.md
"""
import json
import sys


def fmt(v, digits=1):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def main(paths):
    for path in paths:
        with open(path) as f:
            d = json.load(f)
        print(f"Run of {d['date']}: {d['gpu'] or 'no GPU'}, {d['cpu_threads']} CPU threads, "
              f"GNU Radio {d['gnuradio']} (`{path}`)\n")
        groups = {}
        for r in d["rows"]:
            groups.setdefault((r["level"], r["stage"]), []).append(r)
        for (level, stage), rows in groups.items():
            ofdm = stage.startswith("ofdm")
            print(f"**{level}, {stage}**\n")
            if ofdm:
                print("| impl | device | fft_len | cp | batch | Msps | PCIe GB/s | ms/batch | ratio |")
                print("|---|---|---|---|---|---|---|---|---|")
                for r in rows:
                    print(f"| {r['impl']} | {r['device']} | {r['fft_len']} | {r['cp']} | {r['batch']} | "
                          f"{fmt(r['msps'])} | {fmt(r['pcie_gbps'], 2)} | {fmt(r['ms_per_batch'], 4)} | "
                          f"{fmt(r['ratio'], 2)} |")
            else:
                print("| impl | device | config | batch | Mbit/s | frames/s | ms/batch | ratio |")
                print("|---|---|---|---|---|---|---|---|")
                for r in rows:
                    print(f"| {r['impl']} | {r['device']} | {r.get('config', '')} | {r['batch']} | "
                          f"{fmt(r.get('mbit_s'))} | {fmt(r.get('frames_s'), 0)} | "
                          f"{fmt(r['ms_per_batch'], 4)} | {fmt(r['ratio'], 2)} |")
            print()
        for n in d.get("notes", []):
            print(f"- note: {n}")
        print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
