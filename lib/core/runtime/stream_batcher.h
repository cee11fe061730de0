/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_STREAM_BATCHER_H
#define GPUOFDM_CORE_STREAM_BATCHER_H

// A stream that arrives in pieces of any size, cut into batches for a detector that must
// see a stretch of samples at once (a preamble, a whole frame): the stream logic that the
// 802.11a and 802.16 receivers and the ofdm_sync_cc block share, and that the cell searcher
// and the PRACH detector use next.
//
// The batcher holds samples [start, start + held) of the stream. When it holds
// batch_samples (or at finish(), the end of the stream), the detector runs on that batch
// and says where its search may resume and whether a detection must wait for more samples;
// the batcher then keeps the tail the next batch needs (the look-back, or from before the
// detection that waits) and drops the rest. Where the samples live is the detector's: it
// appends and keeps them itself (a vector, or device memory for a GPU receiver).

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gr::gpuofdm::core {

using cfloat = std::complex<float>; // as ofdm/constellation.h

//! One batch as the detector sees it.
struct stream_batch {
    size_t n = 0;           //!< samples held: the batch is [0, n)
    size_t search_from = 0; //!< no detection starts before this (the last batch's resume point)
    uint64_t start = 0;     //!< stream index of the batch's sample 0
    bool at_end = false;    //!< the stream ends with the batch: no sample follows
};

//! What the detector decided on a batch.
struct batch_decision {
    static constexpr size_t none = std::numeric_limits<size_t>::max();
    //! The next detection may start here (batch index; may lie beyond the batch).
    size_t resume = 0;
    /*!
     * Where the first detection lies whose extent the batch does not wholly hold (never
     * at the end of the stream): it and what follows are decided by the next batch, which
     * starts keep_before_held samples before it; none: the batch decided everything but
     * its last lookback samples.
     */
    size_t held_back = none;
};

//! The sizes of a batcher: how many samples a batch holds, and what the next one keeps.
struct stream_batcher_params {
    size_t batch_samples = 0; //!< a batch is decided when this many samples are held; >= 1
    /*!
     * Samples before a batch's end in which a detection may start but not be found yet:
     * they begin the next batch (< batch_samples).
     */
    size_t lookback = 0;
    //! Samples before a held-back detection that begin the next batch (< batch_samples).
    size_t keep_before_held = 0;

    //! Throws std::invalid_argument("batch_samples: ...") unless a batch is larger than
    //! what the next one keeps (else a full batch would never make room).
    void validate() const
    {
        if (batch_samples <= lookback || batch_samples <= keep_before_held)
            throw std::invalid_argument(
                "batch_samples: must be more than the look-back (" + std::to_string(lookback) +
                ") and the samples kept before a detection (" + std::to_string(keep_before_held) +
                "), got " + std::to_string(batch_samples));
    }
};

/*!
 * \brief What the batcher calls: the detector and the storage of its samples.
 */
template <typename Detection>
struct stream_detector {
    //! The \p n samples at \p x become samples [at, at + n) of the batch.
    std::function<void(const cfloat* x, size_t n, size_t at)> append;
    //! Samples [from, from + n) of the batch become its first n.
    std::function<void(size_t from, size_t n)> keep;
    /*!
     * Detections in the batch held (appended to \p found, their stream indices from
     * b.start), and the decision. Throwing leaves the batcher as it was: the same batch is
     * decided again by the next call.
     */
    std::function<batch_decision(const stream_batch& b, std::vector<Detection>& found)> detect;
};

/*!
 * \brief Stream in pieces -> batches with the detector's look-back -> detections -> the
 * tail kept for the next batch -> flush at the end.
 *
 * After a batch of n samples: with no detection held back, the next batch starts with its
 * last lookback samples (all of them when n <= lookback); with one held back at h, with the
 * samples from h - keep_before_held on (from 0 when h < keep_before_held), and the search
 * resumes no later than h. The resume point carries over into the next batch's indices
 * (0 when it lies in the samples dropped).
 */
template <typename Detection>
class stream_batcher
{
public:
    //! Throws std::invalid_argument for bad sizes (stream_batcher_params::validate()).
    stream_batcher(const stream_batcher_params& p, stream_detector<Detection> d)
        : d_params(p), d_detector(std::move(d))
    {
        d_params.validate();
    }

    const stream_batcher_params& params() const { return d_params; }
    //! Samples held, and the stream index of the first.
    size_t held() const { return d_held; }
    uint64_t start() const { return d_start; }
    //! Samples that may be appended before the batch is decided.
    size_t room() const { return d_params.batch_samples - d_held; }
    //! Samples held that no detection has seen yet.
    size_t unsearched() const { return d_unsearched; }

    //! Feeds the next \p n samples; returns the detections of the batches they complete.
    std::vector<Detection> process(const cfloat* x, size_t n)
    {
        std::vector<Detection> out;
        while (n > 0) {
            const size_t take = std::min(n, room());
            d_detector.append(x, take, d_held);
            d_held += take;
            d_unsearched += take;
            x += take;
            n -= take;
            if (d_held == d_params.batch_samples)
                decide(false, out);
        }
        return out;
    }

    /*!
     * End of stream: decides what is held (if anything) with at_end, then starts a new
     * stream at index 0.
     */
    std::vector<Detection> finish()
    {
        std::vector<Detection> out;
        if (d_held > 0)
            decide(true, out);
        reset();
        return out;
    }

    //! Drops what is held, undecided: a new stream starts at index 0.
    void reset()
    {
        d_held = 0;
        d_start = 0;
        d_search = 0;
        d_unsearched = 0;
    }

private:
    void decide(bool at_end, std::vector<Detection>& out)
    {
        const size_t n = d_held;
        const batch_decision b = d_detector.detect({ n, d_search, d_start, at_end }, out);
        d_unsearched = 0;
        size_t resume = b.resume, keep_from;
        if (b.held_back != batch_decision::none) {
            const size_t before = d_params.keep_before_held;
            keep_from = b.held_back > before ? b.held_back - before : 0;
            resume = std::min(resume, b.held_back);
        } else {
            keep_from = n > d_params.lookback ? n - d_params.lookback : 0;
        }
        keep_from = std::min(keep_from, n);
        d_detector.keep(keep_from, n - keep_from);
        d_held = n - keep_from;
        d_start += keep_from;
        d_search = resume > keep_from ? resume - keep_from : 0;
    }

    const stream_batcher_params d_params;
    stream_detector<Detection> d_detector;
    size_t d_held = 0;       //!< samples of the batch so far
    uint64_t d_start = 0;    //!< stream index of the batch's first sample
    size_t d_search = 0;     //!< the next detection may start here (in the batch)
    size_t d_unsearched = 0; //!< samples appended since the last detect
};

} // namespace gr::gpuofdm::core

#endif
