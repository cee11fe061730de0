/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ofdm/ofdm_stage_cuda.h"

#include <algorithm>
#include <cstring>

namespace gr::gpuofdm::core {

ofdm_cuda_stage::ofdm_cuda_stage(const ofdm_params& p, const device_spec& dev, bool forward)
    : ofdm_stage(p), d_device(activate(dev)), d_pinned(dev.cuda_index)
{
    const size_t batch = d_layout.batch();
    const size_t n = d_layout.fft_len();
    // The longest batch of samples: batch symbols that all carry the longest CP.
    const size_t samples = batch * d_layout.max_symbol_len();
    const size_t in_len = forward ? samples : batch * n;
    const size_t out_len = forward ? batch * n : samples;
    d_in = device_buffer<cfloat>(in_len);
    d_out = device_buffer<cfloat>(out_len);
    d_host_in = pinned_buffer<cfloat>(in_len);
    d_host_out = pinned_buffer<cfloat>(out_len);
    const auto& starts = d_layout.period_starts();
    d_starts = device_buffer<unsigned long long>(starts.size());
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_starts.get(), starts.data(), starts.size() * sizeof(starts[0]),
                                  cudaMemcpyHostToDevice));
    d_plans = std::make_unique<cufft_batch_plans>(n, batch, d_ctx->stream());
}

device_spec ofdm_cuda_stage::activate(const device_spec& dev)
{
    use_device(dev.cuda_index);
    return dev;
}

bool ofdm_cuda_stage::pin_host_range(const void* p, size_t bytes) { return d_pinned.pin(p, bytes); }

void ofdm_cuda_stage::unpin_host_ranges() { d_pinned.clear(); }

void ofdm_cuda_stage::process(const cfloat* in, cfloat* out, size_t n_symbols, uint64_t first)
{
    use_device(d_device.cuda_index);
    while (n_symbols > 0) {
        const size_t k = std::min(n_symbols, d_layout.batch());
        const size_t in_bytes = input_items(first, k) * sizeof(cfloat);
        const size_t out_bytes = output_items(first, k) * sizeof(cfloat);
        // Pinned caller memory goes straight over PCIe; other memory through our staging.
        const bool direct_in = d_pinned.contains(in, in_bytes);
        const bool direct_out = d_pinned.contains(out, out_bytes);
        if (!direct_in)
            std::memcpy(d_host_in.get(), in, in_bytes);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), direct_in ? in : d_host_in.get(), in_bytes,
                                           cudaMemcpyHostToDevice, stream()));
        launch(k, first);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(direct_out ? out : d_host_out.get(), d_out.get(),
                                           out_bytes, cudaMemcpyDeviceToHost, stream()));
        d_ctx->synchronize();
        if (!direct_out)
            std::memcpy(out, d_host_out.get(), out_bytes);
        in += in_bytes / sizeof(cfloat);
        out += out_bytes / sizeof(cfloat);
        first += k;
        n_symbols -= k;
    }
}

} // namespace gr::gpuofdm::core
