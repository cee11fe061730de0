/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_PFB_TIMING_SYNC_MULTI_CCF_IMPL_H
#define INCLUDED_GPUOFDM_PFB_TIMING_SYNC_MULTI_CCF_IMPL_H

#include "timing/pfb_timing_sync.h"
#include <gnuradio/gpuofdm/pfb_timing_sync_multi_ccf.h>

#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

class pfb_timing_sync_multi_ccf_impl : public pfb_timing_sync_multi_ccf
{
public:
    pfb_timing_sync_multi_ccf_impl(const core::pfb_timing_params& params,
                                   std::unique_ptr<core::pfb_timing_sync> sync,
                                   bool vector_io);

    std::string device() const override { return d_sync->device().to_string(); }
    std::string mode() const override { return core::to_string(d_params.mode); }
    int n_channels() const override { return int(d_params.n_channels); }
    bool vector_io() const override { return d_vector; }
    float error(int c) const override { return state(c).loop.error; }
    float rate(int c) const override { return state(c).loop.rate_f; }
    float phase(int c) const override { return state(c).loop.k; }

    bool start() override;
    bool stop() override;
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
    //! general_work() of one vector port: transposed in, the channels' queues out.
    int work_vector(int noutput_items,
                    gr_vector_int& ninput_items,
                    gr_vector_const_void_star& input_items,
                    gr_vector_void_star& output_items);
    const core::pfb_timing_state& state(int c) const;
    //! Whether every input's upstream has finished and the call holds all it wrote.
    bool inputs_at_end(const gr_vector_int& ninput_items);

    const core::pfb_timing_params d_params;
    std::unique_ptr<core::pfb_timing_sync> d_sync;
    const bool d_vector;   //!< one vector port of n_channels instead of n_channels ports
    const size_t d_stride; //!< the rows' stride: max_input_samples
    std::vector<core::pfb_timing_state> d_state;
    std::vector<gr_complex> d_rows; //!< channel-major windows, row c from d_state[c].window_pos
    std::vector<size_t> d_len;      //!< samples in each row
    std::vector<int> d_held;        //!< per input: samples at its front already in the row
    std::vector<size_t> d_n_sym;
    std::vector<gr_complex> d_out; //!< channel-major symbols of one call, rows of d_out_row
    const size_t d_out_row;        //!< symbols (times osps) a channel's row holds
    std::vector<std::vector<gr_complex>> d_vq; //!< vector port: each channel's symbols queued
    bool d_backlog = false;
    bool d_finished = false;
};

} // namespace gpuofdm
} // namespace gr

#endif
