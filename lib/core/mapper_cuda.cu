/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA mapper: one thread per point, the same map_bits() as the CPU twin (a Gray-to-binary
// step and one multiply, so both give the same floats).

#include "tx_bit_stages_cuda.h"

#include <algorithm>

namespace gr::gpuofdm::core {

namespace {

__global__ void map_kernel(const uint8_t* __restrict__ bits,
                           float2* __restrict__ out,
                           modulation mod,
                           unsigned long long n_points)
{
    const unsigned int n = bits_per_symbol(mod);
    for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n_points;
         i += 256ull * gridDim.x) {
        float2 v;
        map_bits(bits + i * n, mod, v.x, v.y);
        out[i] = v;
    }
}

} // namespace

mapper_cuda::mapper_cuda(const mapper_params& p, const device_spec& dev)
    : mapper(p), d_staging(dev, d_batch * bits_per_point(), d_batch * sizeof(cfloat))
{
}

void mapper_cuda::process(const uint8_t* bits, cfloat* out, size_t n_points)
{
    const unsigned n_bits = bits_per_point();
    while (n_points > 0) {
        const size_t k = std::min(n_points, d_batch);
        d_staging.run(bits, k * n_bits, out, k * sizeof(cfloat), [&] {
            map_kernel<<<grid_for(k), 256, 0, d_staging.stream()>>>(
                d_staging.device_in<uint8_t>(), d_staging.device_out<float2>(), d_params.mod, k);
            GPUOFDM_CUDA_CHECK_LAUNCH(map_kernel);
        });
        bits += k * n_bits;
        out += k;
        n_points -= k;
    }
}

} // namespace gr::gpuofdm::core
