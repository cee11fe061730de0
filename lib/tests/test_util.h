/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_TEST_UTIL_H
#define GPUOFDM_TEST_UTIL_H

// Helpers shared by the core tests: seeded data, GPU skip, tolerance comparisons.

#include "device.h"
#include "ofdm_layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gr::gpuofdm::test {

using core::cfloat;

//! Seeded complex Gaussian samples; the seed goes in the test's output on failure.
inline std::vector<cfloat> random_complex(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<cfloat> v(n);
    for (auto& x : v)
        x = { g(rng), g(rng) };
    return v;
}

//! Skips the calling test, with the reason, where no GPU is usable.
#define GPUOFDM_REQUIRE_GPU()                                                      \
    do {                                                                           \
        const std::string why_ = ::gr::gpuofdm::core::cuda_unusable_reason(0);     \
        if (!why_.empty())                                                         \
            GTEST_SKIP() << "no usable GPU: " << why_;                             \
    } while (0)

/*!
 * \brief Compares two complex vectors to a tolerance relative to the RMS of the
 * expected vector; reports the first three mismatches and their count.
 */
inline ::testing::AssertionResult
near_relative(const std::vector<cfloat>& got, const std::vector<cfloat>& want, double rel_tol)
{
    if (got.size() != want.size())
        return ::testing::AssertionFailure()
               << "sizes differ: " << got.size() << " vs " << want.size();
    double power = 0;
    for (auto v : want)
        power += std::norm(v);
    const double floor = rel_tol * std::sqrt(power / std::max<size_t>(1, want.size()));
    size_t bad = 0;
    std::string first;
    for (size_t i = 0; i < got.size(); i++) {
        const double err = std::abs(got[i] - want[i]);
        if (!(err <= floor)) {
            if (bad < 3)
                first += "\n  [" + std::to_string(i) + "] got (" + std::to_string(got[i].real()) +
                         "," + std::to_string(got[i].imag()) + ") want (" +
                         std::to_string(want[i].real()) + "," + std::to_string(want[i].imag()) +
                         ") err " + std::to_string(err);
            bad++;
        }
    }
    if (bad)
        return ::testing::AssertionFailure() << bad << " of " << got.size()
                                             << " samples off by more than " << floor << first;
    return ::testing::AssertionSuccess();
}

//! Where the standards' test vectors are: $GPUOFDM_TESTVECTORS, else ../shared/testvectors.
std::string testvector_dir();

} // namespace gr::gpuofdm::test

#endif
