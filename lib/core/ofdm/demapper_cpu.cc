/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the soft demapper: demap_point() for each point, as the kernel does.

#include "ofdm/demapper.h"

#include <memory>

namespace gr::gpuofdm::core {

//! CPU twin: demap_point() for each point.
class demapper_cpu : public demapper
{
public:
    explicit demapper_cpu(const demapper_params& p) : demapper(p) {}
    device_spec device() const override { return {}; }

protected:
    void run(const cfloat* in, const float* gain, float* out, size_t n_points, float w) override;
};

void demapper_cpu::run(const cfloat* in, const float* gain, float* out, size_t n_points, float w)
{
    const modulation m = d_params.mod;
    const unsigned n = bits_per_symbol(m);
    const bool hard = d_params.hard;
    for (size_t j = 0; j < n_points; j++) {
        const float wj = gain ? demap_detail::mul(w, gain[j]) : w;
        demap_point(in[j].real(), in[j].imag(), m, wj, hard, out + j * n);
    }
}

std::unique_ptr<demapper> make_demapper_cpu(const demapper_params& p)
{
    return std::make_unique<demapper_cpu>(p);
}

} // namespace gr::gpuofdm::core
