/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_RS_DECODER_BB_H
#define INCLUDED_GPUOFDM_RS_DECODER_BB_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief 802.16-2004 Reed-Solomon decoder (8.3.3.2) for the shortened, punctured
 * RS(255,239,8) codes of the burst profiles, on the GPU or the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input: N bytes per codeword (parity first, as rs_encoder_bb writes them). Output: the
 * K data bytes. Up to T byte errors per codeword are corrected (the punctured parity
 * bytes are decoded as erasures). A codeword with more errors is not passed on
 * silently: its K bytes (as received) carry a tag "rs_uncorrectable" on their first
 * byte, value the codeword's index in the stream, and uncorrectable() counts them.
 */
class GPUOFDM_API rs_decoder_bb : virtual public gr::block
{
public:
    typedef std::shared_ptr<rs_decoder_bb> sptr;

    /*!
     * \param n codeword bytes N (after shortening and puncturing)
     * \param k data bytes K
     * \param t correctable byte errors T
     * \param batch codewords per GPU launch, 1 .. 2^24; 0 picks the default (16384)
     * \param device "auto", "cpu", "cuda" or "cuda:N"
     * \throws std::invalid_argument ("profile: ...") for an (N, K, T) outside Table 215.
     */
    static sptr make(
        int n = 40, int k = 36, int t = 2, int batch = 0, const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Codewords decoded so far.
    virtual uint64_t codewords() const = 0;
    //! Byte errors corrected so far.
    virtual uint64_t corrected_bytes() const = 0;
    //! Codewords that could not be corrected (and were tagged).
    virtual uint64_t uncorrectable() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif
