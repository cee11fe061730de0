/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_OFDM_SYNC_CC_IMPL_H
#define INCLUDED_GPUOFDM_OFDM_SYNC_CC_IMPL_H

#include "ofdm/ofdm_sync.h"
#include "runtime/stream_batcher.h"
#include <gnuradio/gpuofdm/ofdm_sync_cc.h>

#include <atomic>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

class ofdm_sync_cc_impl : public ofdm_sync_cc
{
public:
    //! \p params validated, \p sync made from them (core::make_ofdm_sync()).
    ofdm_sync_cc_impl(const core::ofdm_sync_params& params, std::unique_ptr<core::ofdm_sync> sync);

    std::string device() const override;
    std::string standard() const override { return core::to_string(d_params.standard); }
    float threshold() const override { return d_params.threshold; }
    int min_plateau() const override { return int(d_params.min_plateau); }
    int batch_samples() const override { return int(d_params.batch_samples); }
    double sample_rate() const override { return d_params.sample_rate; }
    int lookback() const override { return int(d_lookback); }
    uint64_t frames_detected() const override { return d_frames_out.load(); }

    bool start() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    using frame = core::ofdm_sync_frame;

    //! The batcher's calls: samples into d_buf, and search().
    core::stream_detector<frame> stream_hooks();
    /*!
     * Runs the synchronizer on the batch (in d_buf); appends to \p out the frames that
     * come after the last one (logging those that do not), and returns where the search
     * resumes. A failed call is logged and finds nothing.
     */
    core::batch_decision search(const core::stream_batch& b, std::vector<frame>& out);
    //! Writes d_buf's samples from stream index out_abs, n of them, derotated to out, with
    //! the tags and messages of the frames starting there.
    void emit(gr_complex* out, uint64_t out_abs, size_t n);
    pmt::pmt_t frame_dict(const frame& f) const;

    const core::ofdm_sync_params d_params;
    std::unique_ptr<core::ofdm_sync> d_sync; //!< the standard's synchronizer: CPU twin or CUDA
    const size_t d_lookback;
    const pmt::pmt_t d_tag_key, d_port;
    //! Batches of batch_samples, the last lookback() samples of each searched again.
    core::stream_batcher<frame> d_batcher;

    //! Samples read and not yet output, and the batch held: [d_buf_start, d_ingested).
    std::vector<gr_complex> d_buf;
    uint64_t d_buf_start = 0;     //!< stream index of d_buf[0]
    uint64_t d_ingested = 0;      //!< stream index after the last sample read
    uint64_t d_decided = 0;       //!< samples before this are final (may be output)
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
