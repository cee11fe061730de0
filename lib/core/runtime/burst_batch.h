/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_BURST_BATCH_H
#define GPUOFDM_CORE_BURST_BATCH_H

// The device-resident half of a CUDA burst transmitter (wifi_tx, wimax_tx), for fused
// chains and kernel-only timing: a CUDA backend made by make_wifi_tx() or make_wimax_tx()
// is also a device_burst_batch of its request type (dynamic_cast to reach it).

#include <complex>
#include <cstddef>

namespace gr::gpuofdm::core {

/*!
 * The most bursts (frames) a transmitter takes per batch, max_frames_per_batch /
 * max_bursts_per_batch: its buffers hold that many bursts' tables and octets, allocated
 * once (the PDU blocks expose the same range).
 */
constexpr size_t max_requests_per_batch = 4096;

/*!
 * \brief stage() a batch once, then launch() it (re-runnable on the same staged data; time
 * it with wait()) and fetch() its samples.
 *
 * \tparam Request the transmitter's request (wifi_frame_request, wimax_burst_request)
 */
template <typename Request>
class device_burst_batch
{
public:
    virtual ~device_burst_batch() = default;

    //! How many of requests[0..n) the next batch takes (at least 1 when n >= 1).
    virtual size_t batch_size(const Request* requests, size_t n) const = 0;
    /*!
     * Validates requests[0..n) (1 <= n <= batch_size(requests, n), else
     * std::invalid_argument), lays them out, fills the pinned staging and enqueues the
     * batch's one host-to-device copy.
     */
    virtual void stage(const Request* requests, size_t n) = 0;
    //! Enqueues the whole chain of the staged batch, into the device's output buffer.
    virtual void launch() = 0;
    //! Waits until everything enqueued is done.
    virtual void wait() = 0;
    //! Output samples of the staged batch.
    virtual size_t staged_samples() const = 0;
    //! Copies the staged batch's staged_samples() samples to \p out (one copy), waits.
    virtual void fetch(std::complex<float>* out) = 0;
};

} // namespace gr::gpuofdm::core

#endif
