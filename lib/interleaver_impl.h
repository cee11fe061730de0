/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_INTERLEAVER_IMPL_H
#define INCLUDED_GPUOFDM_INTERLEAVER_IMPL_H

// interleaver_bb (hard bits) and interleaver_ff (soft values): one adapter, two item types.

#include "fec/interleaver.h"
#include <gnuradio/gpuofdm/interleaver_bb.h>
#include <gnuradio/gpuofdm/interleaver_ff.h>

#include <memory>

namespace gr {
namespace gpuofdm {

/*!
 * The block over one core::interleaver: whole symbols of n_cbps items per call.
 * \tparam T uint8_t (bits) or float (soft values, deinterleave only)
 * \tparam Base the public class, interleaver_bb or interleaver_ff
 */
template <typename T, typename Base>
class interleaver_impl : public Base
{
public:
    interleaver_impl(std::unique_ptr<core::interleaver> stage, bool deinterleave);

    std::string device() const override { return d_stage->device().to_string(); }
    int batch() const override { return int(d_batch); }
    std::vector<int> permutation() const override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    std::unique_ptr<core::interleaver> d_stage; //!< CPU twin or CUDA backend
    const bool d_deinterleave;                  //!< the inverse permutation
    size_t d_batch;                             //!< symbols per launch, as the core picks it
};

using interleaver_bb_impl = interleaver_impl<uint8_t, interleaver_bb>;
using interleaver_ff_impl = interleaver_impl<float, interleaver_ff>;

} // namespace gpuofdm
} // namespace gr

#endif
