/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The radix-16 Stockham steps the fused PSS correlation runs on the GPU, run here on the
// host thread by thread: a 4096-point inverse DFT equal to FFTW's (unnormalised, e^{+i}).

#include "runtime/fftw_plan.h"
#include "sync/stockham16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

using namespace gr::gpuofdm;
namespace s16 = core::stockham16;

namespace {

std::vector<s16::cpx> inverse_by_steps(const std::vector<s16::cpx>& x)
{
    std::vector<s16::cpx> buf = x;
    for (int pass = 0; pass < s16::passes; pass++) {
        std::vector<s16::cpx> next(buf.size());
        for (int j = 0; j < s16::threads; j++) {
            s16::cpx v[s16::radix];
            for (int r = 0; r < s16::radix; r++) {
                v[r] = buf[static_cast<size_t>(j) + static_cast<size_t>(r) * s16::read_stride];
            }
            s16::pass_step(j, pass, v);
            for (int q = 0; q < s16::radix; q++) {
                next[static_cast<size_t>(s16::write_index(j, pass, q))] = v[q];
            }
        }
        buf.swap(next);
    }
    return buf;
}

} // namespace

TEST(stockham16, idft16_is_the_16_point_inverse_dft)
{
    s16::cpx v[16];
    for (int r = 0; r < 16; r++) {
        v[r] = { static_cast<float>(r % 5) - 2.0f, static_cast<float>(r % 3) };
    }
    s16::cpx want[16];
    for (int q = 0; q < 16; q++) {
        std::complex<double> sum = 0;
        for (int r = 0; r < 16; r++) {
            sum += std::complex<double>(v[r].re, v[r].im) * std::polar(1.0, 2 * M_PI * r * q / 16);
        }
        want[q] = { static_cast<float>(sum.real()), static_cast<float>(sum.imag()) };
    }
    s16::idft16(v);
    for (int q = 0; q < 16; q++) {
        EXPECT_NEAR(v[q].re, want[q].re, 1e-5) << q;
        EXPECT_NEAR(v[q].im, want[q].im, 1e-5) << q;
    }
}

TEST(stockham16, three_passes_are_fftws_inverse)
{
    std::mt19937 gen(7);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<s16::cpx> x(s16::points);
    core::fftw_plan_1d plan(s16::points, false);
    for (size_t i = 0; i < x.size(); i++) {
        x[i] = { g(gen), g(gen) };
        plan.input()[i] = { x[i].re, x[i].im };
    }
    plan.execute();
    const auto y = inverse_by_steps(x);
    double worst = 0, peak = 0;
    for (size_t i = 0; i < y.size(); i++) {
        const std::complex<double> a(plan.output()[i].real(), plan.output()[i].imag());
        worst = std::max(worst, std::abs(a - std::complex<double>(y[i].re, y[i].im)));
        peak = std::max(peak, std::abs(a));
    }
    EXPECT_LT(worst, 2e-6 * peak) << "worst " << worst << " peak " << peak;
    // One tone lands in one bin: the order is natural.
    std::vector<s16::cpx> tone(s16::points, s16::cpx{ 0.0f, 0.0f });
    tone[37] = { 1.0f, 0.0f };
    const auto t = inverse_by_steps(tone);
    for (size_t n : { size_t(0), size_t(1), size_t(1000), size_t(4095) }) {
        const auto e = std::polar(1.0, 2 * M_PI * 37.0 * static_cast<double>(n) / s16::points);
        EXPECT_NEAR(t[n].re, e.real(), 1e-5) << n;
        EXPECT_NEAR(t[n].im, e.imag(), 1e-5) << n;
    }
}
