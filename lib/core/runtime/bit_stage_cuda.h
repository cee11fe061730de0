/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_BIT_STAGE_CUDA_H
#define GPUOFDM_CORE_BIT_STAGE_CUDA_H

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/device.h"

#include <functional>

namespace gr::gpuofdm::core {

/*!
 * \brief The host side every CUDA bit stage shares: one non-blocking stream, device and
 * pinned staging buffers allocated once for the largest batch, and the copy-in, launch,
 * copy-out sequence of one batch.
 *
 * Buffers are raw bytes so one stage can move bits (uint8_t) and soft values (float)
 * through the same allocation.
 */
class cuda_bit_staging
{
public:
    cuda_bit_staging(const device_spec& dev, size_t max_in_bytes, size_t max_out_bytes);

    //! Copies in_bytes to device_in(), calls launch(), copies out_bytes of device_out()
    //! back into out and waits for the stream.
    void run(const void* in,
             size_t in_bytes,
             void* out,
             size_t out_bytes,
             const std::function<void()>& launch);

    template <typename T>
    T* device_in() const
    {
        return reinterpret_cast<T*>(d_in.get());
    }
    template <typename T>
    T* device_out() const
    {
        return reinterpret_cast<T*>(d_out.get());
    }
    cudaStream_t stream() const { return d_ctx->stream(); }
    const device_spec& device() const { return d_device; }

private:
    static device_spec activate(const device_spec& dev);

    device_spec d_device;
    cuda_context_ptr d_ctx = make_cuda_context(d_device); //!< its own: the stage runs alone
    device_buffer<unsigned char> d_in;
    device_buffer<unsigned char> d_out;
    pinned_buffer<unsigned char> d_host_in;
    pinned_buffer<unsigned char> d_host_out;
};

//! Blocks of 256 threads covering n items, capped so the grid stays valid (kernels stride).
inline unsigned int grid_for(size_t n)
{
    const size_t blocks = (n + 255) / 256;
    return unsigned(blocks < 65535 * 16 ? (blocks ? blocks : 1) : 65535 * 16);
}

//! The grid of a runs launch: x covers the longest run (256 threads a block, strided),
//! y the runs (strided past 65535).
inline dim3 runs_grid(size_t max_n, size_t n_runs)
{
    return dim3(grid_for(max_n), unsigned(n_runs < 65535 ? (n_runs ? n_runs : 1) : 65535));
}

} // namespace gr::gpuofdm::core

#endif
