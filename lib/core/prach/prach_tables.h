/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_TABLES_H
#define GPUOFDM_CORE_PRACH_TABLES_H

// The 3GPP TS 38.211 PRACH tables as data, with accessors:
//   Tables 6.3.3.1-1/-2   preamble formats (L_RA, subcarrier spacing, N_u, N_CP, repetitions)
//   Tables 6.3.3.1-3/-4   logical root sequence index -> physical root u (839 and 139)
//   Tables 6.3.3.1-5..-7  N_CS from zeroCorrelationZoneConfig, per restricted set
//   Table 6.3.3.2-1       N_RB of the PRACH allocation and k-bar
//   6.3.3.1               d_u and the restricted-set parameters (types A and B)
// Lengths are in units of kappa * T_c = 1 / 30.72 MHz (kappa = 64, T_c = 1 / (480 kHz * 4096)),
// i.e. samples at 30.72 Msps. Only the lengths 839 and 139 are covered (not Rel-16's 571/1151).
//
// The prach-ConfigurationIndex tables for FR1 (6.3.3.2-2/-3) are in prach_config_table.h;
// FR2's (6.3.3.2-4) is not here.

#include <string>

namespace gr::gpuofdm::core {

//! Preamble formats of Tables 6.3.3.1-1 (long: 0..3) and 6.3.3.1-2 (short).
enum class prach_format { f0, f1, f2, f3, a1, a2, a3, b1, b2, b3, b4, c0, c2 };

//! The restricted set of 6.3.3.1 (restrictedSetConfig): types A and B for the long formats.
enum class prach_restricted_set { unrestricted, type_a, type_b };

constexpr int prach_long_length = 839;  //!< L_RA of formats 0..3
constexpr int prach_short_length = 139; //!< L_RA of the short formats
constexpr int prach_preambles = 64;     //!< preambles of a cell (6.3.3.1)

//! One row of Table 6.3.3.1-1 or 6.3.3.1-2 (short formats for one numerology mu).
struct prach_format_info {
    prach_format format = prach_format::f0;
    int mu = 0;          //!< numerology of the short formats (scs 15 * 2^mu kHz); 0 for long
    int length = 0;      //!< L_RA, 839 or 139
    double scs_hz = 0;   //!< Delta f_RA
    int n_u = 0;         //!< N_u in kappa * T_c (all repetitions of the sequence)
    int n_cp = 0;        //!< N_CP^RA in kappa * T_c (before the 16 kappa of 5.3.2)
    int repetitions = 0; //!< copies of the sequence in N_u
    bool restricted_sets = false; //!< types A and B allowed (long formats)

    bool is_long() const { return length == prach_long_length; }
    //! One sequence (1 / Delta f_RA) in kappa * T_c: 24576, 6144 or 2048 / 2^mu.
    int sequence_samples() const { return n_u / repetitions; }
};

/*!
 * \brief The row of \p f; \p mu (0..3: 15, 30, 60, 120 kHz) is read for the short formats
 * and must be 0 for the long ones. Throws std::invalid_argument otherwise.
 */
prach_format_info prach_format_lookup(prach_format f, int mu = 0);

//! "0", "1", "2", "3", "A1", "A2", "A3", "B1", "B2", "B3", "B4", "C0", "C2".
std::string to_string(prach_format f);
//! The inverse of to_string (case-insensitive); throws std::invalid_argument naming \p what.
prach_format parse_prach_format(const std::string& s, const std::string& what = "format");

std::string to_string(prach_restricted_set s); //!< "unrestricted", "A", "B"
//! "unrestricted" (or "none"), "A", "B"; throws std::invalid_argument naming \p what.
prach_restricted_set parse_prach_restricted_set(const std::string& s,
                                                const std::string& what = "set");

/*!
 * \brief N_CS of Tables 6.3.3.1-5 (Delta f_RA = 1.25 kHz), 6.3.3.1-6 (5 kHz) and 6.3.3.1-7
 * (15 * 2^mu kHz), for zeroCorrelationZoneConfig \p zcz. Throws std::invalid_argument
 * (naming zero_correlation_zone) for zcz outside 0..15, an entry the table leaves empty
 * (type A at 1.25 kHz above 14, type B above 12 / 13), or a restricted set with a short
 * format.
 */
int prach_ncs(const prach_format_info& fmt, prach_restricted_set set, int zcz);
//! The largest zeroCorrelationZoneConfig the table of (\p fmt, \p set) defines.
int prach_max_zcz(const prach_format_info& fmt, prach_restricted_set set);

/*!
 * \brief Physical root u of logical root sequence index \p logical_root (Tables 6.3.3.1-3
 * for \p length 839, i in 0..837, and 6.3.3.1-4 for 139, i in 0..137). Throws
 * std::invalid_argument (naming logical_root) out of range.
 */
int prach_root_u(int logical_root, int length);

//! The N_RB and k-bar of Table 6.3.3.2-1.
struct prach_allocation {
    int n_rb = 0; //!< PRACH allocation in PUSCH resource blocks
    int kbar = 0; //!< k-bar: the first subcarrier of the sequence in the allocation
};

/*!
 * \brief Table 6.3.3.2-1 for (L_RA, Delta f_RA, Delta f of PUSCH). Throws
 * std::invalid_argument when the combination is not in the table.
 */
prach_allocation prach_allocation_lookup(int length, double scs_ra_hz, double scs_pusch_hz);

//! q^-1 mod \p length, for \p u in 1..length-1 (length prime).
int prach_inverse_mod(int u, int length);

//! d_u of 6.3.3.1: q = u^-1 mod L_RA; d_u = q if q < L_RA / 2, else L_RA - q.
int prach_du(int u, int length);

/*!
 * \brief The parameters of a restricted set for one root (6.3.3.1): C_v =
 * d_start floor(v / n_shift) + (v mod n_shift) N_CS for v < w = n_shift n_group + n_shift_bar;
 * for type B also d_start2 + (v - w) N_CS for the next n_shift2 values of v and
 * d_start3 + (v - w - n_shift2) N_CS for the n_shift3 after them. A root whose d_u lies in
 * none of the ranges has no shifts (count() == 0).
 */
struct prach_restricted_params {
    int du = 0;
    int n_shift = 0;
    int d_start = 0;
    int n_group = 0;
    int n_shift_bar = 0;
    int d_start2 = 0; //!< type B, the second run of shifts: where it starts
    int n_shift2 = 0; //!< type B, the second run: how many shifts
    int d_start3 = 0; //!< type B, the third run: where it starts
    int n_shift3 = 0; //!< type B, the third run: how many shifts

    int count() const { return n_shift * n_group + n_shift_bar + n_shift2 + n_shift3; }
    //! C_v for v in 0..count()-1.
    int cyclic_shift(int v, int ncs) const;
};

/*!
 * \brief The timing advance command T_A of a random access response (38.213 4.2) for a
 * measured round-trip \p delay_s: N_TA = T_A 16 64 T_c / 2^mu, mu the numerology of the
 * uplink (PUSCH) subcarrier spacing, so T_A = round(delay 2^mu / (1024 T_c)), within
 * 0..3846. Throws std::invalid_argument for mu outside 0..3 or a negative or non-finite
 * delay.
 */
int prach_timing_advance(double delay_s, int mu_pusch);

//! 6.3.3.1 for root \p u of length \p length (839), \p ncs >= 1 and set type_a or type_b.
prach_restricted_params prach_restricted(int u, int length, int ncs, prach_restricted_set set);

} // namespace gr::gpuofdm::core

#endif
