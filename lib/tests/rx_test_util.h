/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_TEST_CHANNEL_SIM_H
#define GPUOFDM_TEST_CHANNEL_SIM_H

// The channel the receiver tests put between transmitter and receiver.

#include "constellation.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

namespace gr::gpuofdm::test {

//! The channel: \p taps (sample-spaced FIR), CFO (rad/sample), complex AWGN of variance n0.
inline void apply_channel(std::vector<core::cfloat>& x, const std::vector<core::cfloat>& taps,
                          double cfo, float n0, uint32_t seed)
{
    using core::cfloat;
    std::vector<cfloat> y(x.size());
    for (size_t i = 0; i < x.size(); i++) {
        cfloat s = 0;
        for (size_t t = 0; t < taps.size() && t <= i; t++)
            s += taps[t] * x[i - t];
        y[i] = s * cfloat(std::polar(1.0, cfo * double(i)));
    }
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.0f, std::sqrt(n0 / 2));
    for (auto& v : y)
        v += cfloat(g(rng), g(rng));
    x.swap(y);
}

} // namespace gr::gpuofdm::test

#endif
