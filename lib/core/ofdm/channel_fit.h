/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CHANNEL_FIT_H
#define GPUOFDM_CORE_CHANNEL_FIT_H

// The least-squares fit of a channel seen on some bins by a channel of a few taps, shared
// by the 802.11a front end (fit and evaluation on its 52 used bins) and the 802.16 one
// (fit on the preamble's even carriers, evaluation on all 200 used ones: interpolation).

#include "ofdm/constellation.h"

#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief The model h_k = sum_t g_t e^{-j 2 pi k d_t / fft_len}, delays d_t = first_delay + t
 * (t < taps) samples of the FFT window, fitted on the observation bins and evaluated on the
 * evaluation bins.
 */
struct channel_tap_fit {
    int taps = 0;
    std::vector<cfloat> fit;   //!< taps x n_obs: least-squares taps g = fit h_obs
    std::vector<cfloat> basis; //!< n_eval x taps: h_eval = basis g
};

/*!
 * \brief The fit for \p taps (>= 1) delays from \p first_delay on, over bins \p obs (k,
 * 0 .. fft_len - 1 or signed subcarriers: only k / fft_len matters), evaluated on \p eval.
 * n_obs x taps least squares by the normal equations, solved in double (Gauss-Jordan with
 * partial pivoting).
 */
channel_tap_fit make_channel_tap_fit(const std::vector<int>& obs,
                                     const std::vector<int>& eval,
                                     int fft_len,
                                     int taps,
                                     int first_delay);

} // namespace gr::gpuofdm::core

#endif
