/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_SYNC_RASTER_H
#define GPUOFDM_CORE_SYNC_RASTER_H

// Where a cell's sync signals can sit inside a capture: the candidates the searcher tries.
//   NR:   every GSCN of 38.104 Table 5.4.3.1-1 (the SSB's centre frequency SS_REF)
//   LTE:  every 100 kHz channel raster point (36.104 5.7.2), the PSS/SSS on the carrier's
//         centre
//   5GTF: the offset the caller gives (its sync signals sit on the carrier's centre)
// or an explicit list of offsets for any standard. A candidate fits when the whole sync
// signal (NR: 240 SSB subcarriers; LTE/5GTF: 72 subcarriers) lies inside the usable part of
// the captured band (or, where that part is narrower than the sync signal, at the centre of
// a band that holds it: NR 30 kHz at 7.68 Msps, 15 kHz at 3.84 Msps).

#include <cstdint>
#include <string>
#include <vector>

namespace gr::gpuofdm::core {

enum class cell_standard { nr, lte, fivegtf };

//! "nr", "lte" or "5gtf" (throws std::invalid_argument otherwise).
cell_standard parse_cell_standard(const std::string& name);
const char* cell_standard_name(cell_standard standard);
//! Throws std::invalid_argument unless \p standard is one of the three.
void validate_cell_standard(cell_standard standard);

//! SS_REF in Hz of NR GSCN \p gscn (38.104 Table 5.4.3.1-1); \p gscn in 2..26639.
double nr_gscn_frequency(int gscn);

//! The GSCN whose SS_REF is \p hz, or -1 when \p hz is not on the synchronization raster.
int nr_gscn_at(double hz);

//! One place to look for a cell.
struct raster_candidate {
    double offset_hz = 0;   //!< from the capture's centre
    double absolute_hz = 0; //!< 0 when the capture's centre frequency is unknown
    int raster_number = -1; //!< NR GSCN; LTE: the 100 kHz raster index f / 100 kHz; -1: none
};

struct raster_params {
    cell_standard standard = cell_standard::nr;
    double sample_rate = 30.72e6; //!< 1.92e6..245.76e6
    double center_hz = 0;         //!< capture centre; 0: unknown (offsets only)
    int ssb_scs_khz = 30;         //!< NR SSB subcarrier spacing: 15 or 30
    //! Fraction of the sample rate treated as usable (anti-alias roll-off): 0.5..1.
    double usable_fraction = 0.9;
    //! Explicit offsets from the centre in Hz; when not empty, the raster is not used.
    std::vector<double> offsets_hz;

    void validate() const;
};

//! The sync signal's bandwidth in Hz (NR: 240 subcarriers of the SSB; LTE/5GTF: 72).
double sync_signal_bandwidth(cell_standard standard, int scs_khz);

/*!
 * \brief The candidates that fit inside the capture, lowest frequency first.
 *
 * With the centre frequency known, NR candidates are the GSCNs and LTE candidates the
 * 100 kHz raster points inside the band; with it unknown (0), LTE candidates are the
 * multiples of 100 kHz from the centre (the capture assumed tuned to a raster point) and
 * NR needs explicit offsets (the GSCN grid is not uniform). 5GTF: offset 0 unless given.
 */
std::vector<raster_candidate> raster_candidates(const raster_params& params);

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_SYNC_RASTER_H
