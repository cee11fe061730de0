/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_TX_CUDA_H
#define GPUOFDM_CORE_WIFI_TX_CUDA_H

// CUDA backend of the 802.11a transmitter (private to the core; the benchmark includes it
// for the device-resident half).

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cufft_plans.h"
#include "fec/scrambler.h"
#include "wifi/wifi_tx.h"

#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief The CUDA transmitter: every frame of a batch in one device-resident chain.
 *
 * Per batch: the frame table, the per-stage run tables and the PSDU octets go to the device
 * in one H2D copy from pinned staging; then on stream(): the SIGNAL and DATA bits (one
 * kernel), the scrambler with tail zeroing (launch_scramble), the encoder with puncturing
 * (launch_conv_encode), the interleaver (launch_permute), the mapper writing straight into
 * the data subcarriers (launch_map), pilots and nulls (one kernel), one batched inverse
 * cuFFT over every SIGNAL and DATA symbol of every frame, and one kernel that writes the
 * preambles, the cyclic prefixes, the scale and the windowing into the frames; then one
 * D2H copy of all frames.
 *
 * The device-resident half is public for fused chains and kernel-only timing: stage() a
 * batch once, then launch() (re-runnable on the same staged data; time it with events on
 * stream()) and fetch(), or read device_output() directly.
 */
class wifi_tx_cuda : public wifi_tx
{
public:
    wifi_tx_cuda(const wifi_tx_params& p, const device_spec& dev);
    using wifi_tx::process;
    using wifi_tx::process_bins;
    device_spec device() const override { return d_device; }
    void process(const wifi_frame_request* frames, size_t n_frames, cfloat* out) override;
    void process_bins(const wifi_frame_request* frames, size_t n_frames, cfloat* bins) override;

    //! How many of frames[0..n) the next batch takes (at least 1 when n >= 1).
    size_t batch_size(const wifi_frame_request* frames, size_t n) const;
    /*!
     * Validates frames[0..n) (n <= batch_size(frames, n)), lays them out, fills the pinned
     * staging and enqueues the batch's one H2D copy on stream().
     */
    void stage(const wifi_frame_request* frames, size_t n);
    //! Enqueues the whole chain of the staged batch on stream(), into device_output().
    void launch();
    //! Enqueues the chain up to the subcarriers (no FFT), into device_bins().
    void launch_bins();
    //! Copies the staged batch's staged_samples() output samples to out (one D2H), waits.
    void fetch(cfloat* out);
    //! Copies the staged batch's staged_symbols() x 64 bins to out, waits.
    void fetch_bins(cfloat* out);

    size_t staged_frames() const { return d_n_frames; }
    size_t staged_symbols() const { return d_n_symbols; }
    size_t staged_samples() const { return d_n_samples; }
    cudaStream_t stream() const { return d_ctx->stream(); }
    const cfloat* device_output() const { return d_out.get(); }
    const cfloat* device_bins() const { return d_bins.get(); }

private:
    static device_spec activate(const device_spec& dev);

    device_spec d_device;
    cuda_context_ptr d_ctx = make_cuda_context(d_device); //!< its own: the stage runs alone
    lfsr_period_table d_table;

    // Constant tables on the device.
    device_buffer<uint8_t> d_seq;         //!< the scrambler's period table
    device_buffer<uint32_t> d_perm;       //!< the 4 interleaver tables (48/1, 96/2, 192/4, 288/6)
    device_buffer<uint32_t> d_place;      //!< bin of data subcarrier k = 0..47
    device_buffer<cfloat> d_dev_preamble; //!< d_preamble (321 samples)
    std::vector<unsigned> d_perm_offset;  //!< per rate: its table in d_perm (SIGNAL: rate 6's)
    std::vector<conv_code> d_codes;       //!< per rate
    conv_code d_signal_code;              //!< rate 1/2

    // Staging (frame table, run tables, PSDU octets), one H2D per batch.
    size_t d_stage_bytes;
    pinned_buffer<unsigned char> d_host_stage;
    device_buffer<unsigned char> d_stage;

    // Work buffers, sized for max_frames_per_batch frames of d_max_symbols symbols.
    device_buffer<uint8_t> d_bits;
    device_buffer<uint8_t> d_coded;
    device_buffer<uint8_t> d_interleaved;
    device_buffer<cfloat> d_bins;
    device_buffer<cfloat> d_time;
    device_buffer<cfloat> d_out;
    pinned_buffer<cfloat> d_host_out;
    std::unique_ptr<cufft_batch_plans> d_plans;

    // The staged batch.
    size_t d_n_frames = 0;
    size_t d_n_symbols = 0;
    size_t d_n_samples = 0;
    size_t d_max_bits = 0;  //!< most SIGNAL + DATA bits of a frame
    size_t d_max_coded = 0; //!< most DATA coded bits of a frame
    size_t d_max_symbols_frame = 0;
    size_t d_max_samples = 0; //!< most samples of a frame
    size_t d_off_scramble = 0, d_off_conv = 0, d_off_permute = 0, d_off_map = 0, d_off_psdu = 0;
};

} // namespace gr::gpuofdm::core

#endif
