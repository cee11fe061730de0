/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_OFDM_SYNC_CC_IMPL_H
#define INCLUDED_GPUOFDM_OFDM_SYNC_CC_IMPL_H

#include "wifi/wifi_sync.h"
#include "wimax/wimax_rx.h"
#include <gr-gpuofdm/ofdm_sync_cc.h>

#include <atomic>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

//! What make() checked, handed to the constructor.
struct ofdm_sync_config {
    bool wimax = false; //!< 802.16 (else 802.11a)
    float threshold = 0.56f;
    int min_plateau = 32;
    int batch_samples = 65536;
    double sample_rate = 20e6;
    int cp_div = 4;
};

class ofdm_sync_cc_impl : public ofdm_sync_cc
{
public:
    ofdm_sync_cc_impl(const ofdm_sync_config& cfg,
                      std::unique_ptr<core::wifi_sync> wifi,
                      std::unique_ptr<core::wimax_sync> wimax);

    std::string device() const override;
    std::string standard() const override { return d_cfg.wimax ? "802.16" : "802.11a"; }
    float threshold() const override { return d_cfg.threshold; }
    int min_plateau() const override { return d_cfg.min_plateau; }
    int batch_samples() const override { return d_cfg.batch_samples; }
    double sample_rate() const override { return d_cfg.sample_rate; }
    int lookback() const override { return int(d_lookback); }
    uint64_t frames_detected() const override { return d_frames_out.load(); }

    bool start() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    //! A frame found and not yet output through its start.
    struct frame {
        uint64_t start;     //!< stream index of its first sample (the phase reference)
        uint64_t ltf_start; //!< see the header: T1 (802.11a), the second symbol (802.16)
        double cfo;         //!< rad/sample
        float metric, ltf_metric;
    };

    //! Runs the synchronizer on d_buf[d_head ..) (stream index buf_abs); appends the new
    //! frames. False when the call failed (logged).
    bool search(uint64_t buf_abs);
    //! Writes d_buf[d_head .. d_head + n) derotated to out (stream indices from out_abs),
    //! with the tags and messages of the frames starting there.
    void emit(gr_complex* out, uint64_t out_abs, size_t n);
    pmt::pmt_t frame_dict(const frame& f) const;
    //! Sleeps until the upstream writes more or finishes (at most 100 ms).
    void wait_for_input();

    const ofdm_sync_config d_cfg;
    std::unique_ptr<core::wifi_sync> d_wifi;   //!< 802.11a: CPU twin or CUDA
    std::unique_ptr<core::wimax_sync> d_wimax; //!< 802.16: CPU twin or CUDA
    const size_t d_lookback;
    const pmt::pmt_t d_tag_key, d_port;

    //! Samples read: d_buf[d_head ..) are those not yet output, [nitems_written, d_ingested).
    std::vector<gr_complex> d_buf;
    size_t d_head = 0;
    uint64_t d_ingested = 0;      //!< stream index after the last sample copied into d_buf
    uint64_t d_searched = 0;      //!< d_ingested at the last search
    uint64_t d_decided = 0;       //!< samples before this are final (may be output)
    uint64_t d_next_search = 0;   //!< no frame starts before this (search_from)
    std::deque<frame> d_frames;   //!< found, start not yet output (increasing start)
    std::deque<gr::tag_t> d_tags; //!< input tags of read samples, not yet output
    bool d_active = false;        //!< a frame's CFO is being removed
    uint64_t d_active_start = 0;
    double d_active_cfo = 0.0;
    int d_failures = 0; //!< failed synchronizer calls in a row
    std::atomic<uint64_t> d_frames_out{ 0 };
};

} // namespace gpuofdm
} // namespace gr

#endif
