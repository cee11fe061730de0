/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the transmit-side OFDM stage: unshift, inverse FFT, scale, prepend the CP.

#include "ofdm/ofdm_stage.h"
#include "runtime/fftw_plan.h"

#include <algorithm>
#include <memory>

namespace gr::gpuofdm::core {

//! CPU twin of the OFDM modulator (FFTW, one symbol at a time).
class ofdm_ifft_cpu : public ofdm_stage
{
public:
    explicit ofdm_ifft_cpu(const ofdm_params& p);
    device_spec device() const override { return {}; }
    void process(const cfloat* in, cfloat* out, size_t n_symbols, uint64_t first) override;

private:
    fftw_plan_1d d_plan;
};

ofdm_ifft_cpu::ofdm_ifft_cpu(const ofdm_params& p)
    : ofdm_stage(p), d_plan(d_layout.fft_len(), false)
{
}

void ofdm_ifft_cpu::process(const cfloat* in, cfloat* out, size_t n_symbols, uint64_t first)
{
    const size_t n = d_layout.fft_len();
    const float scale = d_layout.scale();
    for (size_t s = 0; s < n_symbols; s++) {
        cfloat* bins = d_plan.input();
        for (size_t k = 0; k < n; k++)
            bins[k] = in[d_layout.shift() ? shifted_bin(k, n) : k];
        d_plan.execute();
        const cfloat* x = d_plan.output();
        const size_t cp = d_layout.cp_of(first + s);
        std::transform(x + n - cp, x + n, out, [scale](cfloat v) { return scale * v; });
        std::transform(x, x + n, out + cp, [scale](cfloat v) { return scale * v; });
        in += n;
        out += cp + n;
    }
}

std::unique_ptr<ofdm_stage> make_ofdm_ifft_cpu(const ofdm_params& p)
{
    return std::make_unique<ofdm_ifft_cpu>(p);
}

} // namespace gr::gpuofdm::core
