/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_MAPPER_BC_IMPL_H
#define INCLUDED_GPUOFDM_MAPPER_BC_IMPL_H

#include "ofdm/mapper.h"
#include <gnuradio/gpuofdm/mapper_bc.h>

#include <memory>

namespace gr {
namespace gpuofdm {

class mapper_bc_impl : public mapper_bc
{
public:
    explicit mapper_bc_impl(std::unique_ptr<core::mapper> stage);

    std::string device() const override { return d_stage->device().to_string(); }
    int batch() const override { return int(d_batch); }
    int bits_per_point() const override { return int(d_stage->bits_per_point()); }
    std::vector<gr_complex> points() const override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    std::unique_ptr<core::mapper> d_stage; //!< CPU twin or CUDA backend
    size_t d_batch;                        //!< points per launch, as the core picks it
};

} // namespace gpuofdm
} // namespace gr

#endif
