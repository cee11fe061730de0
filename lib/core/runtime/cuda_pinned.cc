/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/cuda_pinned.h"
#include "runtime/cuda_check.h"

#include <mutex>

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

/*!
 * The registrations of the whole process. Blocks of one flowgraph pin the same GNU Radio
 * buffers (a writer's output is each reader's input), so one block's stop() must not
 * unregister memory another block still copies from: a range is registered once, counted,
 * and unregistered by its last user.
 */
struct registration {
    const char* begin;
    const char* end;
    int users;
};
std::mutex registrations_mutex;
std::vector<registration> registrations;

} // namespace

bool pinned_ranges::pin(const void* p, size_t bytes)
{
    if (bytes == 0)
        return false;
    const auto* c = static_cast<const char*>(p);
    std::lock_guard<std::mutex> lock(registrations_mutex);
    use_device(d_cuda_index);
    for (auto& r : registrations) {
        if (c >= r.begin && c + bytes <= r.end) {
            r.users++;
            d_ranges.push_back({ c, c + bytes, r.begin });
            return true;
        }
        if (c < r.end && r.begin < c + bytes)
            return false; // a partial overlap: left pageable (copies are staged)
    }
    if (page_locked(c) && page_locked(c + bytes - 1)) {
        d_ranges.push_back({ c, c + bytes, nullptr }); // cudaMallocHost'ed or pinned elsewhere
        return true;
    }
    if (cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterDefault) != cudaSuccess) {
        cudaGetLastError(); // clear it, or the next launch check reports it as its own
        return false;
    }
    registrations.push_back({ c, c + bytes, 1 });
    d_ranges.push_back({ c, c + bytes, c });
    return true;
}

void pinned_ranges::clear()
{
    std::lock_guard<std::mutex> lock(registrations_mutex);
    for (const auto& held : d_ranges) {
        if (!held.registration)
            continue;
        for (auto r = registrations.begin(); r != registrations.end(); ++r) {
            if (r->begin == held.registration) {
                if (--r->users == 0) {
                    use_device(d_cuda_index);
                    cudaHostUnregister(const_cast<char*>(r->begin));
                    registrations.erase(r);
                }
                break;
            }
        }
    }
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
