/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CELL_SEARCH_STREAM_H
#define GPUOFDM_CORE_CELL_SEARCH_STREAM_H

// A stream searched for cells, piece by piece: the capture channelized to every raster
// candidate whose whole channel fits the band, the candidate rows searched a window at a
// time with the overlap the search needs (every timing searched once, from the stream's
// first sample: the rows start with the search's history() in zeros), detections in
// stream samples. In the rows whose band holds the capture's centre the recording's DC
// offset is removed (its tone's amplitude over each window subtracted). A window's search
// runs on a thread of its own while the next window's samples come in (one search at a
// time): its detections come out of a later push(). What cell_searcher_cc and
// gpuofdm_cellsearch share.
//
// (runtime/stream_batcher.h serves the single-stream detectors; here the windows run over
// many channelized rows at a lower rate, so the bookkeeping is this class's own.)

#include "sync/cell_search.h"
#include "sync/cell_search_rows.h"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <future>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

class cell_search_stream
{
public:
    //! One detection, with its candidate and its sample at the stream's rate.
    struct detection {
        cell_detection cell;
        raster_candidate candidate;
        uint64_t sample = 0; //!< stream index of the PSS symbol's first sample
    };

    /*!
     * \param raster the capture and its candidates (raster_candidates(); those whose whole
     *        channel at the search's rate does not fit the band are left out).
     * \param search the search; its standard and SSB spacing are raster's.
     * \param window_s stream searched per call of the search, 5e-3..1 s.
     * \throws std::invalid_argument naming a bad parameter or "no candidate fits".
     */
    cell_search_stream(const raster_params& raster,
                       const cell_search_params& search,
                       double window_s,
                       const device_spec& dev);

    //! The window the app searches by default: 40 ms, or the periods combined and 5 ms.
    static double default_window_s(const cell_search_params& search)
    {
        return std::max(40e-3, search.combine_periods * search.period_s + 5e-3);
    }

    const std::vector<raster_candidate>& candidates() const { return d_candidates; }
    const cell_search& searcher() const { return d_rows->searcher(); }

    //! The next \p n stream samples; the detections that became final.
    std::vector<detection> push(const std::complex<float>* x, size_t n);
    /*!
     * \brief Keeps up to \p capacity pushed samples until take() hands them back (a
     * pass-through block's delay line; on CUDA in device memory, where the channelizer
     * reads them, so they cross the bus once each way). push() throws std::logic_error
     * when they would not fit.
     */
    void keep_samples(size_t capacity) { d_rows->keep_samples(capacity); }
    /*!
     * \brief Stream samples pushed beyond decided() before the next window can be searched:
     * the window, its overlap (history, lookahead and the periods combined) and what the
     * channelizer holds back. A delay line (keep_samples()) smaller than this never lets a
     * window be searched; twice this lets the next window come in during a search.
     */
    size_t samples_to_hold() const;
    //! The next \p n kept samples into \p out; at most decided() less those taken.
    void take(std::complex<float>* out, size_t n);
    //! Page-locks the caller's buffer of \p bytes at \p p where the search runs on CUDA
    //! (GNU Radio's buffers: push() and take() then copy by DMA alone); false if not.
    bool pin_host_buffer(const void* p, size_t bytes) { return d_rows->pin(p, bytes); }
    //! Releases what pin_host_buffer() locked.
    void release_host_buffers() { d_rows->unpin_all(); }
    //! The end of the stream: everything still held is searched.
    std::vector<detection> finish();
    //! Stream samples before this index get no further detection.
    uint64_t decided() const { return d_decided; }
    //! Stream samples pushed so far.
    uint64_t pushed() const { return d_pushed; }
    //! Starts a new stream.
    void reset();

    ~cell_search_stream();
    cell_search_stream(const cell_search_stream&) = delete;
    cell_search_stream& operator=(const cell_search_stream&) = delete;

private:
    //! Searches every whole window (and its overlap) the rows hold.
    void search_whole_windows(std::vector<detection>& out);
    //! Starts the search of the rows held (the last one: runs it here).
    void search_rows(bool last, std::vector<detection>& out);
    //! The search in flight's detections, waiting for it when \p wait (else only if done).
    void collect(bool wait, std::vector<detection>& out);
    void add_detections(const std::vector<cell_detection>& found, std::vector<detection>& out);

    //! With GPUOFDM_PROFILE set: where push(), take() and finish() spent their time (ms),
    //! printed when the stream is destroyed.
    struct profile {
        bool enabled = false;
        double append = 0, take = 0, wait = 0, search = 0;
        size_t pushes = 0, takes = 0, searches = 0;
    } d_profile;

    std::future<std::vector<cell_detection>> d_inflight;
    uint64_t d_decided_after_inflight = 0; //!< decided() once the search in flight is in

    std::vector<raster_candidate> d_candidates;
    cell_search_layout d_layout;
    std::unique_ptr<cell_search_rows> d_rows;
    uint64_t d_p = 1, d_q = 1; //!< row sample j is stream sample j p / q
    size_t d_window = 0, d_overlap = 0;
    size_t d_history = 0;    //!< the search's history()
    size_t d_min_blocks = 1; //!< channelizer blocks the rows take at a time
    //! row sample 0 is candidate sample d_row_start - history() (the rows start with
    //! history() zeros before the stream)
    uint64_t d_row_start = 0, d_pushed = 0, d_decided = 0, d_taken = 0;
};

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_CELL_SEARCH_STREAM_H
