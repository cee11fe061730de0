/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_SCRAMBLER_BB_IMPL_H
#define INCLUDED_GPUOFDM_SCRAMBLER_BB_IMPL_H

#include "fec/scrambler.h"
#include <gnuradio/gpuofdm/scrambler_bb.h>

#include <atomic>
#include <memory>

namespace gr {
namespace gpuofdm {

class scrambler_bb_impl : public scrambler_bb
{
public:
    scrambler_bb_impl(std::unique_ptr<core::scrambler> stage, const std::string& reset_tag_key);

    std::string device() const override { return d_stage->device().to_string(); }
    int batch() const override { return int(d_batch); }
    void reset() override { d_reset_pending = true; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    std::unique_ptr<core::scrambler> d_stage;   //!< CPU twin or CUDA backend
    core::scrambler_state d_state;              //!< the register before the next item
    pmt::pmt_t d_reset_key;                     //!< PMT_NIL when no tag resets
    size_t d_batch;                             //!< bits per launch, as the core picks it
    std::atomic<bool> d_reset_pending{ false }; //!< reset() was called
};

} // namespace gpuofdm
} // namespace gr

#endif
