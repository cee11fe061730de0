/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/cuda_pinned.h"
#include "runtime/cuda_check.h"

namespace gr::gpuofdm::core {

bool pinned_ranges::pin(const void* p, size_t bytes)
{
    use_device(d_cuda_index);
    const cudaError_t err = cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterDefault);
    if (err != cudaSuccess)
        cudaGetLastError(); // clear it, or the next launch check reports it as its own
    if (err != cudaSuccess && err != cudaErrorHostMemoryAlreadyRegistered)
        return false;
    const auto* c = static_cast<const char*>(p);
    d_ranges.push_back({ c, c + bytes, err == cudaSuccess });
    return true;
}

void pinned_ranges::clear()
{
    for (const auto& r : d_ranges)
        if (r.owned)
            cudaHostUnregister(const_cast<char*>(r.begin));
    d_ranges.clear();
}

bool pinned_ranges::contains(const void* p, size_t bytes) const
{
    const auto* c = static_cast<const char*>(p);
    for (const auto& r : d_ranges)
        if (c >= r.begin && c + bytes <= r.end)
            return true;
    return false;
}

} // namespace gr::gpuofdm::core
