/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the mapper.

#include "ofdm/mapper.h"

#include <memory>

namespace gr::gpuofdm::core {

//! CPU twin of the mapper.
class mapper_cpu : public mapper
{
public:
    explicit mapper_cpu(const mapper_params& p);
    device_spec device() const override { return {}; }
    void process(const uint8_t* bits, cfloat* out, size_t n_points) override;
};

mapper_cpu::mapper_cpu(const mapper_params& p) : mapper(p) {}

void mapper_cpu::process(const uint8_t* bits, cfloat* out, size_t n_points)
{
    const unsigned n = bits_per_point();
    for (size_t i = 0; i < n_points; i++) {
        float re, im;
        map_bits(bits + i * n, d_params.mod, re, im, d_params.standard);
        out[i] = cfloat(re, im);
    }
}

std::unique_ptr<mapper> make_mapper_cpu(const mapper_params& p)
{
    return std::make_unique<mapper_cpu>(p);
}

} // namespace gr::gpuofdm::core
