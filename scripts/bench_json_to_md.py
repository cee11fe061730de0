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


def ber_table(rows):
    """--stages ber: one line per Eb/N0, one column per decoder: BER (errors / bits)."""
    impls = list(dict.fromkeys(r["impl"] for r in rows))
    points = sorted({r["ebn0_db"] for r in rows})
    cell = {(r["impl"], r["ebn0_db"]): r for r in rows}
    print("| Eb/N0 (dB) | " + " | ".join(impls) + " |")
    print("|---" * (len(impls) + 1) + "|")
    for x in points:
        cells = []
        for i in impls:
            r = cell.get((i, x))
            if r is None:
                cells.append("-")
                continue
            c = f"{r['ber']:.2e} ({r['bit_errors']} / {r['bits']})"
            if r.get("equals_cpu_twin") is not None:
                c += ", = cpu" if r["equals_cpu_twin"] else ", **differs from cpu**"
            if r.get("paired_z") is not None:
                c += f", z {r['paired_z']:+.1f}"
            if r.get("differing_bits") is not None:
                c += f", {r['differing_bits']} bits != reference"
            cells.append(c)
        print(f"| {x:.1f} | " + " | ".join(cells) + " |")


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
            if stage == "viterbi_ber":
                ber_table(rows)
            elif stage == "viterbi_ber_1e-5":
                print("| curve | Eb/N0 at BER 1e-5 (dB) | gap (dB) | to |")
                print("|---|---|---|---|")
                for r in rows:
                    x, g = (None if v is None else float(v) for v in (r["ebn0_db"], r["gap_db"]))
                    print(f"| {r['impl']} | {fmt(x, 2)} | {fmt(g, 2)} | "
                          f"{r['gap_to'] or '-'} |")
            elif ofdm:
                print("| impl | device | fft_len | cp | batch | Msps | PCIe GB/s | ms/batch "
                      "| ratio |")
                print("|---|---|---|---|---|---|---|---|---|")
                for r in rows:
                    print(f"| {r['impl']} | {r['device']} | {r['fft_len']} | {r['cp']} "
                          f"| {r['batch']} | {fmt(r['msps'])} | {fmt(r['pcie_gbps'], 2)} "
                          f"| {fmt(r['ms_per_batch'], 4)} | {fmt(r['ratio'], 2)} |")
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
