/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/cuda_pinned.h"
#include "runtime/cuda_check.h"

namespace gr::gpuofdm::core {

namespace {

//! Whether \p p is page-locked host memory already (registered or cudaMallocHost'ed): asked,
//! not provoked, so no API error is raised (cudaPointerGetAttributes answers cudaSuccess
//! with type cudaMemoryTypeUnregistered for ordinary memory).
bool page_locked(const void* p)
{
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return a.type == cudaMemoryTypeHost;
}

} // namespace

bool pinned_ranges::pin(const void* p, size_t bytes)
{
    use_device(d_cuda_index);
    const auto* c = static_cast<const char*>(p);
    if (bytes > 0 && page_locked(c) && page_locked(c + bytes - 1)) {
        d_ranges.push_back({ c, c + bytes, false }); // someone else's: not ours to unregister
        return true;
    }
    const cudaError_t err = cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterDefault);
    if (err != cudaSuccess)
        cudaGetLastError(); // clear it, or the next launch check reports it as its own
    // Already registered is still possible for a range that only partly overlaps another.
    if (err != cudaSuccess && err != cudaErrorHostMemoryAlreadyRegistered)
        return false;
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
