/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_OFDM_STAGE_CUDA_H
#define GPUOFDM_CORE_OFDM_STAGE_CUDA_H

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cuda_pinned.h"
#include "runtime/cufft_plans.h"
#include "ofdm/ofdm_stage.h"

#include <cstdint>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief What the CUDA OFDM stages share: the stream, buffers sized once for the batch,
 * batched cuFFT plans, the CP table on the device, and the staging loop of process().
 *
 * launch() is the device-resident half: it reads device_input() and writes
 * device_output() on stream(), so fused chains and the kernel-only benchmark call it
 * without host copies.
 */
class ofdm_cuda_stage : public ofdm_stage
{
public:
    device_spec device() const override { return d_device; }
    void process(const cfloat* in, cfloat* out, size_t n_symbols, uint64_t first) override;
    bool pin_host_range(const void* p, size_t bytes) override;
    void unpin_host_ranges() override;
    ~ofdm_cuda_stage() override { unpin_host_ranges(); }

    //! Enqueues the transform of n_symbols (<= layout().batch()) on stream().
    virtual void launch(size_t n_symbols, uint64_t first) = 0;
    cfloat* device_input() const { return d_in.get(); }
    cfloat* device_output() const { return d_out.get(); }
    cudaStream_t stream() const { return d_ctx->stream(); }
    //! Input and output items of n symbols starting at first.
    virtual size_t input_items(uint64_t first, size_t n) const = 0;
    virtual size_t output_items(uint64_t first, size_t n) const = 0;

protected:
    ofdm_cuda_stage(const ofdm_params& p, const device_spec& dev, bool forward);
    //! Makes dev current before the stream and buffers are created on it.
    static device_spec activate(const device_spec& dev);

    device_spec d_device;
    cuda_context_ptr d_ctx = make_cuda_context(d_device); //!< its own: the stage runs alone
    device_buffer<cfloat> d_in;
    device_buffer<cfloat> d_out;
    device_buffer<cfloat> d_bins;               //!< FFT input/output in symbol-major order
    device_buffer<unsigned long long> d_starts; //!< layout().period_starts() on the device
    pinned_buffer<cfloat> d_host_in;
    pinned_buffer<cfloat> d_host_out;
    std::unique_ptr<cufft_batch_plans> d_plans;

private:
    pinned_ranges d_pinned; //!< caller memory transfers go straight from / to
};


} // namespace gr::gpuofdm::core

#endif
