/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the receive-side OFDM stage: drop the CP, FFT, shift and scale.

#include "ofdm/ofdm_stages_cpu.h"

#include <algorithm>

namespace gr::gpuofdm::core {

ofdm_fft_cpu::ofdm_fft_cpu(const ofdm_params& p) : ofdm_stage(p), d_plan(d_layout.fft_len(), true)
{
}

void ofdm_fft_cpu::process(const cfloat* in, cfloat* out, size_t n_symbols, uint64_t first)
{
    const size_t n = d_layout.fft_len();
    const float scale = d_layout.scale();
    for (size_t s = 0; s < n_symbols; s++) {
        const size_t cp = d_layout.cp_of(first + s);
        std::copy(in + cp, in + cp + n, d_plan.input());
        d_plan.execute();
        const cfloat* bins = d_plan.output();
        for (size_t k = 0; k < n; k++)
            out[d_layout.shift() ? shifted_bin(k, n) : k] = scale * bins[k];
        in += cp + n;
        out += n;
    }
}

} // namespace gr::gpuofdm::core
