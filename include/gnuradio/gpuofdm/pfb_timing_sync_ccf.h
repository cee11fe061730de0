/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_PFB_TIMING_SYNC_CCF_H
#define INCLUDED_GPUOFDM_PFB_TIMING_SYNC_CCF_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Polyphase symbol timing recovery (CPU twin or CUDA), a drop-in for GNU Radio's
 * digital.pfb_clock_sync_ccf.
 * \ingroup gpuofdm
 *
 * \details
 * The banks are built from \p taps (a matched filter designed at filter_size*sps) as
 * pfb_clock_sync_ccf builds them: filter i holds taps[i + j*filter_size]; the derivative
 * filters the same partition of the [-1, 0, 1] difference of the taps, scaled by
 * filter_size / sum|difference|. The timing error of a symbol is
 * (Re y Re y' + Im y Im y')/2 (y the first output of the symbol, y' the derivative filter's
 * output); the loop runs floor(sps) steps of rate += beta*e, k += rate + alpha*e a symbol
 * (alpha = 4 zeta bw / d, beta = 4 bw^2 / d, d = 1 + 2 zeta bw + bw^2, zeta =
 * 2*filter_size, as pfb_clock_sync_ccf), the rate clipped to +-max_rate_deviation.
 *
 * Outputs: port 0 the symbols (osps a symbol); optionally ports 1-3 (float): the error,
 * the rate and the phase k, one value a symbol repeated for its osps outputs.
 *
 * mode "sequential" follows pfb_clock_sync_ccf's update rules and reads the stream as it
 * does (history filter taps + 2 floor(sps) zeros before the first sample): the same
 * symbols as GNU Radio's block, within float rounding (its dot products sum in another
 * order), for any cut of the stream into calls. mode "chunked" cuts the stream into chunks
 * of chunk_samples, runs a loop per chunk from warmup_samples before it (in parallel on a
 * GPU) and stitches the chunks by symbol time, so no symbol is lost or repeated at a
 * chunk edge; its first chunk is the sequential loop. The chunked mode runs when half its
 * window (2^19 samples by default) is held, or at the end of the stream: many chunks a
 * call. mode "hybrid" runs the sequential loop on the host through a grid of every
 * filter's output at every sample computed first (on the GPU with CUDA): the partition of
 * Kim et al., "GPU-based acceleration of symbol timing recovery"; the sequential symbols.
 *
 * Tags: "time_est" (value: the symbol centre in samples after the tagged sample) sets the
 * phase when a symbol starts within floor(sps) samples before it, as pfb_clock_sync_ccf.
 * Other tags go to the first output symbol whose filter centre is at or after the tagged
 * sample (docs/TAGS.md).
 */
class GPUOFDM_API pfb_timing_sync_ccf : virtual public gr::block
{
public:
    typedef std::shared_ptr<pfb_timing_sync_ccf> sptr;

    /*!
     * \param sps input samples per symbol, 1..256.
     * \param loop_bw loop bandwidth, 0..1.
     * \param taps the prototype matched filter at filter_size*sps, 3..65536 taps.
     * \param filter_size filters in the bank, 1..1024.
     * \param init_phase initial phase in filter units, -1e6..1e6.
     * \param max_rate_deviation rate clip in filter units, 0..filter_size.
     * \param osps output samples per symbol, 1..floor(sps).
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \param mode "sequential", "chunked" or "hybrid".
     * \param chunk_samples chunked: samples per chunk, 64*sps..2^24.
     * \param warmup_samples chunked: samples the loop of a chunk runs before it, 0..2^24.
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter.
     */
    static sptr make(double sps,
                     float loop_bw,
                     const std::vector<float>& taps,
                     unsigned int filter_size = 32,
                     float init_phase = 0,
                     float max_rate_deviation = 1.5,
                     int osps = 1,
                     const std::string& device = "auto",
                     const std::string& mode = "sequential",
                     int chunk_samples = 16384,
                     int warmup_samples = 4096);

    virtual std::string device() const = 0;
    virtual std::string mode() const = 0;
    virtual float loop_bandwidth() const = 0;
    virtual float alpha() const = 0;
    virtual float beta() const = 0;
    //! The loop's error, rate and phase after the last symbol.
    virtual float error() const = 0;
    virtual float rate() const = 0;
    virtual float phase() const = 0;
    //! The banks as pfb_clock_sync_ccf's taps() and diff_taps() return them.
    virtual std::vector<std::vector<float>> taps() const = 0;
    virtual std::vector<std::vector<float>> diff_taps() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_PFB_TIMING_SYNC_CCF_H */
