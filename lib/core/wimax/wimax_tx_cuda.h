/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIMAX_TX_CUDA_H
#define GPUOFDM_CORE_WIMAX_TX_CUDA_H

// CUDA backend of the 802.16 transmitter (private to the core; the benchmark may include it
// for the device-resident half).

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cufft_plans.h"
#include "fec/scrambler.h"
#include "wimax/wimax_tx.h"

#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief The CUDA transmitter: every burst of a batch in one device-resident chain.
 *
 * Per batch: the burst table, the per-stage run tables and the data octets go to the device
 * in one H2D copy from pinned staging; then on stream(): the source bits (data, 0xFF pad,
 * tail; one kernel), the randomizer (launch_scramble, tail excluded), the RS encoder (one
 * thread per block, rs_encode_one of the CPU twin), the convolutional encoder with
 * puncturing (launch_conv_encode), the interleaver (launch_permute), the 802.16 mapper
 * writing straight onto the data subcarriers (launch_map), pilots and nulls (one kernel),
 * one batched inverse cuFFT over every data symbol of every burst, and one kernel writing
 * the preambles, cyclic prefixes and the scale; then one D2H copy.
 *
 * The device-resident half is public as in wifi_tx_cuda: stage(), launch() (re-runnable),
 * fetch() or device_output().
 */
class wimax_tx_cuda : public wimax_tx
{
public:
    wimax_tx_cuda(const wimax_tx_params& p, const device_spec& dev);
    using wimax_tx::process;
    using wimax_tx::process_bins;
    device_spec device() const override { return d_device; }
    void process(const wimax_burst_request* bursts, size_t n, cfloat* out) override;
    void process_bins(const wimax_burst_request* bursts, size_t n, cfloat* bins) override;
    //! Runs the burst alone through the device chain and copies its intermediates back.
    void trace(const wimax_burst_request& burst, wimax_burst_trace& out) override;

    //! How many of bursts[0..n) the next batch takes (at least 1 when n >= 1).
    size_t batch_size(const wimax_burst_request* bursts, size_t n) const;
    //! Validates and lays out bursts[0..n) and enqueues the batch's one H2D copy.
    void stage(const wimax_burst_request* bursts, size_t n);
    //! Enqueues the whole chain of the staged batch on stream(), into device_output().
    void launch();
    //! Enqueues the chain up to the subcarriers (no FFT), into device_bins().
    void launch_bins();
    //! Copies the staged batch's staged_samples() output samples to out (one D2H), waits.
    void fetch(cfloat* out);
    //! Copies the staged batch's staged_symbols() x 256 bins to out, waits.
    void fetch_bins(cfloat* out);

    size_t staged_bursts() const { return d_n_bursts; }
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
    device_buffer<uint8_t> d_seq;         //!< the randomizer's period table
    device_buffer<uint32_t> d_perm;       //!< interleaver tables (192/1, 384/2, 768/4, 1152/6)
    device_buffer<uint32_t> d_place;      //!< bin of data subcarrier d = 0..191
    device_buffer<uint8_t> d_w;           //!< pilot PRBS w_k, k = 0..2046
    device_buffer<cfloat> d_dev_preamble; //!< d_preamble
    std::vector<unsigned> d_perm_offset;  //!< per profile: its table in d_perm
    std::vector<conv_code> d_codes;       //!< per profile

    // Staging (burst table, run tables, data octets), one H2D per batch.
    size_t d_stage_bytes;
    pinned_buffer<unsigned char> d_host_stage;
    device_buffer<unsigned char> d_stage;

    // Work buffers, sized for d_max_symbols data symbols.
    device_buffer<uint8_t> d_src; //!< source bits, randomized in place
    device_buffer<uint8_t> d_rs;  //!< RS-encoded bits
    device_buffer<uint8_t> d_coded;
    device_buffer<uint8_t> d_interleaved;
    device_buffer<cfloat> d_bins;
    device_buffer<cfloat> d_time;
    device_buffer<cfloat> d_out;
    pinned_buffer<cfloat> d_host_out;
    pinned_buffer<uint8_t> d_host_bits; //!< trace() staging
    std::unique_ptr<cufft_batch_plans> d_plans;

    // The staged batch.
    size_t d_n_bursts = 0;
    size_t d_n_symbols = 0;
    size_t d_n_samples = 0;
    size_t d_n_src = 0, d_n_rs = 0, d_n_coded = 0; //!< bits in the batch's buffers
    size_t d_max_src = 0, d_max_rs = 0, d_max_coded = 0, d_max_blocks = 0, d_max_samples = 0;
    size_t d_off_scramble = 0, d_off_conv = 0, d_off_permute = 0, d_off_map = 0, d_off_data = 0;
};

} // namespace gr::gpuofdm::core

#endif
