/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_OFDM_CUDA_KERNELS_CUH
#define GPUOFDM_CORE_OFDM_CUDA_KERNELS_CUH

// Device helpers shared by the OFDM FFT and IFFT kernels.

#include <cuComplex.h>

#include <algorithm>
#include <cstddef>

namespace gr::gpuofdm::core {

//! Where a symbol of the batch starts (relative to the batch) and its CP length.
struct symbol_place {
    unsigned long long offset;
    unsigned int cp;
};

//! Symbol s of a batch whose first symbol has phase first_phase in the CP period.
__device__ inline symbol_place locate_symbol(const unsigned long long* starts,
                                             unsigned int period,
                                             unsigned int first_phase,
                                             unsigned long long s,
                                             unsigned int fft_len)
{
    const unsigned long long g = first_phase + s;
    const unsigned int j = unsigned(g % period);
    symbol_place p;
    p.offset = (g / period) * starts[period] + starts[j] - starts[first_phase];
    p.cp = unsigned(starts[j + 1] - starts[j]) - fft_len;
    return p;
}

/*!
 * \brief e^{j 2 pi sign m t / N} with m = N/2: multiplying the time samples by it shifts
 * the spectrum by m bins, so fftshift costs no extra pass. For even N it is (-1)^t exactly.
 */
__device__ inline float2 shift_twiddle(unsigned int t, unsigned int n, float sign)
{
    if ((n & 1) == 0)
        return make_float2((t & 1) ? -1.0f : 1.0f, 0.0f);
    const unsigned long long r = (unsigned long long)(n / 2) * t % n;
    float s, c;
    sincospif(2.0f * float(r) / float(n), &s, &c);
    return make_float2(c, sign * s);
}

//! Threads per block for one symbol of len samples: whole warps, at most 256.
inline unsigned int threads_for(size_t len)
{
    return unsigned(std::min<size_t>(256, (len + 31) / 32 * 32));
}

} // namespace gr::gpuofdm::core

#endif
