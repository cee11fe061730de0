/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA convolutional encoder: one thread per input bit. Its window is the bit and the six
// before it (a halo read from the input, or from the carried register at the batch start),
// and its output position follows from its phase, so no thread waits for another.

#include "tx_bit_stages_cuda.h"

#include <algorithm>

namespace gr::gpuofdm::core {

namespace {

__global__ void conv_encode_kernel(const uint8_t* __restrict__ in,
                                   uint8_t* __restrict__ out,
                                   conv_code code,
                                   unsigned int reg0,
                                   unsigned int phase0,
                                   unsigned long long n)
{
    for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n;
         i += 256ull * gridDim.x) {
        unsigned int window = (in[i] & 1u) << 6;
        for (unsigned int d = 1; d <= 6; d++) {
            // Input i-d sits in window bit 6-d; before the batch it is in reg0 bit 6-(d-i).
            const unsigned int b = i >= d ? (in[i - d] & 1u) : (reg0 >> (6 + i - d)) & 1u;
            window |= b << (6 - d);
        }
        const unsigned int phase = unsigned((phase0 + i) % code.period);
        conv_encode_bit(code, window, phase, out + code.output_offset(phase0, i));
    }
}

} // namespace

conv_encoder_cuda::conv_encoder_cuda(const conv_encoder_params& p, const device_spec& dev)
    : conv_encoder(p), d_staging(dev, d_batch, 2 * d_batch)
{
}

size_t conv_encoder_cuda::process(const uint8_t* in, uint8_t* out, size_t n_in,
                                  conv_encoder_state& state)
{
    check_state(state);
    size_t total = 0;
    while (n_in > 0) {
        const size_t n = std::min(n_in, d_batch);
        const size_t n_out = output_len(n, state);
        const conv_encoder_state s0 = state;
        d_staging.run(in, n, out, n_out, [&] {
            conv_encode_kernel<<<grid_for(n), 256, 0, d_staging.stream()>>>(
                d_staging.device_in<uint8_t>(), d_staging.device_out<uint8_t>(), d_code,
                s0.reg, s0.phase, n);
            GPUOFDM_CUDA_CHECK_LAUNCH(conv_encode_kernel);
        });
        // The register is the last six inputs (fewer come from the old register).
        for (size_t i = n > 6 ? n - 6 : 0; i < n; i++)
            state.reg = ((unsigned(in[i] & 1u) << 6) | state.reg) >> 1;
        state.phase = unsigned((state.phase + n) % d_code.period);
        in += n;
        out += n_out;
        total += n_out;
        n_in -= n;
    }
    return total;
}

} // namespace gr::gpuofdm::core
