/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIMAX_TX_IMPL_H
#define INCLUDED_GPUOFDM_WIMAX_TX_IMPL_H

#include "core/wimax_tx.h"
#include <gr-gpuofdm/wimax_tx.h>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

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

class wimax_tx_impl : public wimax_tx
{
public:
    //! Most PDUs waiting in the block; more are dropped and counted.
    static constexpr size_t queue_limit = 8192;

    wimax_tx_impl(const wimax_tx_config& cfg, const std::string& device);

    std::string device() const override { return d_tx->device().to_string(); }
    uint64_t bursts_sent() const override { return d_frames_sent.load(); }
    uint64_t pdus_dropped() const override { return d_pdus_dropped.load(); }
    void set_rate_id(int rate_id) override;
    int rate_id() const override { return d_rate.load(); }
    void set_seed(int seed) override;
    int seed() const override { return d_seed.load(); }
    int cp_div() const override { return d_tx->params().cp_div; }
    int gap_samples() const override { return int(d_gap); }
    float scale() const override { return d_tx->params().scale; }
    int max_bursts_per_batch() const override { return int(d_max_batch); }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    //! A checked PDU waiting to be encoded.
    struct frame {
        std::vector<uint8_t> psdu; //!< the burst's data octets
        int rate;                  //!< rate_id
        size_t n_symbols;
        int seed;
        size_t n_samples; //!< the frame's samples, gap not counted
    };

    //! The "pdus" handler: checks the PDU and queues it, or logs and counts a drop.
    void handle_pdu(const pmt::pmt_t& msg);
    void drop(const std::string& why);
    //! Moves what the handler queued into d_frames (work thread only).
    void take_queued();
    //! Tag value of a burst: dict profile, n_bytes, n_symbols, seed, n_samples.
    static pmt::pmt_t start_tag_value(const frame& f);
    //! Writes what is left of the spill (a frame that did not fit) to out; returns items.
    size_t write_spill(gr_complex* out, size_t n, uint64_t first_item);

    std::unique_ptr<core::wimax_tx> d_tx; //!< CPU twin or CUDA backend
    const size_t d_gap;
    const size_t d_max_batch;
    std::atomic<int> d_rate;
    std::atomic<int> d_seed;
    
    std::mutex d_mutex;        //!< guards d_queue
    std::deque<frame> d_queue; //!< filled by the handler
    std::deque<frame> d_frames; //!< taken by general_work, not yet encoded
    std::atomic<uint64_t> d_frames_sent{ 0 };
    std::atomic<uint64_t> d_pdus_dropped{ 0 };

    std::vector<core::wimax_burst_request> d_requests;
    std::vector<size_t> d_packed; //!< each frame's first sample, frames back to back
    //! One encoded frame (and its gap) that did not fit the output buffer.
    std::vector<gr_complex> d_spill;
    size_t d_spill_pos = 0;
    pmt::pmt_t d_spill_tag;
    bool d_spill_tagged = false; //!< its wimax_start tag is out
};

} // namespace gpuofdm
} // namespace gr

#endif
