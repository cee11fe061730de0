/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_TEST_UTIL_H
#define GPUOFDM_TEST_UTIL_H

// Helpers shared by the core tests: seeded data, GPU skip, tolerance comparisons.

#include "runtime/device.h"
#include "ofdm/ofdm_layout.h"
#include "test_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gr::gpuofdm::test {

using core::cfloat;

//! Skips the calling test, with the reason, where no GPU is usable.
#define GPUOFDM_REQUIRE_GPU()                                                  \
    do {                                                                       \
        const std::string why_ = ::gr::gpuofdm::core::cuda_unusable_reason(0); \
        if (!why_.empty())                                                     \
            GTEST_SKIP() << "no usable GPU: " << why_;                         \
    } while (0)

//! Complex vectors within rel_tol of the RMS of \p want (see near_rms).
inline ::testing::AssertionResult near_relative(const std::vector<cfloat>& got,
                                                const std::vector<cfloat>& want,
                                                double rel_tol)
{
    return near_rms(got, want, rel_tol);
}

//! Where the standards' test vectors are: $GPUOFDM_TESTVECTORS, else ../shared/testvectors.
std::string testvector_dir();

} // namespace gr::gpuofdm::test

#endif
