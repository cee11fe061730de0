/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_PFB_TIMING_SYNC_MULTI_CCF_H
#define INCLUDED_GPUOFDM_PFB_TIMING_SYNC_MULTI_CCF_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Polyphase symbol timing recovery of N independent channels in one call (one GPU
 * launch): N gr_complex inputs, as a pfb_channelizer_ccf delivers them, N symbol outputs.
 * \ingroup gpuofdm
 *
 * \details
 * Channel i (input i -> output i) runs the loop of pfb_timing_sync_ccf (the banks,
 * detector and loop of GNU Radio's pfb_clock_sync_ccf) with the same parameters for every
 * channel and a state of its own; on CUDA one warp per channel (per chunk in chunked mode).
 * The channels need not arrive at the same pace: each input is read and each output
 * written at its own rate.
 *
 * With vector_io, one input and one output port of n_channels-item vectors: output item t
 * holds symbol output t of every channel. The channels' symbol counts differ with their
 * clocks: an item is output once every channel has its symbol; at the end of the stream
 * the channels short of the longest are filled with zeros.
 *
 * Tags: input i's tags go to output i at their offset scaled by osps/sps (GNU Radio's
 * one-to-one propagation); time_est tags are not read (use pfb_timing_sync_ccf).
 */
class GPUOFDM_API pfb_timing_sync_multi_ccf : virtual public gr::block
{
public:
    typedef std::shared_ptr<pfb_timing_sync_multi_ccf> sptr;

    /*!
     * \param n_channels channels (input and output ports), 1..1024.
     * \param vector_io false: n_channels ports each way; true: one input and one output
     *        port of n_channels-item vectors (item t holds channels 0 .. n_channels-1).
     * The other parameters as pfb_timing_sync_ccf::make().
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter.
     */
    static sptr make(int n_channels,
                     double sps,
                     float loop_bw,
                     const std::vector<float>& taps,
                     unsigned int filter_size = 32,
                     float init_phase = 0,
                     float max_rate_deviation = 1.5,
                     int osps = 1,
                     const std::string& device = "auto",
                     const std::string& mode = "sequential",
                     int chunk_samples = 16384,
                     int warmup_samples = 4096,
                     bool vector_io = false);

    virtual std::string device() const = 0;
    virtual std::string mode() const = 0;
    virtual int n_channels() const = 0;
    virtual bool vector_io() const = 0;
    //! Channel \p c's loop after its last symbol: error, rate, phase.
    virtual float error(int c) const = 0;
    virtual float rate(int c) const = 0;
    virtual float phase(int c) const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_PFB_TIMING_SYNC_MULTI_CCF_H */
