/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The PRACH synthesiser against 38.211 5.3.2's sum over subcarriers evaluated sample by
// sample (a fractional delay, a frequency offset, antenna gains, two occasions), the
// noise's variance, and bad parameters.

#include "prach/prach_preamble.h"
#include "prach/prach_synth.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <stdexcept>
#include <vector>

namespace gr::gpuofdm::core {
namespace {

using cd = std::complex<double>;

TEST(PrachSynth, MatchesTheSumOverSubcarriers)
{
    // Format 0 at 1.92 Msps: n_fft 1536, CP 198. Sequence bin 0 at -300 x 1.25 kHz.
    prach_synth_params p;
    p.sample_rate = 1.92e6;
    p.offset_hz = -300 * 1250.0;
    p.n_antennas = 2;
    p.start_sample = 100;
    p.period_samples = 3000;
    prach_synth_ue ue;
    ue.u = 129;
    ue.cv = 13 * 7;
    ue.delay_samples = 4.25;
    ue.cfo_hz = 170;
    ue.power_db = 3;
    ue.gains = { cfloat(1, 0), cfloat(0, -0.5f) };
    p.ues = { ue };
    prach_synth s(p);
    ASSERT_EQ(s.preamble_samples(), 198u + 1536u);
    const size_t n = 100 + 2 * 3000;
    std::vector<cfloat> a0(n), a1(n);
    // Two calls, split inside the first occasion.
    cfloat* first[] = { a0.data(), a1.data() };
    s.generate(first, 777);
    cfloat* rest[] = { a0.data() + 777, a1.data() + 777 };
    s.generate(rest, n - 777);

    const int L = 839, n_fft = 1536, cp = 198;
    const auto y = prach_sequence_freq(ue.u, ue.cv, L);
    const double amp = std::sqrt(std::pow(10.0, 0.3) / L / n_fft);
    double err = 0, ref = 0;
    for (size_t i = 0; i < n; i++) {
        cd want = 0;
        for (int occ = 0; occ < 2; occ++) {
            const double t = double(i) - 100 - 3000.0 * occ; // from the occasion's start
            if (t - ue.delay_samples < 0 || t - ue.delay_samples >= cp + n_fft)
                continue;
            cd sum = 0;
            for (int k = 0; k < L; k++)
                sum += y[size_t(k)] *
                       std::polar(1.0, 2 * M_PI * (k - 300) * (t - ue.delay_samples - cp) / n_fft);
            want += amp * sum * std::polar(1.0, 2 * M_PI * 170 * t / 1.92e6);
        }
        err += std::norm(cd(a0[i]) - want) + std::norm(cd(a1[i]) - want * cd(0, -0.5));
        ref += std::norm(want) * 1.25;
    }
    EXPECT_LT(err / ref, 1e-8);
    // The preamble's per-sample power is power L / n_fft (per-bin power 10^0.3 on L bins of
    // a 1 / sqrt(n_fft) DFT): a sanity check of the scale independent of the sum above.
    EXPECT_NEAR(ref / 1.25 / (2 * (cp + n_fft)), std::pow(10.0, 0.3) * L / n_fft,
                0.05 * std::pow(10.0, 0.3) * L / n_fft);
}

TEST(PrachSynth, NoiseVariance)
{
    prach_synth_params p;
    p.sample_rate = 1.92e6;
    p.offset_hz = -300 * 1250.0;
    p.noise_power = 2.0;
    p.n_antennas = 3;
    prach_synth s(p);
    std::vector<cfloat> x(3 * 100000);
    cfloat* out[] = { x.data(), x.data() + 100000, x.data() + 200000 };
    s.generate(out, 100000);
    for (int a = 0; a < 3; a++) {
        double e = 0;
        for (int i = 0; i < 100000; i++)
            e += std::norm(out[a][i]);
        EXPECT_NEAR(e / 100000, 2.0, 0.05) << "antenna " << a;
    }
    EXPECT_NE(x[5], x[100005]) << "the antennas' noise is independent";
}

TEST(PrachSynth, BadParameters)
{
    auto bad = [](auto change, const char* name) {
        prach_synth_params p;
        p.ues = { prach_synth_ue{} };
        change(p);
        try {
            p.validate();
            ADD_FAILURE() << "no error for " << name;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    };
    bad([](auto& p) { p.sample_rate = 30.72e6 + 1250 * 0.5; }, "sample_rate");
    bad([](auto& p) { p.sample_rate = 983.04e6; }, "sample_rate");
    bad([](auto& p) { p.offset_hz = 1e40; }, "offset_hz"); // no overflow to long on the way
    bad([](auto& p) { p.offset_hz = -1e40; }, "offset_hz");
    bad([](auto& p) { p.offset_hz = 100; }, "offset_hz");
    bad([](auto& p) { p.offset_hz = 15e6; }, "offset_hz");
    bad([](auto& p) { p.n_antennas = 0; }, "n_antennas");
    bad([](auto& p) { p.period_samples = 10; }, "period_samples");
    bad([](auto& p) { p.noise_power = -1; }, "noise_power");
    bad([](auto& p) { p.ues[0].u = 0; }, "u:");
    bad([](auto& p) { p.ues[0].cv = 839; }, "cv");
    bad([](auto& p) { p.ues[0].delay_samples = 24576; }, "delay_samples");
    bad([](auto& p) { p.ues[0].cfo_hz = 20e6; }, "cfo_hz");
    bad([](auto& p) { p.ues[0].gains = { cfloat(1), cfloat(1) }; }, "gains");
    bad([](auto& p) { p.extra_cp_kappa = 8; }, "extra_cp_kappa");
}

} // namespace
} // namespace gr::gpuofdm::core
