/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIFI_TX_IMPL_H
#define INCLUDED_GPUOFDM_WIFI_TX_IMPL_H

#include "wifi/wifi_tx.h"
#include "burst_queue.h"
#include <gr-gpuofdm/wifi_tx.h>

#include <atomic>
#include <memory>

namespace gr {
namespace gpuofdm {

//! What make() checked, handed to the constructor.
struct wifi_tx_config {
    int rate;
    int seed;
    int gap_samples;
    float scale;
    int max_frames_per_batch;
};

class wifi_tx_impl : public wifi_tx
{
public:
    wifi_tx_impl(const wifi_tx_config& cfg, const std::string& device);

    std::string device() const override { return d_tx->device().to_string(); }
    uint64_t frames_sent() const override { return d_queue.sent(); }
    uint64_t pdus_dropped() const override { return d_pdus_dropped.load(); }
    void set_rate(int rate) override;
    int rate() const override { return d_rate.load(); }
    void set_seed(int seed) override;
    int seed() const override { return d_seed.load(); }
    int gap_samples() const override { return int(d_gap); }
    float scale() const override { return d_tx->params().scale; }
    int max_frames_per_batch() const override { return int(d_max_batch); }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    using queue = burst_queue<core::wifi_frame_request>;

    //! The "pdus" handler: checks the PDU and queues it, or logs and counts a drop.
    void handle_pdu(const pmt::pmt_t& msg);
    void drop(const std::string& why);

    std::unique_ptr<core::wifi_tx> d_tx; //!< CPU twin or CUDA backend
    const size_t d_gap;
    const size_t d_max_batch;
    std::atomic<int> d_rate;
    std::atomic<int> d_seed;
    int d_next_seed = 1; //!< the incrementing seed (seed 0), handler thread
    std::atomic<uint64_t> d_pdus_dropped{ 0 };
    queue d_queue; //!< checked frames, and the writer of the output
};

} // namespace gpuofdm
} // namespace gr

#endif
