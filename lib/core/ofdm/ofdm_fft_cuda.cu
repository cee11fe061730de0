/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA OFDM demodulator: CP removal, shift and scale in one pass, then batched cuFFT.

#include "ofdm/ofdm_cuda_kernels.cuh"
#include "ofdm/ofdm_stage_cuda.h"

#include <memory>

namespace gr::gpuofdm::core {

namespace {

// One thread block per symbol: copy its fft_len samples after the CP into bins,
// times scale and, when shifting, the twiddle that moves DC to bin N/2 after the FFT.
__global__ void remove_cp_kernel(const float2* __restrict__ in,
                                 float2* __restrict__ bins,
                                 const unsigned long long* __restrict__ starts,
                                 unsigned int period,
                                 unsigned int first_phase,
                                 unsigned int fft_len,
                                 unsigned int n_symbols,
                                 float scale,
                                 bool shift)
{
    for (unsigned int s = blockIdx.x; s < n_symbols; s += gridDim.x) {
        const symbol_place p = locate_symbol(starts, period, first_phase, s, fft_len);
        const float2* src = in + p.offset + p.cp;
        float2* dst = bins + (unsigned long long)s * fft_len;
        for (unsigned int t = threadIdx.x; t < fft_len; t += blockDim.x) {
            float2 v = src[t];
            if (shift)
                v = cuCmulf(v, shift_twiddle(t, fft_len, 1.0f));
            dst[t] = make_float2(scale * v.x, scale * v.y);
        }
    }
}

} // namespace

//! CUDA OFDM demodulator: one kernel drops the CP and applies shift and scale, then cuFFT.
class ofdm_fft_cuda : public ofdm_cuda_stage
{
public:
    ofdm_fft_cuda(const ofdm_params& p, const device_spec& dev);
    void launch(size_t n_symbols, uint64_t first) override;
    size_t input_items(uint64_t first, size_t n) const override
    {
        return d_layout.samples(first, n);
    }
    size_t output_items(uint64_t, size_t n) const override { return n * d_layout.fft_len(); }
};

ofdm_fft_cuda::ofdm_fft_cuda(const ofdm_params& p, const device_spec& dev)
    : ofdm_cuda_stage(p, dev, true)
{
}

void ofdm_fft_cuda::launch(size_t n_symbols, uint64_t first)
{
    const unsigned int n = unsigned(d_layout.fft_len());
    const unsigned int blocks = unsigned(std::min<size_t>(n_symbols, 1u << 30));
    remove_cp_kernel<<<blocks, threads_for(n), 0, stream()>>>(
        reinterpret_cast<const float2*>(d_in.get()), reinterpret_cast<float2*>(d_out.get()),
        d_starts.get(), unsigned(d_layout.period()), unsigned(first % d_layout.period()), n,
        unsigned(n_symbols), d_layout.scale(), d_layout.shift());
    GPUOFDM_CUDA_CHECK_LAUNCH(remove_cp_kernel);
    auto* bins = reinterpret_cast<cufftComplex*>(d_out.get());
    d_plans->exec(bins, bins, n_symbols, CUFFT_FORWARD);
}

std::unique_ptr<ofdm_stage> make_ofdm_fft_cuda(const ofdm_params& p, const device_spec& dev)
{
    return std::make_unique<ofdm_fft_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
