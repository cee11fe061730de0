/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CUDA_CONTEXT_H
#define GPUOFDM_CORE_CUDA_CONTEXT_H

// The CUDA context of a chain: what every CUDA stage of one composed chain shares.
//
// What it owns: the device (activate() makes it current for the calling thread), ONE
// non-blocking stream, and a scratch allocation that grows on demand (reserve it when a
// stage is built, so the hot path never allocates).
//
// Who creates it: a composed chain (the CUDA wifi_rx and wimax_rx today) creates one with
// make_cuda_context() and hands it to every CUDA stage it builds (the `ctx` argument of
// the stages' factories, cuda_context_ptr in runtime/device.h); the stages share it
// (shared_ptr), so it lives as long as the last of them. A stage created alone (ctx
// null) makes its own (cuda_context::for_stage). One host thread drives a chain at a time.
//
// The rule: stages ENQUEUE their work on stream() and never synchronize inside a chain;
// a stage waits (synchronize()) only where the host needs a result (detections, decoded
// bits, the few scalars the host decides with). Work on another stream (another chain,
// a library's own) joins through events: record() on one side, wait() on the other.
//
// One way to run a stage on data already on the device: a CUDA stage that a chain
// composes has entry points that take device pointers and queue the work on its
// context's stream, after what the caller queued there (so the caller never waits for
// its own work first): `enqueue_*()` (and the OFDM stages' launch()) return at once;
// `*_device()` (wifi_sync::detect_device, wimax_sync::detect_device,
// wifi_decoder::process_device, viterbi_decoder::decode_window_device) return what the
// host needs (detections, decoded bits) and wait for that only. The host-memory path
// (process(), run(), detect(): stage in, enqueue, wait, copy out) is built on the same
// kernels.

#include "runtime/cuda_check.h"
#include "runtime/device.h"

#include <cstddef>
#include <memory>

namespace gr::gpuofdm::core {

//! An event for joining streams (no timing).
class cuda_event
{
public:
    cuda_event() { GPUOFDM_CUDA_CHECK(cudaEventCreateWithFlags(&d_event, cudaEventDisableTiming)); }
    ~cuda_event() { cudaEventDestroy(d_event); }
    cuda_event(const cuda_event&) = delete;
    cuda_event& operator=(const cuda_event&) = delete;

    cudaEvent_t get() const { return d_event; }

private:
    cudaEvent_t d_event = nullptr;
};

/*!
 * \brief One CUDA device, one stream and a scratch allocation, shared by the CUDA stages
 * of one chain (see the top of this file).
 */
class cuda_context
{
public:
    /*!
     * \brief Activates \p dev (a CUDA device) and creates the stream on it; with
     * \p high_priority the device's highest stream priority, so its kernels are started
     * before those of default streams waiting beside them (a chain that feeds another
     * running on its own stream).
     */
    explicit cuda_context(const device_spec& dev, bool high_priority = false);
    cuda_context(const cuda_context&) = delete;
    cuda_context& operator=(const cuda_context&) = delete;

    /*!
     * \brief The context a stage runs on: \p ctx when given (it must be on \p dev's
     * device; throws std::invalid_argument otherwise), else a new one of the stage's own.
     * Either way the device is made current for the calling thread, so the stage's
     * buffers are allocated on it.
     */
    static cuda_context_ptr for_stage(const device_spec& dev, const cuda_context_ptr& ctx);

    const device_spec& device() const { return d_device; }
    //! Makes the device current for the calling thread (GNU Radio runs each block in its own).
    void activate() const { use_device(d_device.cuda_index); }
    cudaStream_t stream() const { return d_stream.get(); }
    //! Waits for everything queued on the stream: only where the host needs a result.
    void synchronize() const { d_stream.synchronize(); }

    //! Marks the point the stream has reached in \p ev.
    void record(const cuda_event& ev) const;
    //! Work queued on the stream from now on waits for \p ev (recorded on any stream).
    void wait(const cuda_event& ev) const;

    /*!
     * \brief Device memory of at least \p bytes, shared by the chain's stages for what
     * lives only inside one enqueued step (its contents are not kept between steps).
     * Grows (after waiting for the stream, since queued work may still use the old
     * memory) when it is too small: call it with the largest size when the stage is built,
     * then the hot path only reads the pointer. The pointer stays valid until a call that
     * grows it.
     */
    void* scratch(size_t bytes);
    size_t scratch_bytes() const { return d_scratch.size(); }

private:
    device_spec d_device;
    cuda_stream d_stream;
    device_buffer<unsigned char> d_scratch;
};

//! A context for \p dev (a CUDA device), to hand to the stages of one chain.
cuda_context_ptr make_cuda_context(const device_spec& dev, bool high_priority = false);

} // namespace gr::gpuofdm::core

#endif
