/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/cuda_context.h"

#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

//! Makes dev current before the stream is created on it.
const device_spec& activated(const device_spec& dev)
{
    if (!dev.is_cuda())
        throw std::invalid_argument("cuda_context: a CUDA device, got " + dev.to_string());
    use_device(dev.cuda_index);
    return dev;
}

int stream_priority(bool high)
{
    int least = 0, greatest = 0;
    if (high) {
        GPUOFDM_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    }
    return high ? greatest : 0;
}

} // namespace

cuda_context::cuda_context(const device_spec& dev, bool high_priority)
    : d_device(activated(dev)), d_stream(stream_priority(high_priority))
{
}

cuda_context_ptr cuda_context::for_stage(const device_spec& dev, const cuda_context_ptr& ctx)
{
    if (!ctx)
        return std::make_shared<cuda_context>(dev);
    if (!dev.is_cuda() || ctx->device().cuda_index != dev.cuda_index)
        throw std::invalid_argument("ctx: a context of " + dev.to_string() + ", got one of " +
                                    ctx->device().to_string());
    ctx->activate();
    return ctx;
}

void cuda_context::record(const cuda_event& ev) const
{
    GPUOFDM_CUDA_CHECK(cudaEventRecord(ev.get(), d_stream.get()));
}

void cuda_context::wait(const cuda_event& ev) const
{
    GPUOFDM_CUDA_CHECK(cudaStreamWaitEvent(d_stream.get(), ev.get(), 0));
}

void* cuda_context::scratch(size_t bytes)
{
    if (d_scratch.size() < bytes) {
        activate();
        synchronize(); // queued work may still read or write the old memory
        d_scratch = device_buffer<unsigned char>();
        d_scratch = device_buffer<unsigned char>(bytes);
    }
    return d_scratch.get();
}

cuda_context_ptr make_cuda_context(const device_spec& dev, bool high_priority)
{
    return std::make_shared<cuda_context>(dev, high_priority);
}

} // namespace gr::gpuofdm::core
