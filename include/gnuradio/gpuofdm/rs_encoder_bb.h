/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_RS_ENCODER_BB_H
#define INCLUDED_GPUOFDM_RS_ENCODER_BB_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief 802.16-2004 Reed-Solomon encoder (8.3.3.2): RS(255,239,8) over GF(2^8),
 * shortened to K data bytes and punctured to 2T parity bytes, on the GPU or the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input: bytes, K per codeword. Output: N = K + 2T bytes per codeword, the 2T parity
 * bytes first, then the K data bytes, as the 8.3.3.5.1 example prints them. The burst
 * profiles of Table 215 are (N, K, T) = (32,24,4), (40,36,2), (64,48,8), (80,72,4),
 * (108,96,6), (120,108,6), and (12,12,0) for BPSK (no RS: bytes pass through).
 * Field polynomial x^8+x^4+x^3+x^2+1, generator prod (x + 2^i), i = 0..15. A partial
 * codeword at the end of a stream is not encoded.
 */
class GPUOFDM_API rs_encoder_bb : virtual public gr::block
{
public:
    typedef std::shared_ptr<rs_encoder_bb> sptr;

    /*!
     * \param n codeword bytes N (after shortening and puncturing)
     * \param k data bytes K
     * \param t correctable byte errors T (2T parity bytes kept)
     * \param batch codewords per GPU launch, 1 .. 2^24; 0 picks the default (16384)
     * \param device "auto", "cpu", "cuda" or "cuda:N"
     * \throws std::invalid_argument ("profile: ...") for an (N, K, T) outside Table 215.
     */
    static sptr make(
        int n = 40, int k = 36, int t = 2, int batch = 0, const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif
