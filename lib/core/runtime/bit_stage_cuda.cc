/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/bit_stage_cuda.h"

#include <cstring>

namespace gr::gpuofdm::core {

cuda_bit_staging::cuda_bit_staging(const device_spec& dev,
                                   size_t max_in_bytes,
                                   size_t max_out_bytes)
    : d_device(activate(dev)), d_in(max_in_bytes), d_out(max_out_bytes), d_host_in(max_in_bytes),
      d_host_out(max_out_bytes)
{
}

device_spec cuda_bit_staging::activate(const device_spec& dev)
{
    use_device(dev.cuda_index);
    return dev;
}

void cuda_bit_staging::run(const void* in,
                           size_t in_bytes,
                           void* out,
                           size_t out_bytes,
                           const std::function<void()>& launch)
{
    use_device(d_device.cuda_index);
    // Pinned staging so the copies are truly async on the stage's stream.
    if (in_bytes) {
        std::memcpy(d_host_in.get(), in, in_bytes);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), d_host_in.get(), in_bytes,
                                           cudaMemcpyHostToDevice, d_ctx->stream()));
    }
    launch();
    if (out_bytes)
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_out.get(), d_out.get(), out_bytes,
                                           cudaMemcpyDeviceToHost, d_ctx->stream()));
    d_ctx->synchronize();
    if (out_bytes)
        std::memcpy(out, d_host_out.get(), out_bytes);
}

} // namespace gr::gpuofdm::core
