/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIMAX_TX_IMPL_H
#define INCLUDED_GPUOFDM_WIMAX_TX_IMPL_H

#include "wimax/wimax_tx.h"
#include "block_params.h"
#include "burst_queue.h"
#include <gnuradio/gpuofdm/wimax_tx.h>

#include <atomic>
#include <memory>

namespace gr {
namespace gpuofdm {

//! What make() checked, handed to the constructor.
struct wimax_tx_config {
    int rate_id;
    int cp_div;
    core::wimax_preamble preamble;
    bool uplink;
    bool pad;
    int seed;
    int gap_samples;
    float scale;
    int max_bursts_per_batch;
};

class wimax_tx_impl : public pdu_burst_block<wimax_tx, core::wimax_tx, core::wimax_burst_request>
{
public:
    wimax_tx_impl(const wimax_tx_config& cfg, const std::string& device);
    //! The core transmitter's parameters for \p cfg (their validate() holds the ranges).
    static core::wimax_tx_params core_params(const wimax_tx_config& cfg);

    uint64_t bursts_sent() const override { return sent(); }
    void set_rate_id(int rate_id) override;
    int rate_id() const override { return d_rate.load(); }
    void set_seed(int seed) override;
    int seed() const override { return d_seed.load(); }
    int cp_div() const override { return d_tx->params().cp_div; }
    int max_bursts_per_batch() const override { return int(d_max_batch); }

private:
    void handle_pdu(const pmt::pmt_t& msg) override;

    std::atomic<int> d_rate;
    std::atomic<int> d_seed;
};

} // namespace gpuofdm
} // namespace gr

#endif
