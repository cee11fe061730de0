/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the PRACH front end: one FFTW transform per (row, repetition).

#include "prach/prach_frontend.h"
#include "runtime/fftw_plan.h"

#include <algorithm>
#include <memory>

namespace gr::gpuofdm::core {

//! CPU twin of the PRACH front end.
class prach_frontend_cpu : public prach_frontend
{
public:
    explicit prach_frontend_cpu(const prach_frontend_params& p)
        : prach_frontend(p), d_plan(size_t(d_fft), true)
    {
    }
    device_spec device() const override { return {}; }

private:
    void run(const cfloat* in, size_t in_stride, cfloat* out, size_t out_stride) override;

    fftw_plan_1d d_plan;
};

void prach_frontend_cpu::run(const cfloat* in, size_t in_stride, cfloat* out, size_t out_stride)
{
    const int L = d_format.length;
    const int R = d_format.repetitions;
    const int M = d_params.n_fd_occasions;
    const size_t per_cell = size_t(d_params.n_antennas) * size_t(d_params.n_time_occasions);
    for (size_t row = 0; row < n_rows(); row++) {
        const size_t cell = row / per_cell;
        const cfloat* x = in + row * in_stride + d_cp;
        for (int r = 0; r < R; r++) {
            std::copy(x + size_t(r) * size_t(d_fft), x + size_t(r + 1) * size_t(d_fft),
                      d_plan.input());
            d_plan.execute();
            const cfloat* bins = d_plan.output();
            for (int m = 0; m < M; m++) {
                const int first = d_first_bin[cell * size_t(M) + size_t(m)];
                cfloat* y = out + (row * size_t(M) + size_t(m)) * out_stride + size_t(r) * L;
                for (int k = 0; k < L; k++) {
                    const int b = first + k < d_fft ? first + k : first + k - d_fft;
                    y[k] = bins[b] * d_scale;
                }
            }
        }
    }
}

std::unique_ptr<prach_frontend> make_prach_frontend_cpu(const prach_frontend_params& p)
{
    return std::make_unique<prach_frontend_cpu>(p);
}

} // namespace gr::gpuofdm::core
