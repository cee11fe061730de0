/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the receive-side OFDM stage: drop the CP, FFT, shift and scale.

#include "ofdm/ofdm_stage.h"
#include "runtime/fftw_plan.h"

#include <algorithm>
#include <memory>

namespace gr::gpuofdm::core {

//! CPU twin of the OFDM demodulator (FFTW, one symbol at a time).
class ofdm_fft_cpu : public ofdm_stage
{
public:
    explicit ofdm_fft_cpu(const ofdm_params& p);
    device_spec device() const override { return {}; }
    void process(const cfloat* in, cfloat* out, size_t n_symbols, uint64_t first) override;

private:
    fftw_plan_1d d_plan;
};

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

std::unique_ptr<ofdm_stage> make_ofdm_fft_cpu(const ofdm_params& p)
{
    return std::make_unique<ofdm_fft_cpu>(p);
}

} // namespace gr::gpuofdm::core
