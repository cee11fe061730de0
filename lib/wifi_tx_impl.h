/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIFI_TX_IMPL_H
#define INCLUDED_GPUOFDM_WIFI_TX_IMPL_H

#include "wifi/wifi_tx.h"
#include "block_params.h"
#include "burst_queue.h"
#include <gnuradio/gpuofdm/wifi_tx.h>

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

class wifi_tx_impl : public pdu_burst_block<wifi_tx, core::wifi_tx, core::wifi_frame_request>
{
public:
    wifi_tx_impl(const wifi_tx_config& cfg, const std::string& device);
    //! The core transmitter's parameters for \p cfg (their validate() holds the ranges).
    static core::wifi_tx_params core_params(const wifi_tx_config& cfg);

    uint64_t frames_sent() const override { return sent(); }
    void set_rate(int rate) override;
    int rate() const override { return d_rate.load(); }
    void set_seed(int seed) override;
    int seed() const override { return d_seed.load(); }
    int max_frames_per_batch() const override { return int(d_max_batch); }

private:
    void handle_pdu(const pmt::pmt_t& msg) override;

    std::atomic<int> d_rate;
    std::atomic<int> d_seed;
    int d_next_seed = 1; //!< the incrementing seed (seed 0), handler thread
};

} // namespace gpuofdm
} // namespace gr

#endif
