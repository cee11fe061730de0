/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_SAMPLE_CHUNKS_H
#define INCLUDED_GPUOFDM_SAMPLE_CHUNKS_H

// Where a receiver block's work() puts its input samples for the feed thread
// (rx_stream_end.h): chunks taken in turn, either host memory the samples are copied into,
// or, for a CUDA receiver whose GNU Radio input buffer is page-locked, device memory they
// are uploaded to straight from that buffer (no host copy).

#include <gnuradio/buffer.h>
#include <gnuradio/gr_complex.h>

#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#ifdef GPUOFDM_HAVE_CUDA
#include "block_pin_util.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_pinned.h"
#endif

namespace gr {
namespace gpuofdm {

/*!
 * \brief Chunks of samples handed between work() and the feed thread; acquire() waits
 * while every chunk is taken (the back-pressure on the upstream).
 */
class chunk_pool
{
public:
    virtual ~chunk_pool() = default;
    chunk_pool(const chunk_pool&) = delete;
    chunk_pool& operator=(const chunk_pool&) = delete;

    size_t chunk_samples() const { return d_samples; }

    gr_complex* acquire()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        d_released.wait(lock, [this] { return !d_free.empty(); });
        gr_complex* c = d_free.back();
        d_free.pop_back();
        return c;
    }

    void release(gr_complex* c)
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_free.push_back(c);
        }
        d_released.notify_one();
    }

    //! The \p n samples at \p x become samples [at, at + n) of chunk \p c.
    virtual void fill(gr_complex* c, size_t at, const gr_complex* x, size_t n) = 0;
    //! Returns once every fill() has landed: x may be overwritten, the chunks read.
    virtual void wait_fills() {}
    //! True: the chunks are device memory (a receiver's process_device() reads them).
    virtual bool on_device() const { return false; }

protected:
    explicit chunk_pool(size_t chunk_samples) : d_samples(chunk_samples) {}
    //! The chunks, \p n of them, chunk_samples() apart from \p base.
    void add_chunks(gr_complex* base, size_t n)
    {
        for (size_t i = 0; i < n; i++)
            d_free.push_back(base + i * d_samples);
    }

private:
    const size_t d_samples;
    std::mutex d_mutex;
    std::condition_variable d_released;
    std::vector<gr_complex*> d_free;
};

//! Chunks of host memory of the pool's own; fill() is a memcpy.
class sample_chunks : public chunk_pool
{
public:
    sample_chunks(size_t chunk_samples, size_t n_chunks)
        : chunk_pool(chunk_samples), d_mem(chunk_samples * n_chunks)
    {
        add_chunks(d_mem.data(), n_chunks);
    }

    //! All chunks, one range (to page-lock).
    gr_complex* memory() { return d_mem.data(); }
    size_t bytes() const { return d_mem.size() * sizeof(gr_complex); }

    void fill(gr_complex* c, size_t at, const gr_complex* x, size_t n) override
    {
        std::memcpy(c + at, x, n * sizeof(gr_complex));
    }

private:
    std::vector<gr_complex> d_mem;
};

#ifdef GPUOFDM_HAVE_CUDA
/*!
 * \brief Chunks of device memory filled by DMA straight from a page-locked GNU Radio
 * buffer, on an upload stream of their own (the receiver's stream may be busy decoding);
 * wait_fills() waits for those copies only.
 */
class device_sample_chunks : public chunk_pool
{
public:
    //! Allocates on CUDA device \p cuda_index (throws core::cuda_error when it cannot).
    device_sample_chunks(int cuda_index, size_t chunk_samples, size_t n_chunks)
        : chunk_pool(chunk_samples), d_cuda_index(cuda_index), d_pinned(cuda_index)
    {
        core::use_device(cuda_index);
        d_mem = core::device_buffer<gr_complex>(chunk_samples * n_chunks);
        d_upload = std::make_unique<core::cuda_stream>();
        add_chunks(d_mem.get(), n_chunks);
    }

    ~device_sample_chunks() override
    {
        // No copy may read the buffer after it is released.
        if (d_upload)
            (void)cudaStreamSynchronize(d_upload->get());
    }

    /*!
     * Page-locks GNU Radio buffer \p buf (both views of a double-mapped one) for the
     * uploads; false when CUDA refuses (the block then copies into host chunks).
     */
    bool pin_input(const gr::buffer_sptr& buf)
    {
        core::use_device(d_cuda_index);
        return pin_buffer(buf, sizeof(gr_complex),
                          [this](const void* p, size_t bytes) { return d_pinned.pin(p, bytes); });
    }

    //! Undoes pin_input() once the uploads queued have landed.
    void unpin()
    {
        core::use_device(d_cuda_index);
        d_upload->synchronize();
        d_pending = false;
        d_pinned.clear();
    }

    void fill(gr_complex* c, size_t at, const gr_complex* x, size_t n) override
    {
        // From page-locked memory this is a DMA that returns at once; from memory that is
        // not (a buffer GNU Radio reallocated), the driver stages it: slower, still right.
        core::use_device(d_cuda_index);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(c + at, x, n * sizeof(gr_complex),
                                           cudaMemcpyHostToDevice, d_upload->get()));
        d_pending = true;
    }

    void wait_fills() override
    {
        if (!d_pending)
            return;
        d_upload->synchronize();
        d_pending = false;
    }

    bool on_device() const override { return true; }

private:
    const int d_cuda_index;
    core::pinned_ranges d_pinned; //!< GNU Radio's input buffer
    core::device_buffer<gr_complex> d_mem;
    std::unique_ptr<core::cuda_stream> d_upload;
    bool d_pending = false; //!< copies queued since the last wait_fills() (work()'s thread)
};
#endif

} // namespace gpuofdm
} // namespace gr

#endif
