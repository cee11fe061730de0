/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA scrambler: jump-ahead through the period table, so every bit is independent.
// Bit i of a batch that starts at cycle index s takes table bit (s + i) mod period.

#include "tx_bit_stages_cuda.h"

#include <algorithm>

namespace gr::gpuofdm::core {

namespace {

__global__ void scramble_kernel(const uint8_t* __restrict__ in,
                                uint8_t* __restrict__ out,
                                const uint8_t* __restrict__ seq,
                                unsigned int period,
                                unsigned int start,
                                unsigned long long n)
{
    for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n;
         i += 256ull * gridDim.x)
        out[i] = uint8_t((in[i] & 1u) ^ __ldg(seq + (start + i % period) % period));
}

} // namespace

scrambler_cuda::scrambler_cuda(const scrambler_params& p, const device_spec& dev)
    : scrambler(p),
      d_table(d_spec),
      d_staging(dev, d_batch, d_batch),
      d_seq(d_table.period())
{
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_seq.get(), d_table.bits().data(), d_table.period(),
                                  cudaMemcpyHostToDevice));
}

void scrambler_cuda::process(const uint8_t* in, uint8_t* out, size_t n_bits, scrambler_state& state)
{
    check_state(state);
    while (n_bits > 0) {
        const size_t n = std::min(n_bits, d_batch);
        const unsigned int start = d_table.index_of(state.reg);
        d_staging.run(in, n, out, n, [&] {
            scramble_kernel<<<grid_for(n), 256, 0, d_staging.stream()>>>(
                d_staging.device_in<uint8_t>(), d_staging.device_out<uint8_t>(), d_seq.get(),
                d_table.period(), start, n);
            GPUOFDM_CUDA_CHECK_LAUNCH(scramble_kernel);
        });
        state.reg = d_table.advance(state.reg, n);
        in += n;
        out += n;
        n_bits -= n;
    }
}

} // namespace gr::gpuofdm::core
