/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "wifi/wifi_rx_bits.h"

#include <array>

namespace gr::gpuofdm::core {

namespace {

std::array<uint32_t, 256> make_crc_table()
{
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        t[i] = c;
    }
    return t;
}

} // namespace

uint32_t crc32_ieee(const uint8_t* data, size_t n)
{
    static const std::array<uint32_t, 256> table = make_crc_table();
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = table[(c ^ data[i]) & 0xffu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
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
