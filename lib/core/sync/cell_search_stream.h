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
// offset is removed (its tone's amplitude over each window subtracted). What
// cell_searcher_cc and gpuofdm_cellsearch share.
//
// (runtime/stream_batcher.h serves the single-stream detectors; here the windows run over
// many channelized rows at a lower rate, so the bookkeeping is this class's own.)

#include "sync/cell_search.h"
#include "sync/wideband_channelizer.h"

#include <complex>
#include <cstdint>
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

    const std::vector<raster_candidate>& candidates() const { return d_candidates; }
    const cell_search& searcher() const { return *d_search; }

    //! The next \p n stream samples; the detections that became final.
    std::vector<detection> push(const std::complex<float>* x, size_t n);
    //! The end of the stream: everything still held is searched.
    std::vector<detection> finish();
    //! Stream samples before this index get no further detection.
    uint64_t decided() const { return d_decided; }
    //! Stream samples pushed so far.
    uint64_t pushed() const { return d_pushed; }
    //! Starts a new stream.
    void reset();

private:
    void append(const std::vector<std::complex<float>>& rows, size_t produced);
    void search_rows(bool last, std::vector<detection>& out);

    std::vector<raster_candidate> d_candidates;
    cell_search_layout d_layout;
    std::unique_ptr<cell_search> d_search;
    std::unique_ptr<wideband_channelizer> d_channelizer;
    uint64_t d_p = 1, d_q = 1; //!< row sample j is stream sample j p / q
    size_t d_window = 0, d_overlap = 0;
    std::vector<std::vector<std::complex<float>>> d_rows;
    //! d_rows[c][0] is candidate sample d_row_start - history() (the rows start with
    //! history() zeros before the stream)
    uint64_t d_row_start = 0, d_pushed = 0, d_decided = 0;
};

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_CELL_SEARCH_STREAM_H
