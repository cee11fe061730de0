#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Writes the seed corpus of the fuzz harnesses, fuzz/corpus/<harness>/, a few small
inputs each in the layout its harness reads (fuzz_input.h: little-endian fields, ranges
as 32-bit values): every mode of each harness once, so a short run starts from every path.
    fuzz/seed_corpus.py          (rewrites the files; deterministic)"""

import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def u8(v):
    return struct.pack("<B", v & 0xFF)


def u16(v):
    return struct.pack("<H", v & 0xFFFF)


def u32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


def f32(v):
    return struct.pack("<f", v)


def samples(rng, n, scale=1.0):
    return b"".join(f32(rng.gauss(0, scale)) + f32(rng.gauss(0, scale)) for _ in range(n))


def write(harness, name, data):
    folder = os.path.join(HERE, "corpus", harness)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    rng = random.Random(1)
    payload = bytes(rng.randrange(256) for _ in range(64))

    # wifi_rx: mode, then for a frame: rate, seed, corruptions, scale, lead, PSDU.
    for i, (mode, rate, corrupt) in enumerate([(0x02, 0, []), (0x23, 7, []), (0x06, 4, []),
                                               (0x0A, 2, []), (0x42, 5, [(400, 0), (900, 1)]),
                                               (0x12, 3, []), (0x32, 6, [(300, 3)])]):
        data = u8(mode) + u8(rate) + u32(92) + u32(len(corrupt))
        data += b"".join(u16(at) + u8(v) for at, v in corrupt)
        data += f32(100.0) + u32(37) + payload[:20 + 5 * i]
        write("wifi_rx", "frame%d" % i, data)
    write("wifi_rx", "noise", u8(0x00) + samples(rng, 256))

    # wimax_rx: mode (case in bits 4..5), seed, corruptions, scale, lead, burst.
    for i, mode in enumerate([0x01, 0x11, 0x23, 0x35, 0x09]):
        data = u8(mode) + u32(19071) + u32(1 if i == 2 else 0)
        data += (u16(700) + u8(2)) if i == 2 else b""
        data += f32(30.0) + u32(50) + payload
        write("wimax_rx", "burst%d" % i, data)
    write("wimax_rx", "noise", u8(0x00) + samples(rng, 512))

    # sync: mode (wifi, wimax at each CP, ofdm_sync), search_from, samples.
    for mode in (0, 1, 5, 9, 13, 2, 6):
        write("sync", "mode%d" % mode, u8(mode) + u16(mode * 10) + samples(rng, 300))

    # wifi_signal: SIGNAL bits (the Annex G SIGNAL: 36 Mb/s, 100 octets), points, frames,
    # decoded bits.
    write("wifi_signal", "bits", u8(0) + u32(0b000000000001001100100001 & 0xFFFFFF))
    write("wifi_signal", "points",
          u8(1) + b"".join(f32(rng.choice((-1.0, 1.0))) + f32(0.0) for _ in range(48)) +
          b"".join(f32(1.0) for _ in range(48)))
    for rate in range(8):
        write("wifi_signal", "frame%d" % rate,
              u8(2 | 0x20) + u8(rate) + u16(10 + rate) + bytes(range(48)) +
              samples(rng, 48 * 8))
    write("wifi_signal", "finish", u8(3) + u16(8) + bytes(rng.randrange(2) for _ in range(94)))

    # reed_solomon: mode (bit 0: any bytes; profile in bits 1..), then data.
    for profile in range(8):
        write("reed_solomon", "clean%d" % profile, u8(profile << 1) + payload + u32(2) +
              u8(3) + u8(0x55) + u8(17) + u8(0x0F))
        write("reed_solomon", "any%d" % profile, u8(1 | profile << 1) + payload * 4)

    # tx_pdu: mode, then a PMT description (type, length, value ...).
    write("tx_pdu", "pdu", u8(1) + u8(9) + u8(1) + u32(1) + u8(5) + u8(0) + u8(0) + u8(1) +
          u8(0) + u8(54) + bytes(7) + u8(7) + u8(1) + u32(12) + payload[:12])
    write("tx_pdu", "wimax", u8(3) + u8(7) + u8(1) + u32(40) + payload[:40])
    write("tx_pdu", "nested", u8(0) + u8(11) + u8(1) + u8(12) + u8(1) + u8(4) + u8(1) +
          u8(8) + u8(1) + u32(3) + f32(1.5))

    # params: stage selector, then its fields.
    for stage in range(23):
        write("params", "stage%d" % stage, u8(stage) + bytes(rng.randrange(256)
                                                             for _ in range(48)))


if __name__ == "__main__":
    main()
