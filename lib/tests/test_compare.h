/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_TEST_COMPARE_H
#define GPUOFDM_TEST_COMPARE_H

// Seeded data and the RMS-relative comparison that the core tests and the block tests
// share. Header-only and free of GNU Radio and of the core.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace gr::gpuofdm::test {

//! Seeded complex Gaussian samples; the seed goes in the test's output on failure.
inline std::vector<std::complex<float>> random_complex(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<std::complex<float>> v(n);
    for (auto& x : v)
        x = { g(rng), g(rng) };
    return v;
}

inline double magnitude(float x) { return std::abs(double(x)); }
inline double magnitude(std::complex<float> x) { return std::abs(std::complex<double>(x)); }

/*!
 * \brief got[i] within rel_tol * RMS(want[first .. first + n)) of want[i] over that range
 * (n = 0: the whole vectors, whose sizes must agree). A NaN fails. Reports the first three
 * mismatches, their count and the worst error.
 */
template <typename T>
::testing::AssertionResult near_rms(const std::vector<T>& got,
                                    const std::vector<T>& want,
                                    double rel_tol,
                                    size_t first = 0,
                                    size_t n = 0)
{
    if (n == 0) {
        if (got.size() != want.size())
            return ::testing::AssertionFailure()
                   << "sizes differ: " << got.size() << " vs " << want.size();
        n = want.size();
    }
    if (first + n > got.size() || first + n > want.size())
        return ::testing::AssertionFailure() << "range " << first << " + " << n << " past the end ("
                                             << got.size() << ", " << want.size() << ")";
    double power = 0;
    for (size_t i = first; i < first + n; i++)
        power += magnitude(want[i]) * magnitude(want[i]);
    const double bound = rel_tol * std::sqrt(power / double(std::max<size_t>(1, n)));
    size_t bad = 0;
    double worst = 0;
    std::string shown;
    for (size_t i = first; i < first + n; i++) {
        const double e = magnitude(T(got[i] - want[i]));
        if (!(e <= bound)) { // NaN included
            if (bad < 3) {
                std::ostringstream s;
                s << "\n  [" << i << "] got " << got[i] << " want " << want[i] << " error " << e;
                shown += s.str();
            }
            bad++;
        }
        if (!(e <= worst))
            worst = e;
    }
    if (bad)
        return ::testing::AssertionFailure()
               << bad << " of " << n << " values off by more than " << bound << " (" << rel_tol
               << " of the RMS); worst " << worst << shown;
    return ::testing::AssertionSuccess() << "max error " << worst << " (bound " << bound << ")";
}

} // namespace gr::gpuofdm::test

#endif
