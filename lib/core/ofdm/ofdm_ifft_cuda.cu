/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA OFDM modulator: batched inverse cuFFT, then shift, scale and CP in one pass.

#include "ofdm/ofdm_cuda_kernels.cuh"
#include "ofdm/ofdm_stage_cuda.h"

#include <memory>

namespace gr::gpuofdm::core {

namespace {

// One thread block per symbol: write its CP and body from the inverse FFT output,
// times scale and, when the input was shifted, the twiddle that undoes the shift.
__global__ void add_cp_kernel(const float2* __restrict__ time,
                              float2* __restrict__ out,
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
        const float2* src = time + (unsigned long long)s * fft_len;
        float2* dst = out + p.offset;
        for (unsigned int i = threadIdx.x; i < p.cp + fft_len; i += blockDim.x) {
            const unsigned int t = i < p.cp ? fft_len - p.cp + i : i - p.cp;
            float2 v = src[t];
            if (shift)
                v = cuCmulf(v, shift_twiddle(t, fft_len, -1.0f));
            dst[i] = make_float2(scale * v.x, scale * v.y);
        }
    }
}

} // namespace

//! CUDA OFDM modulator: cuFFT, then one kernel applies shift and scale and writes the CP.
class ofdm_ifft_cuda : public ofdm_cuda_stage
{
public:
    ofdm_ifft_cuda(const ofdm_params& p, const device_spec& dev);
    void launch(size_t n_symbols, uint64_t first) override;
    size_t input_items(uint64_t, size_t n) const override { return n * d_layout.fft_len(); }
    size_t output_items(uint64_t first, size_t n) const override
    {
        return d_layout.samples(first, n);
    }
};

ofdm_ifft_cuda::ofdm_ifft_cuda(const ofdm_params& p, const device_spec& dev)
    : ofdm_cuda_stage(p, dev, false)
{
    d_bins = device_buffer<cfloat>(d_layout.batch() * d_layout.fft_len());
}

void ofdm_ifft_cuda::launch(size_t n_symbols, uint64_t first)
{
    const unsigned int n = unsigned(d_layout.fft_len());
    d_plans->exec(reinterpret_cast<cufftComplex*>(d_in.get()),
                  reinterpret_cast<cufftComplex*>(d_bins.get()), n_symbols, CUFFT_INVERSE);
    const unsigned int blocks = unsigned(std::min<size_t>(n_symbols, 1u << 30));
    add_cp_kernel<<<blocks, threads_for(d_layout.max_symbol_len()), 0, stream()>>>(
        reinterpret_cast<const float2*>(d_bins.get()), reinterpret_cast<float2*>(d_out.get()),
        d_starts.get(), unsigned(d_layout.period()), unsigned(first % d_layout.period()), n,
        unsigned(n_symbols), d_layout.scale(), d_layout.shift());
    GPUOFDM_CUDA_CHECK_LAUNCH(add_cp_kernel);
}

std::unique_ptr<ofdm_stage> make_ofdm_ifft_cuda(const ofdm_params& p, const device_spec& dev)
{
    return std::make_unique<ofdm_ifft_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
