/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_PREAMBLE_H
#define GPUOFDM_CORE_PRACH_PREAMBLE_H

// The 64 preambles of a cell and their sequences (3GPP TS 38.211 6.3.3.1).
//
// Time domain: x_u(n) = exp(-j pi u n (n + 1) / L), x_{u,v}(n) = x_u((n + C_v) mod L).
// Frequency domain: y_{u,v}(k) = sum_n x_{u,v}(n) exp(-j 2 pi k n / L), which in closed form
// (L prime, q = u^-1 mod L, t(m) = m (m + 1) / 2) is
//
//     y_{u,v}(k) = Y_u * conj(x_u(q k mod L)) * exp(+j 2 pi k C_v / L),   Y_u = sum_n x_u(n):
//
// u t(n) + k n = u t(n + q k) - u t(q k) (mod L), since t(n + a) = t(n) + a n + t(a) and
// u q = 1; t(n + L) = t(n) (mod L) as L is odd, so the sum over n is Y_u again, times
// exp(+j 2 pi u t(qk) / L) = conj(x_u(qk)). The cyclic shift C_v multiplies by
// exp(+j 2 pi k C_v / L). |Y_u| = sqrt(L): every bin has magnitude sqrt(L).

#include "prach/prach_tables.h"

#include <complex>
#include <vector>

namespace gr::gpuofdm::core {

//! One preamble of a cell: its index, root and cyclic shift.
struct prach_preamble_id {
    int index = 0;        //!< 0..63, the preamble index (the order of 6.3.3.1)
    int logical_root = 0; //!< logical root sequence index it comes from
    int u = 0;            //!< physical root
    int v = 0;            //!< shift number within the root
    int cv = 0;           //!< the cyclic shift C_v, in sequence samples
    int du = 0;           //!< d_u (restricted sets; 0 for the unrestricted set)
};

/*!
 * \brief The 64 preambles of a cell (6.3.3.1): shifts of the root of \p logical_root in
 * increasing v, then of the next logical roots (modulo the table's length, 838 or 138),
 * skipping roots that have no shift in a restricted set. \p ncs is N_CS (prach_ncs()).
 * Throws std::invalid_argument for a bad root or N_CS.
 */
std::vector<prach_preamble_id> prach_cell_preambles(int length,
                                                    int logical_root,
                                                    int ncs,
                                                    prach_restricted_set set);

/*!
 * \brief The cyclic shifts C_v of root \p u (6.3.3.1), in v order: v N_CS for the
 * unrestricted set (one shift, 0, for N_CS = 0), the restricted-set shifts of
 * prach_restricted() otherwise (none for a root out of the d_u ranges).
 */
std::vector<int> prach_cyclic_shifts(int u, int length, int ncs, prach_restricted_set set);

//! x_{u,v}(n), n = 0..length-1 (double precision, exact phase arguments).
std::vector<std::complex<double>> prach_sequence_time(int u, int cv, int length);

//! y_{u,v}(k), k = 0..length-1, in the closed form above (|y| = sqrt(length)).
std::vector<std::complex<double>> prach_sequence_freq(int u, int cv, int length);

//! Y_u = sum_n x_u(n), the constant of the closed form.
std::complex<double> prach_root_dc(int u, int length);

} // namespace gr::gpuofdm::core

#endif
