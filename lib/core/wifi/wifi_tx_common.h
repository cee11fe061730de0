/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_TX_COMMON_H
#define GPUOFDM_CORE_WIFI_TX_COMMON_H

// What the 802.11a transmitter's CPU twin (g++) and CUDA kernels (nvcc) share, written
// once (private to the core): the bits of SIGNAL and DATA, the subcarrier map, the pilot
// polarity and the per-frame layout.

#include "runtime/bit_stage.h"

#include <cstdint>

namespace gr::gpuofdm::core {

//! Bits of the SIGNAL field (17.3.4) and of SERVICE (17.3.5.1).
constexpr unsigned wifi_signal_bits = 24;
constexpr unsigned wifi_service_bits = 16;
constexpr unsigned wifi_tail_bits = 6;
constexpr unsigned wifi_data_carriers = 48;

/*!
 * \brief Bit b (0..23) of the SIGNAL field, in transmit order: RATE R1..R4, reserved 0,
 * LENGTH LSB first (12 bits), even parity over bits 0..16, six zero tail bits (17.3.4,
 * Figure 17-5).
 */
GPUOFDM_HD inline uint8_t wifi_signal_bit(unsigned rate_bits, unsigned length, unsigned b)
{
    if (b < 4)
        return uint8_t((rate_bits >> (3 - b)) & 1u);
    if (b == 4)
        return 0;
    if (b < 17)
        return uint8_t((length >> (b - 5)) & 1u);
    if (b == 17) {
        unsigned v = (rate_bits & 0xFu) ^ ((length & 0xFFFu) << 4);
        unsigned p = 0;
        for (unsigned i = 0; i < 16; i++)
            p ^= (v >> i) & 1u;
        return uint8_t(p);
    }
    return 0;
}

/*!
 * \brief Bit d of the DATA field before scrambling (17.3.5.2): 16 SERVICE zeros, the PSDU
 * octets LSB first, then zeros (tail and pad).
 */
GPUOFDM_HD inline uint8_t wifi_data_bit(const uint8_t* psdu,
                                        unsigned long long len,
                                        unsigned long long d)
{
    if (d < wifi_service_bits)
        return 0;
    const unsigned long long p = d - wifi_service_bits;
    if (p >= 8 * len)
        return 0;
    return uint8_t((psdu[p >> 3] >> (p & 7u)) & 1u);
}

//! The subcarrier -26..26 of data index k = 0..47 (17.3.5.9, M(k)).
GPUOFDM_HD inline int wifi_data_subcarrier(unsigned k)
{
    if (k <= 4)
        return int(k) - 26;
    if (k <= 17)
        return int(k) - 25;
    if (k <= 23)
        return int(k) - 24;
    if (k <= 29)
        return int(k) - 23;
    if (k <= 42)
        return int(k) - 22;
    return int(k) - 21;
}

//! IFFT bin (DC first, -k in 64 - k) of subcarrier c.
GPUOFDM_HD inline unsigned wifi_bin(int c) { return unsigned((c + 64) % 64); }

/*!
 * \brief The 16 bins that carry no data, in the order the pilot kernel writes them:
 * pilots at subcarriers -21, -7, 7, 21 first, then DC and the 11 guards (-32..-27,
 * 27..31). Returns the bin of entry i (0..15).
 */
GPUOFDM_HD inline unsigned wifi_nondata_bin(unsigned i)
{
    if (i < 4) {
        const int pilots[4] = { -21, -7, 7, 21 };
        return wifi_bin(pilots[i]);
    }
    if (i == 4)
        return 0;
    // 5..10: bins 32..37 (-32..-27); 11..15: bins 27..31.
    return i <= 10 ? 32 + (i - 5) : 27 + (i - 11);
}

/*!
 * \brief The value of non-data entry i (wifi_nondata_bin) in OFDM symbol j of a frame
 * (j = 0 SIGNAL, j = k + 1 DATA symbol k): pilots (1, 1, 1, -1) p_j (17.3.5.9), else 0.
 */
GPUOFDM_HD inline float wifi_nondata_value(unsigned i, unsigned long long j)
{
    if (i >= 4)
        return 0.0f;
    // p_0..p_126 of Equation 17-25 as bits (1 means -1), p_n in bit n: the scrambler's
    // sequence from the all-ones state (17.3.5.9).
    const unsigned long long lo = 0x306d746440934f70ull, hi = 0x7f1d8a5f542de72bull;
    const unsigned n = unsigned(j % 127);
    const unsigned bit = unsigned(n < 64 ? (lo >> n) & 1u : (hi >> (n - 64)) & 1u);
    const float p = bit ? -1.0f : 1.0f;
    return i == 3 ? -p : p;
}

/*!
 * \brief Device-side description of one frame of a batch (also built on the host).
 * Offsets count from the start of the batch's buffers.
 */
struct wifi_frame_desc {
    unsigned long long psdu_offset;   //!< first PSDU octet in the staged octets
    unsigned long long bit_offset;    //!< SIGNAL's 24 bits, then the DATA bits
    unsigned long long coded_offset;  //!< SIGNAL's 48 coded bits, then DATA's
    unsigned long long symbol_offset; //!< the SIGNAL symbol; DATA symbols follow
    unsigned long long sample_offset; //!< first output sample of the frame
    unsigned int len;                 //!< PSDU octets
    unsigned int n_sym;               //!< DATA symbols
    unsigned int n_dbps;
    unsigned int rate_bits;
};

} // namespace gr::gpuofdm::core

#endif
