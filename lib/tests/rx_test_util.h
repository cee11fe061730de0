/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_TEST_RX_TEST_UTIL_H
#define GPUOFDM_TEST_RX_TEST_UTIL_H

// What the receiver tests share: the channel between transmitter and receiver (taps, CFO,
// noise, a sampling-clock offset), and the count of what came back.

#include "ofdm/constellation.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

namespace gr::gpuofdm::test {

//! The channel: \p taps (sample-spaced FIR), CFO (rad/sample), complex AWGN of variance n0.
inline void apply_channel(std::vector<core::cfloat>& x,
                          const std::vector<core::cfloat>& taps,
                          double cfo,
                          float n0,
                          uint32_t seed)
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

//! The start sample of each of \p sent after resample(x, ppm): t = n (1 + e), n = t / (1 + e).
template <typename Sent>
void move_starts_with_clock(std::vector<Sent>& sent, double ppm)
{
    for (auto& s : sent)
        s.start = size_t(std::lround(double(s.start) / (1.0 + ppm * 1e-6)));
}

//! x resampled at n (1 + ppm 1e-6) by a 24-tap Hann-windowed sinc: a sampling-clock offset.
inline std::vector<core::cfloat> resample(const std::vector<core::cfloat>& x, double ppm)
{
    const double r = 1.0 + ppm * 1e-6;
    std::vector<core::cfloat> y(size_t(double(x.size()) / r) - 16);
    for (size_t n = 0; n < y.size(); n++) {
        const double t = double(n) * r;
        const long i0 = long(std::floor(t));
        std::complex<double> acc = 0;
        for (long k = -11; k <= 12; k++) {
            const long i = i0 + k;
            if (i < 0 || i >= long(x.size()))
                continue;
            const double d = t - double(i);
            const double sinc = std::abs(d) < 1e-12 ? 1.0 : std::sin(M_PI * d) / (M_PI * d);
            const double w = 0.5 + 0.5 * std::cos(M_PI * d / 12.5);
            acc += std::complex<double>(x[size_t(i)]) * sinc * w;
        }
        y[n] = core::cfloat(acc);
    }
    return y;
}

/*!
 * \brief How many of \p sent came back in \p got, each once: a received item counts when
 * good(item) and same(item, sent[i]) for a sent one not matched yet. \p false_ok (if not
 * null) gets the good items that matched nothing.
 */
template <typename S, typename G, typename Good, typename Same>
size_t count_matches(
    const std::vector<S>& sent, const std::vector<G>& got, Good good, Same same, size_t* false_ok)
{
    size_t ok = 0, bad = 0;
    std::vector<bool> seen(sent.size(), false);
    for (const auto& p : got) {
        if (!good(p))
            continue;
        bool matched = false;
        for (size_t i = 0; i < sent.size() && !matched; i++) {
            if (!seen[i] && same(p, sent[i])) {
                seen[i] = matched = true;
                ok++;
            }
        }
        if (!matched)
            bad++;
    }
    if (false_ok)
        *false_ok = bad;
    return ok;
}

} // namespace gr::gpuofdm::test

#endif
