/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_CELL_SEARCHER_CC_H
#define INCLUDED_GPUOFDM_CELL_SEARCHER_CC_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Cell searcher: every 5G NR, LTE or Verizon 5GTF cell in the stream, at every
 * raster position of the standard inside the band, with unknown timing and frequency.
 * \ingroup gpuofdm
 *
 * \details
 * The samples pass through unchanged, each detected sync block tagged on its first sample
 * (key "cell") and reported as a PMT dict on message port "cells": standard, cell_id,
 * nid1, nid2, offset_hz (the candidate's offset from the centre), absolute_hz and
 * raster_number (GSCN / 100 kHz raster index when the centre is known, else 0 / -1),
 * sample, cfo_hz, snr_db, power_db, metric, sss_metric, dmrs_metric, and per standard
 * ssb_index, half_frame, subframe, symbol, tdd, extended_cp (-1 where not applicable).
 *
 * The stream is channelized to every candidate and searched window by window (see
 * docs/CELLSEARCH.md), so samples leave the block about a window and a quarter later than
 * they enter; at the end of a stream everything comes out. On a GPU the samples go up and
 * come back by DMA (GNU Radio's buffers page-locked) and a window's search runs beside the
 * next window's samples; give the source a large output buffer at high rates (the block's
 * own is 2^20 items).
 */
class GPUOFDM_API cell_searcher_cc : virtual public gr::block
{
public:
    typedef std::shared_ptr<cell_searcher_cc> sptr;

    /*!
     * \param standard "nr", "lte" or "5gtf".
     * \param samp_rate the stream's rate, whole Hz, 1.92e6..245.76e6.
     * \param center_freq the stream's centre frequency; 0: unknown (NR then needs offsets).
     * \param offsets_hz candidates' offsets from the centre; empty: the standard's raster.
     * \param ssb_scs_khz NR SSB subcarrier spacing, 15 or 30.
     * \param cfo_range_hz frequency search range; 0: +-10 ppm of the carrier when
     *        center_freq is known, at least one subcarrier spacing.
     * \param pss_threshold, sss_threshold detection thresholds (metrics are 1 on average in
     *        noise); > 1. sss_threshold 0: the standard's own (14.75; LTE's 13.5).
     * \param combine_periods sync periods combined, 1..16: their PSS metrics averaged,
     *        their SSS added (NR, LTE: coherently; 5GTF: in power); the thresholds stay
     *        the one-period ones, and the combined metrics are held to the levels noise
     *        passes as rarely; by default a weaker combined PSS also passes with a
     *        stronger SSS (pss_steps; docs/CELLSEARCH.md).
     * \param window_ms stream searched per call, 5..1000 ms.
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \param sro_ppm the sample-clock offset combining allows for, 0..100 ppm: with
     *        combine_periods > 1 the periods' PSS metrics are added along the best drift
     *        path up to +-sro_ppm (unused with one period).
     * \param combine_symbols 5GTF: also average the PSS and SSS over the 14 symbols of each
     *        sync subframe (about 11 dB more for a cell whose sync symbols all reach the
     *        receiver); one detection per sync subframe, at its symbol 0, instead of one
     *        per symbol (beam). Other standards: false.
     * \param pss_steps steps of levels below the thresholds, each a PSS 1 lower with an
     *        SSS higher: weaker cells are found, at about e times the SSS readings of noise
     *        a step (host work at every candidate). -1: the default, 3 with NR's or LTE's
     *        periods combined, none with one period; 0..6 (5GTF's combined: -1 or 0).
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter.
     */
    static sptr make(const std::string& standard = "nr",
                     double samp_rate = 30.72e6,
                     double center_freq = 0,
                     const std::vector<double>& offsets_hz = {},
                     int ssb_scs_khz = 30,
                     double cfo_range_hz = 0,
                     double pss_threshold = 16,
                     double sss_threshold = 0,
                     int combine_periods = 1,
                     double window_ms = 20,
                     const std::string& device = "auto",
                     double sro_ppm = 20,
                     bool combine_symbols = false,
                     int pss_steps = -1);

    //! The device the search runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! How many raster candidates are searched.
    virtual int candidates() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_CELL_SEARCHER_CC_H */
