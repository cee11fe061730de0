/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the mapper.

#include "fec/tx_bit_stages_cpu.h"

namespace gr::gpuofdm::core {

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

} // namespace gr::gpuofdm::core
