/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_CONV_ENCODER_BB_IMPL_H
#define INCLUDED_GPUOFDM_CONV_ENCODER_BB_IMPL_H

#include "fec/conv_encoder.h"
#include <gnuradio/gpuofdm/conv_encoder_bb.h>

#include <memory>

namespace gr {
namespace gpuofdm {

/*!
 * One class for both modes: with a length tag key the tagged_stream_block machinery
 * frames the input; without one, forecast() and general_work() run the continuous
 * stream themselves.
 */
class conv_encoder_bb_impl : public conv_encoder_bb
{
public:
    conv_encoder_bb_impl(std::unique_ptr<core::conv_encoder> stage, const std::string& len_tag_key);

    std::string device() const override { return d_stage->device().to_string(); }
    int batch() const override { return int(d_batch); }
    int output_len(int n_in) const override;

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;
    int work(int noutput_items,
             gr_vector_int& ninput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

protected:
    int calculate_output_stream_length(const gr_vector_int& ninput_items) override;

private:
    //! Moves the tags of input bits [0, n_in) to the first output bit of each.
    void move_tags(size_t n_in, unsigned phase, const pmt::pmt_t& skip_key);

    std::unique_ptr<core::conv_encoder> d_stage; //!< CPU twin or CUDA backend
    const bool d_continuous;                     //!< no length tag key
    core::conv_encoder_state d_state;            //!< continuous mode: register and phase
    pmt::pmt_t d_len_key;                        //!< the length tag key (PMT_NIL if none)
    size_t d_batch;                              //!< input bits per launch, as the core picks it
};

} // namespace gpuofdm
} // namespace gr

#endif
