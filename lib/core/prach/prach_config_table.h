/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_CONFIG_TABLE_H
#define GPUOFDM_CORE_PRACH_CONFIG_TABLE_H

// 3GPP TS 38.211 prach-ConfigurationIndex for FR1, and the PRACH occasions it gives:
//   Table 6.3.3.2-2   random access configurations, FR1, paired spectrum / supplementary uplink
//   Table 6.3.3.2-3   random access configurations, FR1, unpaired spectrum
//   5.3.2             the start of each occasion (t_start^RA, n_slot^RA, n_t^RA) and the
//                     16 kappa the short formats add to their cyclic prefix
// Times are in kappa * T_c = 1 / 30.72 MHz, as in prach_tables.h. Indices 0..255 (the
// prach-ConfigurationIndex of 38.331; the unpaired extension 256..262 of Rel-16 is not here).

#include "prach/prach_tables.h"

#include <optional>
#include <string>
#include <vector>

namespace gr::gpuofdm::core {

//! Which FR1 table: 6.3.3.2-2 (paired spectrum, FDD, or SUL) or 6.3.3.2-3 (unpaired, TDD).
enum class prach_spectrum { fr1_paired, fr1_unpaired };

std::string to_string(prach_spectrum s); //!< "paired", "unpaired"
//! "paired" (or "fdd", "sul"), "unpaired" (or "tdd"), case-insensitive; throws
//! std::invalid_argument naming \p what.
prach_spectrum parse_prach_spectrum(const std::string& s, const std::string& what = "spectrum");

constexpr int prach_config_indices = 256;            //!< rows of Tables 6.3.3.2-2 and 6.3.3.2-3
constexpr int prach_kappa_per_subframe = 30720;      //!< 1 ms in kappa * T_c
constexpr int prach_kappa_per_half_subframe = 15360; //!< 0.5 ms

//! One row of Table 6.3.3.2-2 or 6.3.3.2-3.
struct prach_config {
    prach_format format = prach_format::f0; //!< the preamble format, or the A of A1/B1 ...
    //! The B of A1/B1, A2/B2, A3/B3: the format of the last occasion of each PRACH slot.
    std::optional<prach_format> format_b;
    int x = 1; //!< frames with occasions: n_SFN mod x == y
    int y = 0;
    std::vector<int> subframes; //!< subframe numbers with occasions, ascending, in 0..9
    int starting_symbol = 0;    //!< l0 (symbols of 15 * 2^mu kHz; 15 kHz for formats 0..3)
    int slots_per_subframe = 1; //!< PRACH slots within a subframe; 1 for the long formats
    int occasions_per_slot = 1; //!< N_t^{RA,slot}; 1 for the long formats
    int duration = 0;           //!< N_dur^RA in symbols; 0 for the long formats

    bool is_long() const { return prach_format_lookup(format, 0).is_long(); }
    /*!
     * \brief Throws std::invalid_argument (naming the field) for a row no table could hold:
     * x not in {1, 2, 4, 8, 16}, y outside 0..x-1, subframes empty, unsorted or outside
     * 0..9, format_b with a format other than A1/A2/A3 or not its B, and for the short
     * formats occasions that run past the slot (l0 + N_t N_dur > 14) or slots outside 1..2;
     * the long formats need l0 0 or 7, one slot, one occasion and duration 0.
     */
    void validate() const;
};

/*!
 * \brief The row \p config_index of Table 6.3.3.2-2 (\p s = fr1_paired) or 6.3.3.2-3
 * (fr1_unpaired). Throws std::invalid_argument naming config_index outside 0..255.
 */
prach_config prach_config_lookup(prach_spectrum s, int config_index);

//! True when frame \p sfn (0..1023, else std::invalid_argument) holds occasions:
//! n_SFN mod x == y.
bool prach_frame_has_occasions(const prach_config& c, int sfn);

//! One PRACH occasion in time (38.211 5.3.2).
struct prach_occasion_time {
    int subframe = 0;     //!< subframe of the frame, 0..9
    int slot = 0;         //!< n_slot^RA: 0 or 1 (30 kHz); 0 for 15 kHz and the long formats
    int occasion = 0;     //!< n_t^RA, 0..N_t^{RA,slot}-1
    int start_symbol = 0; //!< l = l0 + n_t N_dur + 14 n_slot, symbol of the subframe
    long start_kappa = 0; //!< first cyclic prefix sample, from the start of the frame
    //! 16 kappa times the instants 0 and 0.5 ms of the subframe the preamble overlaps
    //! (15 and 30 kHz); 0 for the long formats. The cyclic prefix is N_CP^RA + this.
    int extra_cp_kappa = 0;
    prach_format format = prach_format::f0; //!< the A or B format of this occasion
};

/*!
 * \brief The occasions of one frame that holds them (prach_frame_has_occasions), in time
 * order. \p mu is the numerology of the short formats (0: 15 kHz, 1: 30 kHz) and must be
 * 0 for the long formats; std::invalid_argument otherwise, or when c.validate() throws.
 *
 * t_start^RA is the start of symbol l of the subframe at 15 * 2^mu kHz (38.211 5.3.1: each
 * symbol (2048 + 144) kappa 2^-mu, plus 16 kappa for l = 0 and l = 7 * 2^mu), with
 * l = l0 + n_t^RA N_dur^RA + 14 n_slot^RA; the long formats take mu = 0 and l = l0. At
 * 15 kHz n_slot^RA = 0; at 30 kHz n_slot^RA = 1 when the row has one PRACH slot in a
 * subframe, 0 and 1 when it has two. Of A1/B1, A2/B2 and A3/B3 the last occasion of a
 * PRACH slot (n_t^RA = N_t^{RA,slot} - 1) is the B format, the others the A format. The
 * short formats lengthen their cyclic prefix by 16 kappa for each of the instants 0 and
 * 0.5 ms of the subframe in [t_start^RA, t_start^RA + (N_u + N_CP^RA) T_c].
 */
std::vector<prach_occasion_time> prach_occasions_in_frame(const prach_config& c, int mu);

} // namespace gr::gpuofdm::core

#endif
