/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_PFB_TIMING_SYNC_CCF_IMPL_H
#define INCLUDED_GPUOFDM_PFB_TIMING_SYNC_CCF_IMPL_H

#include "timing/pfb_timing_sync.h"
#include <gnuradio/gpuofdm/pfb_timing_sync_ccf.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

class pfb_timing_sync_ccf_impl : public pfb_timing_sync_ccf
{
public:
    pfb_timing_sync_ccf_impl(const core::pfb_timing_params& params,
                             std::unique_ptr<core::pfb_timing_sync> sync);

    std::string device() const override { return d_sync->device().to_string(); }
    std::string mode() const override { return core::to_string(d_params.mode); }
    float loop_bandwidth() const override { return d_params.loop_bw; }
    float alpha() const override { return d_sync->loop_consts().alpha; }
    float beta() const override { return d_sync->loop_consts().beta; }
    float error() const override { return d_state.loop.error; }
    float rate() const override { return d_state.loop.rate_f; }
    float phase() const override { return d_state.loop.k; }
    std::vector<std::vector<float>> taps() const override { return d_sync->banks().filters; }
    std::vector<std::vector<float>> diff_taps() const override
    {
        return d_sync->banks().diff_filters;
    }

    bool check_topology(int ninputs, int noutputs) override;
    bool start() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    //! general_work()'s body; general_work() stops the block on an exception.
    int guarded_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items);

public:
private:
    //! Moves the pending tags whose sample the symbols just made cover onto them (d_q_tags).
    void place_tags(size_t n_symbols);

    const core::pfb_timing_params d_params;
    std::unique_ptr<core::pfb_timing_sync> d_sync;
    const pmt::pmt_t d_time_est;
    core::pfb_timing_state d_state;
    std::vector<gr_complex> d_win;               //!< the window: stream from d_state.window_pos
    std::vector<core::timing_event_in> d_events; //!< time_est tags not yet passed
    std::deque<gr::tag_t> d_pending;             //!< other tags not yet placed
    std::vector<gr_complex> d_q;                 //!< symbols made, not yet output
    std::vector<float> d_qaux;                   //!< their err, rate, phase (outputs 1-3)
    size_t d_q_pos = 0, d_q_len = 0;             //!< d_q[d_q_pos, d_q_len) are pending
    bool d_q_full = false;                       //!< the last call filled d_q: more may come
    std::deque<std::pair<size_t, gr::tag_t>> d_q_tags; //!< tags at d_q indices
    std::vector<int64_t> d_symbol_pos;
    bool d_backlog = false;  //!< the last call filled its output: more may come without input
    bool d_finished = false; //!< the stream's end has been run
    int d_held = 0;          //!< samples at the input's front already in the window (0, 1)
};

} // namespace gpuofdm
} // namespace gr

#endif
