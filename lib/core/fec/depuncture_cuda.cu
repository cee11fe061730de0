/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Device depuncturing: one thread per output value, the CPU twin's depunctured_llr().

#include "runtime/cuda_check.h"
#include "fec/depuncture.h"

namespace gr::gpuofdm::core {

namespace {

__global__ void depuncture_kernel(const float* __restrict__ in,
                                  float* __restrict__ out,
                                  uint64_t n_out,
                                  depuncture_pattern p)
{
    for (uint64_t j = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; j < n_out;
         j += uint64_t(gridDim.x) * blockDim.x)
        out[j] = depunctured_llr(in, j, p);
}

} // namespace

void depuncture_cuda(
    const float* d_in, size_t n_in, float* d_out, const depuncture_pattern& p, cudaStream_t stream)
{
    const uint64_t n_out = n_in / p.kept * 2 * p.period;
    if (n_out == 0)
        return;
    const uint64_t blocks = (n_out + 255) / 256;
    depuncture_kernel<<<unsigned(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(d_in, d_out,
                                                                                     n_out, p);
    GPUOFDM_CUDA_CHECK_LAUNCH(depuncture_kernel);
}

} // namespace gr::gpuofdm::core
