/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CONSTELLATION_H
#define GPUOFDM_CORE_CONSTELLATION_H

// The Gray-mapped constellations of 802.11a 17.3.5.7 (Tables 17-8 .. 17-11, Figure 17-10),
// written once for the mapper's CPU twin and kernel and for the soft demapper.
//
// Labelling: the N_BPSC bits b0 b1 ... of a subcarrier, b0 first in time. BPSK puts b0 on
// I; the other modulations put the first half (b0, b0b1, b0b1b2) on I and the second half
// on Q, each half a Gray-coded PAM level: 1 bit 0 -> -1, 1 -> +1; 2 bits 00 -> -3,
// 01 -> -1, 11 -> +1, 10 -> +3; 3 bits 000 -> -7, 001 -> -5, 011 -> -3, 010 -> -1,
// 110 -> +1, 111 -> +3, 101 -> +5, 100 -> +7. The point is K_MOD (I + jQ) with
// K_MOD = 1, 1/sqrt(2), 1/sqrt(10), 1/sqrt(42) (Table 17-7), unit average power.
//
// 802.16-2004 (8.3.3.4.1, Figure 203) uses Gray BPSK/QPSK/16-QAM/64-QAM with the same
// normalisation (c = 1/sqrt(2), 1/sqrt(10), 1/sqrt(42)) and the same split (first half of
// the bits on I, second half on Q), but the opposite labels: on each axis the first bit is
// the sign with 0 -> positive, i.e. the 802.11a level of the COMPLEMENTED bits. Per axis:
// 1 bit 0 -> +1, 1 -> -1; 2 bits 00 -> +1, 01 -> +3, 10 -> -1, 11 -> -3; 3 bits
// 000 -> +3, 001 -> +1, 010 -> +5, 011 -> +7, 100 -> -3, 101 -> -1, 110 -> -5, 111 -> -7.
// Sources (Figure 203 itself was not at hand): first transcribed from the open 802.16d
// OFDM-256 model github.com/phthinh/OFDM_802_16 (OFDM_TX_802_16/MATLAB/OFDM_TX_tb.m); every
// label and the normalisation of all four modulations agree point by point with two
// independent open implementations (the MIT OFDM transceiver's WiMAX mapper; the WARP
// OFDM reference design's 802.16 tables for QPSK/16/64-QAM), and QPSK with two 802.16 OFDMA
// decoders: the test vectors' constellation_labels.txt names them, and
// lib/tests/wimax/test_wimax_tables.cc checks this table against it.

#include "runtime/bit_stage.h"

#include <complex>
#include <cstdint>
#include <vector>

namespace gr::gpuofdm::core {

using cfloat = std::complex<float>;

//! Subcarrier modulations.
enum class modulation { bpsk, qpsk, qam16, qam64 };

//! N_BPSC: coded bits per subcarrier (1, 2, 4, 6).
GPUOFDM_HD inline unsigned bits_per_symbol(modulation m)
{
    switch (m) {
    case modulation::bpsk:
        return 1;
    case modulation::qpsk:
        return 2;
    case modulation::qam16:
        return 4;
    default:
        return 6;
    }
}

//! K_MOD of 802.11a Table 17-7 (unit average symbol power).
GPUOFDM_HD inline float modulation_scale(modulation m)
{
    switch (m) {
    case modulation::bpsk:
        return 1.0f;
    case modulation::qpsk:
        return 0.70710678118654752f; // 1/sqrt(2)
    case modulation::qam16:
        return 0.31622776601683794f; // 1/sqrt(10)
    default:
        return 0.15430334996209191f; // 1/sqrt(42)
    }
}

/*!
 * \brief The PAM level (odd integer, -(2^n - 1) .. 2^n - 1) of n = 1..3 Gray-labelled bits,
 * the first bit in the MSB of \p label. Gray to binary, then 2 B - (2^n - 1), reproduces the
 * per-axis tables of 17.3.5.7 (see the file comment).
 */
GPUOFDM_HD inline int gray_pam_level(unsigned label, unsigned n)
{
    unsigned b = label;
    b ^= b >> 1;
    b ^= b >> 2;
    return int(2 * b) - int((1u << n) - 1);
}

/*!
 * \brief The normalised point of the N_BPSC bits at \p bits (one per byte, bit 0 read),
 * labelled as \p standard labels it (802.16: the 802.11a point of the complemented bits,
 * see the file comment).
 */
GPUOFDM_HD inline void map_bits(const uint8_t* bits,
                                modulation m,
                                float& re,
                                float& im,
                                phy_standard standard = phy_standard::ieee80211a)
{
    const unsigned n = bits_per_symbol(m);
    const float k = modulation_scale(m);
    const unsigned flip = standard == phy_standard::ieee80216 ? 1u : 0u;
    if (n == 1) {
        re = k * float(gray_pam_level((bits[0] ^ flip) & 1u, 1));
        im = 0.0f;
        return;
    }
    const unsigned h = n / 2;
    unsigned li = 0, lq = 0;
    for (unsigned i = 0; i < h; i++) {
        li = (li << 1) | ((bits[i] ^ flip) & 1u);
        lq = (lq << 1) | ((bits[h + i] ^ flip) & 1u);
    }
    re = k * float(gray_pam_level(li, h));
    im = k * float(gray_pam_level(lq, h));
}

/*!
 * \brief Every point of \p m, indexed by the label b0 b1 ... b(N-1) read as a binary number
 * with b0 the MSB (for demappers and plots).
 */
inline std::vector<cfloat> constellation_points(modulation m,
                                                phy_standard standard = phy_standard::ieee80211a)
{
    const unsigned n = bits_per_symbol(m);
    std::vector<cfloat> pts(size_t(1) << n);
    for (unsigned label = 0; label < pts.size(); label++) {
        uint8_t bits[6];
        for (unsigned i = 0; i < n; i++)
            bits[i] = uint8_t((label >> (n - 1 - i)) & 1u);
        float re, im;
        map_bits(bits, m, re, im, standard);
        pts[label] = cfloat(re, im);
    }
    return pts;
}

} // namespace gr::gpuofdm::core

#endif
