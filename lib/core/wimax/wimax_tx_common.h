/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIMAX_TX_COMMON_H
#define GPUOFDM_CORE_WIMAX_TX_COMMON_H

// What the 802.16 transmitter's CPU twin (g++) and CUDA kernels (nvcc) share, written once
// (private to the core): the burst's source bits, the pilot polarity, the non-data bins
// and the per-burst layout.

#include "runtime/host_device.h"
#include "fec/reed_solomon_common.h"

#include <cstdint>

namespace gr::gpuofdm::core {

//! PRBS period of the pilot sequence X^11 + X^9 + 1 (8.3.3.4.2).
constexpr unsigned wimax_pilot_period = 2047;
//! Bins without data in a symbol: 8 pilots, DC, 55 guards.
constexpr unsigned wimax_nondata = 64;

/*!
 * \brief Byte j of a burst of \p total = blocks x K bytes before randomization: the data,
 * then 0xFF padding (8.3.3.1), and the last byte is the 0x00 tail (8.3.3.2).
 */
GPUOFDM_HD inline uint8_t wimax_source_byte(const uint8_t* data,
                                            unsigned long long len,
                                            unsigned long long total,
                                            unsigned long long j)
{
    if (j < len)
        return data[j];
    return j + 1 < total ? uint8_t(0xFF) : uint8_t(0x00);
}

//! Bit i of that stream, each byte MSB first.
GPUOFDM_HD inline uint8_t wimax_source_bit(const uint8_t* data,
                                           unsigned long long len,
                                           unsigned long long total,
                                           unsigned long long i)
{
    return uint8_t((wimax_source_byte(data, len, total, i >> 3) >> (7u - unsigned(i & 7u))) & 1u);
}

/*!
 * \brief Pilot i (0..7: subcarriers -88, -63, -38, -13, 13, 38, 63, 88) for PRBS bit w
 * (8.3.3.4.2): 1 - 2 w, or 1 - 2 (1 - w) on -63, -13 and (downlink only) 13, 38.
 */
GPUOFDM_HD inline float wimax_pilot_from_w(unsigned i, unsigned w, bool uplink)
{
    const bool inverted = i == 1 || i == 3 || (!uplink && (i == 4 || i == 5));
    const unsigned b = inverted ? 1u - w : w;
    return b ? -1.0f : 1.0f;
}

/*!
 * \brief Bin of non-data entry e (0..63) of a symbol, in the order the pilot kernel writes
 * them: the 8 pilots (-88 .. 88), DC, the lower guards -128..-101 (bins 128..155), the
 * upper guards 101..127 (bins 101..127).
 */
GPUOFDM_HD inline unsigned wimax_nondata_bin(unsigned e)
{
    if (e < 8) {
        const int pilots[8] = { -88, -63, -38, -13, 13, 38, 63, 88 };
        return unsigned((pilots[e] + 256) % 256);
    }
    if (e == 8)
        return 0;
    if (e < 8 + 1 + 28)
        return 128 + (e - 9);
    return 101 + (e - 37);
}

/*!
 * \brief Device-side description of one burst of a batch (also built on the host).
 * Offsets count from the start of the batch's buffers.
 */
struct wimax_burst_desc {
    unsigned long long data_offset;   //!< first data octet in the staged octets
    unsigned long long src_offset;    //!< first source bit (blocks x K x 8 bits)
    unsigned long long rs_offset;     //!< first RS-encoded bit (blocks x N x 8 bits)
    unsigned long long symbol_offset; //!< first data symbol
    unsigned long long sample_offset; //!< first output sample (preamble included)
    unsigned int len;                 //!< data octets
    unsigned int n_blocks;            //!< RS-CC blocks = OFDM data symbols
    rs_code code;                     //!< the profile's RS code
};

} // namespace gr::gpuofdm::core

#endif
