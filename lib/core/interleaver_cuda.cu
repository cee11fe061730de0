/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA interleaver: one thread per value; the permutation table sits in device memory
// (up to 2^20 entries, too large for constant memory in general) and is read through the
// read-only cache.

#include "tx_bit_stages_cuda.h"

#include <algorithm>

namespace gr::gpuofdm::core {

namespace {

template <typename T>
__global__ void permute_kernel(const T* __restrict__ in,
                               T* __restrict__ out,
                               const uint32_t* __restrict__ perm,
                               unsigned int n_cbps,
                               unsigned long long n,
                               bool inverse)
{
    for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n;
         i += 256ull * gridDim.x) {
        const unsigned long long base = i - i % n_cbps;
        const unsigned long long j = base + __ldg(perm + i % n_cbps);
        if (inverse)
            out[i] = in[j];
        else
            out[j] = in[i];
    }
}

} // namespace

interleaver_cuda::interleaver_cuda(const interleaver_params& p, const device_spec& dev)
    : interleaver(p),
      d_staging(dev, d_batch * d_perm.size() * sizeof(float), d_batch * d_perm.size() * sizeof(float)),
      d_dev_perm(d_perm.size())
{
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_dev_perm.get(), d_perm.data(),
                                  d_perm.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
}

template <typename T>
void interleaver_cuda::run(const T* in, T* out, size_t n_symbols, bool inverse)
{
    const size_t n_cbps = d_perm.size();
    while (n_symbols > 0) {
        const size_t k = std::min(n_symbols, d_batch);
        const size_t n = k * n_cbps;
        d_staging.run(in, n * sizeof(T), out, n * sizeof(T), [&] {
            permute_kernel<T><<<grid_for(n), 256, 0, d_staging.stream()>>>(
                d_staging.device_in<T>(), d_staging.device_out<T>(), d_dev_perm.get(),
                unsigned(n_cbps), n, inverse);
            GPUOFDM_CUDA_CHECK_LAUNCH(permute_kernel);
        });
        in += n;
        out += n;
        n_symbols -= k;
    }
}

void interleaver_cuda::interleave(const uint8_t* in, uint8_t* out, size_t n_symbols)
{
    run(in, out, n_symbols, false);
}

void interleaver_cuda::deinterleave(const uint8_t* in, uint8_t* out, size_t n_symbols)
{
    run(in, out, n_symbols, true);
}

void interleaver_cuda::deinterleave(const float* in, float* out, size_t n_symbols)
{
    run(in, out, n_symbols, true);
}

} // namespace gr::gpuofdm::core
