/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_DEMAPPER_CF_IMPL_H
#define INCLUDED_GPUOFDM_DEMAPPER_CF_IMPL_H

#include "ofdm/demapper.h"
#include <gnuradio/gpuofdm/demapper_cf.h>

#include <atomic>
#include <memory>

namespace gr {
namespace gpuofdm {

class demapper_cf_impl : public demapper_cf
{
public:
    demapper_cf_impl(std::unique_ptr<core::demapper> stage, float noise_var);

    std::string device() const override { return d_stage->device().to_string(); }
    int batch() const override { return int(d_stage->batch()); }
    float noise_var() const override { return d_noise_var.load(); }
    void set_noise_var(float noise_var) override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    std::unique_ptr<core::demapper> d_stage; //!< CPU twin or CUDA backend
    std::atomic<float> d_noise_var;
};

} // namespace gpuofdm
} // namespace gr

#endif
