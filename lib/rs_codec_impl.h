/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_RS_CODEC_IMPL_H
#define INCLUDED_GPUOFDM_RS_CODEC_IMPL_H

// rs_encoder_bb and rs_decoder_bb: one adapter over core::reed_solomon, whole codewords
// per call (K bytes <-> N bytes).

#include "fec/reed_solomon.h"
#include <gnuradio/gpuofdm/rs_decoder_bb.h>
#include <gnuradio/gpuofdm/rs_encoder_bb.h>

#include <memory>
#include <vector>

namespace gr {
namespace gpuofdm {

class rs_encoder_bb_impl : public rs_encoder_bb
{
public:
    //! \p params validated.
    rs_encoder_bb_impl(const core::reed_solomon_params& params, const std::string& device);

    std::string device() const override { return d_codec->device().to_string(); }
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    std::unique_ptr<core::reed_solomon> d_codec; //!< CPU twin or CUDA backend
    size_t d_chunk;                              //!< codewords per call at most
};

class rs_decoder_bb_impl : public rs_decoder_bb
{
public:
    //! \p params validated.
    rs_decoder_bb_impl(const core::reed_solomon_params& params, const std::string& device);

    std::string device() const override { return d_codec->device().to_string(); }
    uint64_t codewords() const override { return d_codewords; }
    uint64_t corrected_bytes() const override { return d_corrected; }
    uint64_t uncorrectable() const override { return d_uncorrectable; }
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    std::unique_ptr<core::reed_solomon> d_codec; //!< CPU twin or CUDA backend
    size_t d_chunk;                              //!< codewords per call at most
    std::vector<int32_t> d_status;               //!< per codeword of a call, allocated once
    uint64_t d_codewords = 0;
    uint64_t d_corrected = 0;
    uint64_t d_uncorrectable = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif
