/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_OFDM_SYNC_CC_H
#define INCLUDED_GPUOFDM_OFDM_SYNC_CC_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief OFDM synchronizer: finds 802.11a frames (or 802.16 OFDM-256 long-preamble bursts)
 * in a stream, tags each frame's first sample with its CFO and metrics, posts a message per
 * frame, and derotates the samples by each frame's CFO.
 * \ingroup gpuofdm
 *
 * \details
 * One gr_complex input, one gr_complex output, one item out per item in: output sample i
 * is input sample i, derotated.
 *
 * 802.11a (the core's wifi_sync, CPU twin or CUDA): packet detection on the short
 * training field (delay-16 autocorrelation against power above \p threshold for
 * \p min_plateau samples in a row), coarse CFO from its phase, fine timing on the long
 * training field (matched filter on T1 and T2), fine CFO from the delay-64 phase of T1/T2.
 * A frame's first sample ("start") is T1's index - 192 (the start of the short training
 * field, as wifi_tx's wifi_start tag).
 *
 * 802.16 (the core's wimax_sync): the long preamble's first symbol (period 64)
 * gives the detection and the coarse CFO, a matched filter on both preamble symbols the
 * timing, the delay-64 and delay-128 phases the fine CFO. "start" is the first sample of
 * the preamble (its first cyclic prefix, as wimax_tx's wimax_start tag).
 *
 * Derotation: from each frame's start on, until the next frame's start, output sample i
 * is x[i] exp(-j cfo (i - start)) (continuous phase from 0 at the start); before the first
 * frame the samples pass unchanged.
 *
 * Tags: key "ofdm_sync" on the output sample of each frame's start, value a dict:
 * "cfo" (double, rad/sample), "cfo_hz" (double, cfo * sample_rate / 2 pi), "metric"
 * (double, the detection plateau's metric 0..1), "ltf_metric" (double: 802.11a the
 * normalized long-training matched-filter peak; 802.16 the preamble matched filter),
 * "ltf_start" (uint64: 802.11a the stream index of T1's first sample; 802.16 that of the
 * second preamble symbol's useful part, after its cyclic prefix). Tags on the input are
 * passed on at the same offset.
 *
 * Messages: on the port "frames", one PMT dict per frame with the tag's keys plus
 * "offset" (uint64, the tagged sample), posted when that sample is output.
 *
 * Batching and latency: the block collects \p batch_samples samples (the undecided tail
 * of the previous call plus new ones) and calls the synchronizer on them once (one GPU
 * launch sequence); a sample's fate (which frame's CFO derotates it) is then decided for
 * all but the last lookback() samples (512 for 802.11a), which are kept and searched again
 * with the next call, search_from keeping a frame already reported from being reported
 * again: a frame that straddles a call edge is found exactly once. So a sample is output
 * after between lookback() + 1 and batch_samples later samples have arrived (the newest
 * input sample is always left unread until the next call, to see the end of the stream).
 * At the end of the stream (the upstream has finished) everything held is searched and
 * output: the output has exactly as many samples as the input. If the flowgraph is
 * stopped instead, the samples held are dropped.
 *
 * Errors in work() are never thrown to the scheduler: a failed synchronizer call is
 * logged and its samples pass with no new frame; after 10 failed calls in a row the block
 * stops.
 */
class GPUOFDM_API ofdm_sync_cc : virtual public gr::block
{
public:
    typedef std::shared_ptr<ofdm_sync_cc> sptr;

    /*!
     * \param standard "802.11a" (also "80211a") or "802.16" (also "80216"), any case.
     * \param threshold detection threshold on the normalized autocorrelation: 802.11a in
     *        (0, 1) (0.56 as gr-ieee802-11), 802.16 in 0.2 .. 0.8.
     * \param min_plateau samples in a row above the threshold that make a detection,
     *        16 .. 96.
     * \param batch_samples samples per synchronizer call: 2 * lookback() .. 2^26, at least
     *        1024 (802.11a: 1024; core::ofdm_sync_params::validate()).
     * \param sample_rate samples per second, for "cfo_hz" only (finite, > 0).
     * \param device "auto", "cpu", "cuda" or "cuda:N" (802.16: the detection metric on the
     *        GPU, each candidate's fine timing on the host).
     * \param cp_div 802.16 only: 1/G of the bursts' cyclic prefix, 4, 8, 16 or 32.
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(const std::string& standard = "802.11a",
                     float threshold = 0.56f,
                     int min_plateau = 32,
                     int batch_samples = 65536,
                     double sample_rate = 20e6,
                     const std::string& device = "auto",
                     int cp_div = 4);

    //! The device the synchronizer runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! "802.11a" or "802.16".
    virtual std::string standard() const = 0;
    virtual float threshold() const = 0;
    virtual int min_plateau() const = 0;
    virtual int batch_samples() const = 0;
    virtual double sample_rate() const = 0;
    //! Samples before the newest that are not yet decided (the synchronizer's lookback).
    virtual int lookback() const = 0;
    //! Frames tagged (and posted) so far.
    virtual uint64_t frames_detected() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_OFDM_SYNC_CC_H */
