/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_OFDM_IFFT_IMPL_H
#define INCLUDED_GPUOFDM_OFDM_IFFT_IMPL_H

#include "ofdm/ofdm_stage.h"
#include <gnuradio/gpuofdm/ofdm_ifft.h>

#include <memory>

namespace gr {
namespace gpuofdm {

class ofdm_ifft_impl : public ofdm_ifft
{
public:
    ofdm_ifft_impl(const core::ofdm_params& params, const std::string& device);

    std::string device() const override { return d_stage->device().to_string(); }
    int batch() const override { return int(d_stage->layout().batch()); }

    bool start() override;
    bool stop() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    std::unique_ptr<core::ofdm_stage> d_stage; //!< CPU twin or CUDA backend
    uint64_t d_symbol = 0;                     //!< stream index of the next symbol
};

} // namespace gpuofdm
} // namespace gr

#endif
