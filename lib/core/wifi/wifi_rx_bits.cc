/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "wifi/wifi_rx_bits.h"

#include <algorithm>

#include <zlib.h>

namespace gr::gpuofdm::core {

uint32_t crc32_ieee(const uint8_t* data, size_t n)
{
    // zlib's CRC-32 is the IEEE 802.3 one (reflected 0x04C11DB7, initial value and final
    // XOR all ones) that 802.11 uses for its FCS; uInt may be narrower than size_t.
    uLong c = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        const uInt piece = uInt(std::min<size_t>(n, size_t(1) << 30));
        c = crc32(c, data, piece);
        data += piece;
        n -= piece;
    }
    return uint32_t(c);
}

bool wifi_fcs_ok(const uint8_t* psdu, size_t n)
{
    if (n < 4)
        return false;
    const uint32_t c = crc32_ieee(psdu, n - 4);
    const uint8_t* f = psdu + n - 4;
    return f[0] == (c & 0xffu) && f[1] == ((c >> 8) & 0xffu) && f[2] == ((c >> 16) & 0xffu) &&
           f[3] == (c >> 24);
}

unsigned wifi_scrambler_state_after_service(const uint8_t* scrambled)
{
    // Each step shifts the feedback bit (the output) into x1, so after 7 steps the first
    // output sits in x7 and the last in x1.
    unsigned reg = 0;
    for (int i = 0; i < 7; i++)
        reg = (reg << 1) | (scrambled[i] & 1u);
    return reg;
}

unsigned wifi_scrambler_seed_from_service(const uint8_t* scrambled)
{
    unsigned reg = wifi_scrambler_state_after_service(scrambled);
    if (reg == 0)
        return 0;
    // One step back: the new x1 was x7 ^ x4 of the old register, whose x1..x6 are the new
    // x2..x7; so old x7 = new x1 ^ old x4 = new x1 ^ new x5.
    for (int i = 0; i < 7; i++)
        reg = (reg >> 1) | (((reg ^ (reg >> 4)) & 1u) << 6);
    return reg;
}

} // namespace gr::gpuofdm::core
