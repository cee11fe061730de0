/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_RRC_PROTOTYPE_H
#define GPUOFDM_CORE_RRC_PROTOTYPE_H

// The root-raised-cosine pulse and the matched-filter prototype a polyphase timing bank is
// built from, for the tests, the benchmark and the curves (the blocks take any taps; GNU
// Radio's firdes.root_raised_cosine gives the usual ones). Standard library only.

#include <cmath>
#include <cstddef>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief The root-raised-cosine pulse of unit symbol period at \p t symbols, roll-off
 * \p beta (0 < beta <= 1): (sin(pi t (1-b)) + 4 b t cos(pi t (1+b))) / (pi t (1 - (4 b t)^2)),
 * with its limits at t = 0 and |t| = 1/(4b).
 */
inline double rrc_pulse(double t, double beta)
{
    constexpr double pi = 3.14159265358979323846;
    if (std::fabs(t) < 1e-9)
        return 1.0 - beta + 4.0 * beta / pi;
    if (std::fabs(std::fabs(t) - 1.0 / (4.0 * beta)) < 1e-9)
        return beta / std::sqrt(2.0) *
               ((1.0 + 2.0 / pi) * std::sin(pi / (4.0 * beta)) +
                (1.0 - 2.0 / pi) * std::cos(pi / (4.0 * beta)));
    return (std::sin(pi * t * (1.0 - beta)) + 4.0 * beta * t * std::cos(pi * t * (1.0 + beta))) /
           (pi * t * (1.0 - 16.0 * beta * beta * t * t));
}

/*!
 * \brief \p n taps of the pulse at \p samples_per_symbol samples a symbol (nfilts * sps for
 * a bank of nfilts filters), centred, scaled to sum to \p gain (nfilts: each filter's taps
 * then sum to about one).
 */
inline std::vector<float> rrc_prototype(double samples_per_symbol,
                                        size_t n,
                                        double gain,
                                        double beta)
{
    std::vector<double> h(n);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        h[i] = rrc_pulse((double(i) - double(n - 1) / 2.0) / samples_per_symbol, beta);
        sum += h[i];
    }
    std::vector<float> taps(n);
    for (size_t i = 0; i < n; i++)
        taps[i] = float(h[i] * gain / sum);
    return taps;
}

} // namespace gr::gpuofdm::core

#endif
