/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Least-squares channel fit by a few taps (channel_fit.h).

#include "ofdm/channel_fit.h"

#include <algorithm>
#include <cmath>
#include <complex>

namespace gr::gpuofdm::core {

channel_tap_fit make_channel_tap_fit(const std::vector<int>& obs,
                                     const std::vector<int>& eval,
                                     int fft_len,
                                     int taps,
                                     int first_delay)
{
    const size_t n = obs.size(), t = size_t(std::max(taps, 1));
    using cd = std::complex<double>;
    const auto phasor = [&](int k, size_t i) {
        return std::polar(1.0,
                          -2.0 * M_PI * k * (double(i) + double(first_delay)) / double(fft_len));
    };
    // A[k][i] = e^{-j 2 pi k d_i / fft_len} (k the bin; the subcarrier gives the same phase).
    std::vector<cd> a(n * t);
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < t; i++)
            a[k * t + i] = phasor(obs[k], i);
    // M = A^H A (t x t), inverted by Gauss-Jordan with partial pivoting.
    std::vector<cd> m(t * t), inv(t * t, 0.0);
    for (size_t i = 0; i < t; i++) {
        inv[i * t + i] = 1.0;
        for (size_t j = 0; j < t; j++) {
            cd s = 0;
            for (size_t k = 0; k < n; k++)
                s += std::conj(a[k * t + i]) * a[k * t + j];
            m[i * t + j] = s;
        }
    }
    for (size_t c = 0; c < t; c++) {
        size_t piv = c;
        for (size_t r = c + 1; r < t; r++)
            if (std::abs(m[r * t + c]) > std::abs(m[piv * t + c]))
                piv = r;
        for (size_t j = 0; j < t; j++) {
            std::swap(m[c * t + j], m[piv * t + j]);
            std::swap(inv[c * t + j], inv[piv * t + j]);
        }
        const cd d = m[c * t + c];
        for (size_t j = 0; j < t; j++) {
            m[c * t + j] /= d;
            inv[c * t + j] /= d;
        }
        for (size_t r = 0; r < t; r++) {
            if (r == c)
                continue;
            const cd f = m[r * t + c];
            for (size_t j = 0; j < t; j++) {
                m[r * t + j] -= f * m[c * t + j];
                inv[r * t + j] -= f * inv[c * t + j];
            }
        }
    }
    // fit = M^-1 A^H; basis = the model's phasors on the evaluation bins.
    channel_tap_fit f;
    f.taps = int(t);
    f.fit.resize(t * n);
    f.basis.resize(eval.size() * t);
    for (size_t i = 0; i < t; i++)
        for (size_t k = 0; k < n; k++) {
            cd s = 0;
            for (size_t j = 0; j < t; j++)
                s += inv[i * t + j] * std::conj(a[k * t + j]);
            f.fit[i * n + k] = cfloat(s);
        }
    for (size_t k = 0; k < eval.size(); k++)
        for (size_t i = 0; i < t; i++)
            f.basis[k * t + i] = cfloat(phasor(eval[k], i));
    return f;
}

} // namespace gr::gpuofdm::core
