/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CONV_CODE_H
#define GPUOFDM_CORE_CONV_CODE_H

// The K = 7 convolutional code and its puncturing patterns, written once for the CPU
// twin, the CUDA kernel and (later) the Viterbi decoder.

#include "runtime/bit_stage.h"

#include <cstdint>

namespace gr::gpuofdm::core {

//! Code rates after puncturing.
enum class code_rate {
    r1_2, //!< no puncturing
    r2_3, //!< 802.11a 17.3.5.6 Figure 17-9 / 802.16 Table 215
    r3_4, //!< 802.11a Figure 17-9 / 802.16 Table 215
    r5_6  //!< 802.16 Table 215; for 802.11a the 802.11n pattern (19.3.11.6.2)
};

//! "1/2", "2/3", "3/4" or "5/6".
inline const char* to_string(code_rate r)
{
    switch (r) {
    case code_rate::r1_2:
        return "1/2";
    case code_rate::r2_3:
        return "2/3";
    case code_rate::r3_4:
        return "3/4";
    default:
        return "5/6";
    }
}

/*!
 * \brief A K = 7 code with its puncturing pattern, as one small value that kernels take by
 * value.
 *
 * Per input bit the encoder computes the "first" output (802.11a: A, g0 = 133 octal;
 * 802.16: X, 171 octal) then the "second" (B, 171 / Y, 133) and keeps those whose bit is
 * set in keep_first / keep_second at the bit's phase in the puncturing period. Sending the
 * kept bits in that order gives exactly the standards' serialisations (A0 B0 A1 B2 for
 * 802.11a 3/4, X1 Y1 Y2 X3 for 802.16 3/4).
 *
 * The polynomials are read with bit 6 on the current input and bit 0 on the input six
 * steps back, so 133 octal = 1011011 taps in, D^2, D^3, D^5, D^6 (Figure 17-8).
 */
struct conv_code {
    unsigned g_first;
    unsigned g_second;
    unsigned period;      //!< input bits per puncturing period (1, 2, 3, 5)
    unsigned keep_first;  //!< bit p set: first output of phase p is sent
    unsigned keep_second; //!< bit p set: second output of phase p is sent
    unsigned prefix[7];   //!< outputs sent before phase p; prefix[period] per period

    //! Output bits per period.
    GPUOFDM_HD unsigned outputs_per_period() const { return prefix[period]; }

    //! Output position of input bit i of a batch whose first bit has phase p0.
    GPUOFDM_HD unsigned long long output_offset(unsigned p0, unsigned long long i) const
    {
        const unsigned long long q = p0 + i;
        return (q / period) * prefix[period] + prefix[q % period] - prefix[p0];
    }
};

//! The code of \p standard at \p rate; throws std::invalid_argument ("rate: ...").
conv_code make_conv_code(phy_standard standard, code_rate rate);

//! Parity of the low 7 bits.
GPUOFDM_HD inline unsigned parity7(unsigned v)
{
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1u;
}

/*!
 * \brief Encodes one input bit.
 * \param window bit 6: the input bit; bits 5..0: the six previous inputs, newest in bit 5
 * \param phase the bit's phase in the puncturing period
 * \param out receives the kept output bits
 * \return how many were written (0, 1 or 2)
 */
GPUOFDM_HD inline unsigned conv_encode_bit(const conv_code& c,
                                           unsigned window,
                                           unsigned phase,
                                           uint8_t* out)
{
    unsigned n = 0;
    if ((c.keep_first >> phase) & 1u)
        out[n++] = uint8_t(parity7(window & c.g_first));
    if ((c.keep_second >> phase) & 1u)
        out[n++] = uint8_t(parity7(window & c.g_second));
    return n;
}

} // namespace gr::gpuofdm::core

#endif
