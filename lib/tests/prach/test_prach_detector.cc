/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The PRACH detector on frequency-domain bins: synthetic preambles (delay, noise, several
// UEs, a restricted-set cell with a frequency offset) found by the CPU twin, a noise-only
// false-alarm count against the target, the closed-form threshold, CUDA against the twin,
// and every bad parameter.

#include "prach/prach_detector.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <iostream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/cuda_context.h"
#endif

namespace gr::gpuofdm::core {
namespace {

using cd = std::complex<double>;

//! The input of a detector: channel-major rows of repetitions x L_RA bins.
struct prach_input {
    const prach_detector& det;
    size_t stride;
    std::vector<cfloat> bins;

    explicit prach_input(const prach_detector& d)
        : det(d), stride(d.channel_bins() + 3), bins(d.n_channels() * stride)
    {
    }

    cfloat* row(int cell, int antenna, int occasion)
    {
        const auto& p = det.params();
        const size_t ch =
            (size_t(cell) * size_t(p.n_antennas) + size_t(antenna)) * size_t(p.n_occasions) +
            size_t(occasion);
        return bins.data() + ch * stride;
    }

    //! Complex Gaussian noise of per-bin power \p power on every bin.
    void add_noise(double power, uint32_t seed)
    {
        std::mt19937 rng(seed);
        std::normal_distribution<double> g(0.0, std::sqrt(power / 2));
        for (size_t ch = 0; ch < det.n_channels(); ch++)
            for (size_t k = 0; k < det.channel_bins(); k++)
                bins[ch * stride + k] += cfloat(float(g(rng)), float(g(rng)));
    }

    /*!
     * Preamble \p index of \p cell delayed by \p delay sequence samples, per-bin power
     * \p power and a random phase per antenna, in every repetition: y_{u,v}(k) / sqrt(L)
     * times exp(-j 2 pi k delay / L) (a delay is a linear phase across the bins).
     */
    void add_preamble(int cell, int occasion, int index, double delay, double power, uint32_t seed)
    {
        const auto& fmt = det.format();
        const int L = fmt.length;
        const auto& id = det.preambles(cell)[size_t(index)];
        const auto y = prach_sequence_freq(id.u, id.cv, L);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> phase(0, 2 * M_PI);
        std::vector<cd> delayed(static_cast<size_t>(L));
        for (int k = 0; k < L; k++)
            delayed[size_t(k)] = y[size_t(k)] * std::polar(1.0, -2 * M_PI * k * delay / L);
        for (int a = 0; a < det.params().n_antennas; a++) {
            const cd h = std::polar(std::sqrt(power / L), phase(rng));
            cfloat* x = row(cell, a, occasion);
            for (int k = 0; k < L; k++) {
                const cfloat v(h * delayed[size_t(k)]);
                for (int r = 0; r < fmt.repetitions; r++)
                    x[r * L + k] += v;
            }
        }
    }

    /*!
     * As add_preamble() for an integer delay, with a frequency offset of \p offset
     * subcarriers (Delta f_RA): the DFT of x_{u,v}(n - delay) exp(j 2 pi offset n / L),
     * the phase running on across the repetitions, written out from 38.211's x_u.
     */
    void add_preamble_with_offset(
        int cell, int occasion, int index, int delay, double offset, double power)
    {
        const auto& fmt = det.format();
        const int L = fmt.length;
        const auto& id = det.preambles(cell)[size_t(index)];
        std::vector<cd> spec(static_cast<size_t>(L));
        for (int k = 0; k < L; k++) {
            cd acc = 0;
            for (int n = 0; n < L; n++) {
                const double i = double((((n - delay + id.cv) % L) + L) % L);
                acc += std::polar(1.0, -M_PI * id.u * i * (i + 1) / L) *
                       std::polar(1.0, 2 * M_PI * offset * n / L) *
                       std::polar(1.0, -2 * M_PI * double((long(n) * k) % L) / L);
            }
            spec[size_t(k)] = acc * std::sqrt(power / L);
        }
        for (int a = 0; a < det.params().n_antennas; a++) {
            const cd h = std::polar(1.0, 0.7 * a);
            cfloat* x = row(cell, a, occasion);
            for (int r = 0; r < fmt.repetitions; r++) {
                const cd rot = std::polar(1.0, 2 * M_PI * offset * r);
                for (int k = 0; k < L; k++)
                    x[r * L + k] += cfloat(h * rot * spec[size_t(k)]);
            }
        }
    }

    std::vector<prach_detection> detect(prach_detector& d) { return d.detect(bins.data(), stride); }
};

double db(double x) { return std::pow(10.0, x / 10.0); }

TEST(PrachDetector, GammaThresholdClosedForms)
{
    // K = 1: P(X > t) = exp(-t), t = -ln p.
    EXPECT_NEAR(prach_gamma_threshold(1, 1e-3), -std::log(1e-3), 1e-9);
    EXPECT_NEAR(prach_gamma_threshold(1, 0.5), std::log(2.0), 1e-9);
    // K = 2: P(Gamma(2, 1) > 2t) = exp(-2t) (1 + 2t).
    const double t2 = prach_gamma_threshold(2, 1e-6);
    EXPECT_NEAR(std::exp(-2 * t2) * (1 + 2 * t2), 1e-6, 1e-12);
    // K = 4: exp(-x) (1 + x + x^2 / 2 + x^3 / 6), x = 4t.
    const double t4 = prach_gamma_threshold(4, 1e-5);
    const double x = 4 * t4;
    EXPECT_NEAR(std::exp(-x) * (1 + x + x * x / 2 + x * x * x / 6), 1e-5, 1e-11);
    // More looks, a lower factor for the same probability.
    EXPECT_LT(prach_gamma_threshold(8, 1e-6), prach_gamma_threshold(2, 1e-6));
    EXPECT_GT(prach_gamma_threshold(320, 1e-9), 1.0);
    EXPECT_THROW(prach_gamma_threshold(0, 0.1), std::invalid_argument);
    EXPECT_THROW(prach_gamma_threshold(2, 0.0), std::invalid_argument);
}

struct single_case {
    prach_format format;
    int mu;
    int zcz;
    int antennas;
    double snr_db; // per bin and repetition, per antenna
};

class PrachDetectorSingle : public ::testing::TestWithParam<single_case>
{
};

TEST_P(PrachDetectorSingle, FindsThePreambleAndItsDelay)
{
    const auto c = GetParam();
    prach_detector_params p;
    p.format = c.format;
    p.mu = c.mu;
    p.cells = { { 77, c.zcz, prach_restricted_set::unrestricted } };
    p.n_antennas = c.antennas;
    auto det = make_prach_detector(p, device_spec{});
    const auto& fmt = det->format();
    const int ncs = prach_ncs(fmt, prach_restricted_set::unrestricted, c.zcz);
    const double bin_us = 1e6 / (det->idft_size() * fmt.scs_hz);
    std::mt19937 rng(1234);
    for (int trial = 0; trial < 6; trial++) {
        prach_input in(*det);
        const int index = int(rng() % 64);
        // Anywhere in the first 80 % of the zone, fractional.
        const double delay = std::uniform_real_distribution<double>(0, 0.8 * ncs)(rng);
        in.add_noise(1.0, 100 + trial);
        in.add_preamble(0, 0, index, delay, db(c.snr_db), 200 + trial);
        const auto found = in.detect(*det);
        ASSERT_EQ(found.size(), 1u) << "trial " << trial << " preamble " << index;
        EXPECT_EQ(found[0].preamble, index);
        const double want_us = delay / (fmt.length * fmt.scs_hz) * 1e6;
        EXPECT_LE(std::abs(found[0].delay_us - want_us), bin_us)
            << "trial " << trial << " delay " << delay;
        EXPECT_NEAR(found[0].delay_samples, found[0].delay_us * 30.72, 1e-9);
        // The power within 2 dB; the noise within 20 % (one trial: the floor's own spread,
        // and the preamble's sidelobes beyond the guard, which bias it up a few % at these
        // SNRs: 1 % at -10 dB, 3 % at -3 dB, 12 % at +3 dB for A1 with 2 antennas).
        EXPECT_NEAR(10 * std::log10(found[0].power), c.snr_db, 2.0);
        EXPECT_NEAR(found[0].noise, 1.0, 0.2);
        EXPECT_GT(found[0].metric, found[0].threshold);
    }
}

INSTANTIATE_TEST_SUITE_P(Formats,
                         PrachDetectorSingle,
                         ::testing::Values(single_case{ prach_format::f0, 0, 2, 2, -12.0 },
                                           single_case{ prach_format::f1, 0, 5, 1, -12.0 },
                                           single_case{ prach_format::f2, 0, 12, 4, -18.0 },
                                           single_case{ prach_format::f3, 0, 7, 2, -15.0 },
                                           single_case{ prach_format::a1, 0, 11, 2, -3.0 },
                                           single_case{ prach_format::a3, 1, 13, 2, -8.0 },
                                           single_case{ prach_format::b4, 1, 4, 4, -12.0 },
                                           single_case{ prach_format::c0, 0, 14, 2, 0.0 },
                                           single_case{ prach_format::c2, 1, 15, 1, -3.0 }));

TEST(PrachDetector, ThreeUesTenDbApart)
{
    // Format 0, N_CS 15: 55 preambles on logical root 22, 9 on 23. Two UEs on the first
    // root, one on the second, at +5, -5 and -15 dB per bin, integer delays. The strong one
    // raises the second root's floor about fourfold (a flat cross-correlation of 1/L of its
    // peak) and its sidelobes reach the next window (4 sequence samples are 4.88 PDP
    // samples: off the grid); neither may make a detection of its own.
    prach_detector_params p;
    p.cells = { { 22, 2, prach_restricted_set::unrestricted } };
    p.n_antennas = 2;
    auto det = make_prach_detector(p, device_spec{});
    ASSERT_EQ(det->n_roots(0), 2);
    prach_input in(*det);
    in.add_noise(1.0, 7);
    in.add_preamble(0, 0, 3, 4, db(5), 1);
    in.add_preamble(0, 0, 40, 11, db(-5), 2);
    in.add_preamble(0, 0, 58, 0, db(-15), 3);
    const auto found = in.detect(*det);
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(found[0].preamble, 3);
    EXPECT_EQ(found[1].preamble, 40);
    EXPECT_EQ(found[2].preamble, 58);
    EXPECT_EQ(found[2].logical_root, 23);
    const double per_sample = 1024.0 / 839.0;
    EXPECT_NEAR(found[0].delay_bins, 4 * per_sample, 1.0);
    EXPECT_NEAR(found[1].delay_bins, 11 * per_sample, 1.0);
    EXPECT_NEAR(found[2].delay_bins, 0, 1.0);
    EXPECT_GT(found[0].power, found[1].power * 5);
    EXPECT_GT(found[1].power, found[2].power * 5);
}

TEST(PrachDetector, DelaysAtTheEdgesOfTheirWindows)
{
    // Format 0, N_CS 15 (zone 0..15 sequence samples). Preamble v's window is followed in
    // the PDP by v - 1's, so 31 late (13.8) and 30 early (0.6) peak 1.8 sequence samples
    // apart across the boundary; 10 at 0.3 and 20 at 14.2 sit alone at their edges. All
    // four at -8 dB per bin: each found once, with its own delay.
    prach_detector_params p;
    p.cells = { { 22, 2, prach_restricted_set::unrestricted } };
    p.n_antennas = 2;
    auto det = make_prach_detector(p, device_spec{});
    prach_input in(*det);
    in.add_noise(1.0, 31);
    const std::pair<int, double> sent[] = { { 10, 0.3 }, { 20, 14.2 }, { 30, 0.6 }, { 31, 13.8 } };
    uint32_t seed = 40;
    for (const auto& [v, delay] : sent)
        in.add_preamble(0, 0, v, delay, db(-8), seed++);
    const auto found = in.detect(*det);
    ASSERT_EQ(found.size(), 4u);
    const double us_per_sample = 1e6 / (839 * 1250.0);
    const double bin_us = 1e6 / (1024 * 1250.0);
    for (size_t i = 0; i < 4; i++) {
        EXPECT_EQ(found[i].preamble, sent[i].first);
        EXPECT_LE(std::abs(found[i].delay_us - sent[i].second * us_per_sample), bin_us)
            << "preamble " << sent[i].first;
    }
}

TEST(PrachDetector, SeveralCellsAndOccasions)
{
    // Three cells of different roots and zones, two occasions, one UE per (cell, occasion)
    // except cell 1 occasion 0: each found where it was sent.
    prach_detector_params p;
    p.format = prach_format::b4;
    p.mu = 1;
    p.cells = { { 0, 4, prach_restricted_set::unrestricted },
                { 60, 8, prach_restricted_set::unrestricted },
                { 137, 1, prach_restricted_set::unrestricted } };
    p.n_antennas = 2;
    p.n_occasions = 2;
    auto det = make_prach_detector(p, device_spec{});
    prach_input in(*det);
    in.add_noise(1.0, 11);
    const int sent[3][2] = { { 5, 63 }, { -1, 20 }, { 0, 33 } };
    for (int c = 0; c < 3; c++)
        for (int o = 0; o < 2; o++)
            if (sent[c][o] >= 0)
                in.add_preamble(c, o, sent[c][o], 1.0, db(-8), uint32_t(c * 2 + o));
    const auto found = in.detect(*det);
    ASSERT_EQ(found.size(), 5u);
    size_t i = 0;
    for (int c = 0; c < 3; c++)
        for (int o = 0; o < 2; o++)
            if (sent[c][o] >= 0) {
                EXPECT_EQ(found[i].cell, c);
                EXPECT_EQ(found[i].occasion, o);
                EXPECT_EQ(found[i].preamble, sent[c][o]);
                i++;
            }
}

TEST(PrachDetector, RestrictedSetWithFrequencyOffset)
{
    // Type A, logical root 24, N_CS 15: preamble 5 is u = 56 (d_u = 15), C_v = 5 * 45 = 225.
    // An offset of one subcarrier (1.25 kHz) moves its whole peak to C_v +- d_u, outside
    // every zone; half a subcarrier splits it between the zone and an image. Both are
    // found as preamble 5 with its delay, since the images are combined.
    prach_detector_params p;
    p.cells = { { 24, 0, prach_restricted_set::type_a } };
    p.n_antennas = 2;
    auto det = make_prach_detector(p, device_spec{});
    ASSERT_EQ(det->preambles(0)[5].cv, 225);
    ASSERT_EQ(det->preambles(0)[5].du, 15);
    for (double offset : { 0.0, 0.5, 1.0, -1.0 }) {
        prach_input in(*det);
        in.add_noise(1.0, 21);
        in.add_preamble_with_offset(0, 0, 5, 6, offset, db(-8));
        const auto found = in.detect(*det);
        ASSERT_EQ(found.size(), 1u) << "offset " << offset;
        EXPECT_EQ(found[0].preamble, 5) << "offset " << offset;
        EXPECT_NEAR(found[0].delay_bins, 6 * 1024.0 / 839.0, 1.5) << "offset " << offset;
    }
    // Without the images (the unrestricted set on the same root) a full subcarrier of
    // offset is taken for another shift or missed: what the restricted sets are for.
    prach_detector_params q = p;
    q.cells = { { 24, 2, prach_restricted_set::unrestricted } }; // N_CS 15 as well
    auto plain = make_prach_detector(q, device_spec{});
    prach_input in(*plain);
    in.add_noise(1.0, 21);
    const int v = 15; // C_v = 225 on u = 56, as above
    ASSERT_EQ(plain->preambles(0)[size_t(v)].cv, 225);
    in.add_preamble_with_offset(0, 0, v, 6, 1.0, db(-8));
    for (const auto& d : in.detect(*plain))
        EXPECT_NE(d.preamble, v);
}

TEST(PrachDetector, RestrictedSetTypeBWithTwoSubcarriersOfOffset)
{
    // Type B, logical root 24, N_CS 15: u = 56 (d_u = 15) has 11 shifts 75 v apart
    // (test_prach_tables.cc), so preamble 3 is C_v = 225. Offsets of one and two
    // subcarriers move its peak to C_v +- 15 and C_v +- 30, both combined in type B.
    prach_detector_params p;
    p.cells = { { 24, 0, prach_restricted_set::type_b } };
    p.n_antennas = 2;
    auto det = make_prach_detector(p, device_spec{});
    ASSERT_EQ(det->preambles(0)[3].cv, 225);
    for (double offset : { 0.0, 1.0, 2.0, -2.0, 1.5 }) {
        prach_input in(*det);
        in.add_noise(1.0, 23);
        in.add_preamble_with_offset(0, 0, 3, 4, offset, db(-8));
        const auto found = in.detect(*det);
        ASSERT_EQ(found.size(), 1u) << "offset " << offset;
        EXPECT_EQ(found[0].preamble, 3) << "offset " << offset;
        EXPECT_NEAR(found[0].delay_bins, 4 * 1024.0 / 839.0, 1.5) << "offset " << offset;
    }
}

TEST(PrachDetector, NoiseOnlyFalseAlarms)
{
    // 4000 noise-only (cell, occasion) trials per configuration. At a 0.1 % target about 4
    // are expected (measured: 5 and 4); allow 12 (0.3 %). At a 10 % target the closed form
    // is also close (measured 9.8 % and 8.6 %; one standard deviation is 0.5 %): between
    // 7 % and 12 %, so a threshold far too low or far too high fails. The Monte Carlo
    // calibration that takes the estimated floor into account is still to come.
    struct cfg {
        prach_format format;
        int mu;
        int zcz;
        int antennas;
    };
    for (const cfg c : { cfg{ prach_format::f0, 0, 1, 2 }, cfg{ prach_format::b4, 1, 4, 4 } }) {
        prach_detector_params p;
        p.format = c.format;
        p.mu = c.mu;
        p.cells = { { 5, c.zcz, prach_restricted_set::unrestricted } };
        p.n_antennas = c.antennas;
        p.n_occasions = 16;
        p.false_alarm = 1e-3;
        auto strict = make_prach_detector(p, device_spec{});
        p.false_alarm = 0.1;
        auto loose = make_prach_detector(p, device_spec{});
        std::set<std::pair<int, int>> strict_alarms, loose_alarms;
        const int calls = 250;
        double noise_sum = 0;
        size_t noise_n = 0;
        for (int call = 0; call < calls; call++) {
            prach_input in(*strict);
            in.add_noise(2.0, uint32_t(1000 + call));
            for (const auto& d : in.detect(*strict))
                strict_alarms.insert({ call, d.occasion });
            for (const auto& d : in.detect(*loose)) {
                loose_alarms.insert({ call, d.occasion });
                noise_sum += d.noise;
                noise_n++;
            }
        }
        const int trials = calls * p.n_occasions;
        EXPECT_LE(strict_alarms.size(), 12u) << to_string(c.format);
        const double rate = double(loose_alarms.size()) / trials;
        EXPECT_GE(rate, 0.07) << to_string(c.format);
        EXPECT_LE(rate, 0.12) << to_string(c.format);
        // The floor each alarm reports: the input's 2.0, within 10 %.
        ASSERT_GT(noise_n, 0u);
        EXPECT_NEAR(noise_sum / double(noise_n), 2.0, 0.2);
        std::cout << "  " << to_string(c.format) << ", " << c.antennas
                  << " antennas: " << strict_alarms.size() << " of " << trials
                  << " trials alarmed at 0.1 %, " << loose_alarms.size() << " at 10 %\n";
    }
}

// A short subset of the 3GPP TS 38.104 8.4 AWGN requirements on the bins (an ideal front
// end: no timing or frequency error but the delay): Pd >= 99 % counting a detection only
// with the right preamble and the timing error within 1.04 us (long), 0.52 us (short,
// 15 kHz) or 0.26 us (30 kHz), at the table's SNR per RE and antenna. The 38.141-1 A.6
// preambles: format 0 with N_CS 13, sequence 22, v = 32; short formats with N_CS 23
// (15 kHz) or 46 (30 kHz), sequence 0, v = 0. 300 trials a point (measured with 2000:
// 100 % for every point below); the false-alarm side is NoiseOnlyFalseAlarms.
TEST(PrachDetector, Ts38104AwgnSubset)
{
    struct point {
        prach_format format;
        int mu;
        int zcz;
        int root;
        int preamble;
        int antennas;
        double snr_db;
        double tolerance_us;
    };
    const point points[] = {
        { prach_format::f0, 0, 1, 22, 32, 2, -14.5, 1.04 },
        { prach_format::f0, 0, 1, 22, 32, 4, -16.7, 1.04 },
        { prach_format::a1, 0, 11, 0, 0, 2, -9.3, 0.52 },
        { prach_format::b4, 1, 14, 0, 0, 2, -16.5, 0.26 },
        { prach_format::c2, 1, 14, 0, 0, 2, -11.9, 0.26 },
    };
    for (const auto& pt : points) {
        prach_detector_params p;
        p.format = pt.format;
        p.mu = pt.mu;
        p.cells = { { pt.root, pt.zcz, prach_restricted_set::unrestricted } };
        p.n_antennas = pt.antennas;
        p.n_occasions = 10;
        auto det = make_prach_detector(p, device_spec{});
        const auto& fmt = det->format();
        const int ncs = prach_ncs(fmt, prach_restricted_set::unrestricted, pt.zcz);
        const double zone_us = ncs / (fmt.length * fmt.scs_hz) * 1e6;
        std::mt19937 rng(uint32_t(pt.antennas * 100 + int(pt.format)));
        std::uniform_real_distribution<double> delay_us(0, std::min(4.0, 0.7 * zone_us));
        int good = 0, trials = 0;
        for (int call = 0; call < 30; call++) {
            prach_input in(*det);
            in.add_noise(1.0, uint32_t(5000 + call));
            std::vector<double> sent(10);
            for (int o = 0; o < 10; o++) {
                sent[size_t(o)] = delay_us(rng);
                in.add_preamble(0, o, pt.preamble, sent[size_t(o)] * 1e-6 * fmt.length * fmt.scs_hz,
                                db(pt.snr_db), uint32_t(call * 10 + o));
            }
            const auto found = in.detect(*det);
            for (int o = 0; o < 10; o++) {
                trials++;
                for (const auto& d : found)
                    if (d.occasion == o && d.preamble == pt.preamble &&
                        std::abs(d.delay_us - sent[size_t(o)]) <= pt.tolerance_us) {
                        good++;
                        break;
                    }
            }
        }
        EXPECT_GE(good, int(0.99 * trials))
            << to_string(pt.format) << " " << pt.antennas << " antennas at " << pt.snr_db
            << " dB: " << good << " of " << trials;
    }
}

TEST(PrachDetector, SilentInputDetectsNothing)
{
    prach_detector_params p;
    auto det = make_prach_detector(p, device_spec{});
    prach_input in(*det);
    EXPECT_TRUE(in.detect(*det).empty());
}

TEST(PrachDetector, BadParameters)
{
    auto bad = [](auto change) {
        prach_detector_params p;
        change(p);
        return p;
    };
    auto throws_naming = [](const prach_detector_params& p, const std::string& name) {
        try {
            make_prach_detector(p, device_spec{});
        } catch (const std::invalid_argument& e) {
            return std::string(e.what()).rfind(name, 0) == 0
                       ? ::testing::AssertionSuccess()
                       : ::testing::AssertionFailure() << "message: " << e.what();
        }
        return ::testing::AssertionFailure() << "no throw";
    };
    using P = prach_detector_params;
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.mu = 1; }), "mu"));
    EXPECT_TRUE(throws_naming(bad([](P& p) {
                                  p.format = prach_format::a1;
                                  p.mu = 4;
                              }),
                              "mu"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.cells.clear(); }), "cells"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.cells.resize(1025); }), "cells"));
    EXPECT_TRUE(
        throws_naming(bad([](P& p) { p.cells[0].logical_root = 838; }), "cells[0].logical_root"));
    EXPECT_TRUE(throws_naming(bad([](P& p) {
                                  p.cells.push_back({ 0, 15, prach_restricted_set::type_b });
                              }),
                              "cells[1].zero_correlation_zone"));
    EXPECT_TRUE(throws_naming(bad([](P& p) {
                                  p.format = prach_format::b4;
                                  p.cells[0].set = prach_restricted_set::type_a;
                              }),
                              "cells[0].set"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.n_antennas = 0; }), "n_antennas"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.n_antennas = 65; }), "n_antennas"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.n_occasions = 0; }), "n_occasions"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.idft_size = 512; }), "idft_size"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.idft_size = 1500; }), "idft_size"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.idft_size = 8192; }), "idft_size"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.false_alarm = 0; }), "false_alarm"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.false_alarm = 0.6; }), "false_alarm"));
    EXPECT_TRUE(throws_naming(bad([](P& p) { p.sample_rate = -1; }), "sample_rate"));
    // Good edges.
    EXPECT_NO_THROW(make_prach_detector(bad([](P& p) { p.idft_size = 4096; }), device_spec{}));
    EXPECT_NO_THROW(make_prach_detector(bad([](P& p) {
                                            p.format = prach_format::c2;
                                            p.mu = 3;
                                            p.idft_size = 256;
                                        }),
                                        device_spec{}));
    // Bad input.
    auto det = make_prach_detector(prach_detector_params{}, device_spec{});
    std::vector<cfloat> x(det->channel_bins());
    EXPECT_THROW(det->detect(nullptr, x.size()), std::invalid_argument);
    EXPECT_THROW(det->detect(x.data(), x.size() - 1), std::invalid_argument);
    x[100] = cfloat(std::nanf(""), 0.0f);
    EXPECT_THROW(det->detect(x.data(), x.size()), std::invalid_argument);
    x[100] = cfloat(INFINITY, 0.0f);
    EXPECT_THROW(det->detect(x.data(), x.size()), std::invalid_argument);
}

//! A non-finite bin is refused, naming its cell and occasion; the detector works on after it.
void expect_non_finite_named(const device_spec& dev)
{
    prach_detector_params p;
    p.cells.assign(3, prach_cell_params{ 0, 2, prach_restricted_set::unrestricted });
    p.cells[1].logical_root = 8;
    p.cells[2].logical_root = 16;
    p.n_antennas = 2;
    p.n_occasions = 2;
    auto det = make_prach_detector(p, dev);
    prach_input in(*det);
    in.add_noise(1.0, 7);
    in.row(2, 1, 1)[5] = cfloat(std::nanf(""), 0.0f);
    try {
        det->detect(in.bins.data(), in.stride);
        ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("cell 2, occasion 1"), std::string::npos) << e.what();
    }
    in.row(2, 1, 1)[5] = cfloat(0.0f, 0.0f);
    EXPECT_NO_THROW(det->detect(in.bins.data(), in.stride));
}

TEST(PrachDetector, NonFiniteBinsNameTheirCellAndOccasion)
{
    expect_non_finite_named(device_spec{});
}

//! \p in's bins rounded to 16-bit I/Q at \p scale (a unit of the integers), the stride kept.
std::vector<std::complex<int16_t>> quantized(const prach_input& in, float scale)
{
    std::vector<std::complex<int16_t>> q(in.bins.size());
    for (size_t i = 0; i < q.size(); i++)
        q[i] = { int16_t(std::lround(in.bins[i].real() / scale)),
                 int16_t(std::lround(in.bins[i].imag() / scale)) };
    return q;
}

// 16-bit bins are the float bins the integers times scale stand for: the same detections,
// bit for bit, as detect() on those floats (converted here), and the preambles found.
TEST(PrachDetector, SixteenBitBinsDetectAsTheirFloats)
{
    prach_detector_params p;
    p.cells = { { 22, 2, prach_restricted_set::unrestricted } };
    p.n_antennas = 2;
    p.n_occasions = 2;
    auto det = make_prach_detector(p, device_spec{});
    prach_input in(*det);
    in.add_noise(1.0, 7);
    in.add_preamble(0, 1, 17, 3.0, db(-12), 8);
    const float scale = 1.0f / 2048; // noise at about 2^11 counts per part
    const auto q = quantized(in, scale);
    std::vector<cfloat> as_floats(q.size());
    for (size_t i = 0; i < q.size(); i++)
        as_floats[i] = cfloat(float(q[i].real()) * scale, float(q[i].imag()) * scale);
    const auto want = det->detect(as_floats.data(), in.stride);
    const auto got = det->detect_cs16(q.data(), in.stride, scale);
    ASSERT_EQ(want.size(), 1u);
    EXPECT_EQ(want[0].occasion, 1);
    EXPECT_EQ(want[0].preamble, 17);
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(got[0].preamble, want[0].preamble);
    EXPECT_EQ(got[0].delay_bins, want[0].delay_bins);
    EXPECT_EQ(got[0].metric, want[0].metric);
    EXPECT_EQ(got[0].noise, want[0].noise);
    EXPECT_THROW(det->detect_cs16(nullptr, in.stride, scale), std::invalid_argument);
    EXPECT_THROW(det->detect_cs16(q.data(), in.stride - 4, scale), std::invalid_argument);
    EXPECT_THROW(det->detect_cs16(q.data(), in.stride, 0.0f), std::invalid_argument);
    EXPECT_THROW(det->detect_cs16(q.data(), in.stride, NAN), std::invalid_argument);
}

#ifdef GPUOFDM_HAVE_CUDA
// CUDA against the twin: the power delay profiles within 1e-4 of their RMS, and the same
// detections (cell, occasion, preamble, delay) with metrics within 1e-3.
void expect_cuda_matches_cpu(const prach_detector_params& p,
                             const std::vector<std::tuple<int, int, int, double, double>>& ues,
                             bool shared_context)
{
    auto cpu = make_prach_detector(p, device_spec{});
    const device_spec gpu{ backend::cuda, 0 };
    auto cuda = make_prach_detector(p, gpu, shared_context ? make_cuda_context(gpu) : nullptr);
    prach_input in(*cpu);
    in.add_noise(1.0, 99);
    uint32_t seed = 5;
    for (const auto& [cell, occasion, index, delay, snr] : ues)
        in.add_preamble(cell, occasion, index, delay, db(snr), seed++);
    const auto want = in.detect(*cpu);
    const auto got = in.detect(*cuda);
    EXPECT_TRUE(test::near_rms(cuda->power_delay_profiles(), cpu->power_delay_profiles(), 1e-4));
    ASSERT_EQ(got.size(), want.size());
    ASSERT_GE(want.size(), ues.size());
    for (size_t i = 0; i < want.size(); i++) {
        EXPECT_EQ(got[i].cell, want[i].cell);
        EXPECT_EQ(got[i].occasion, want[i].occasion);
        EXPECT_EQ(got[i].preamble, want[i].preamble);
        EXPECT_EQ(got[i].delay_bins, want[i].delay_bins);
        EXPECT_NEAR(got[i].metric, want[i].metric, 1e-3 * want[i].metric);
        EXPECT_NEAR(got[i].noise, want[i].noise, 1e-3 * want[i].noise);
    }
}

//! B4 at 30 kHz, 4 antennas: \p cells cells of zone \p zcz, logical roots 0, \p root_step,
//! 2 root_step, ..., \p occasions occasions a call.
prach_detector_params b4_cells(int cells, int root_step, int zcz, int occasions)
{
    prach_detector_params p;
    p.format = prach_format::b4;
    p.mu = 1;
    p.cells.assign(size_t(cells), prach_cell_params{ 0, zcz, prach_restricted_set::unrestricted });
    for (int c = 0; c < cells; c++)
        p.cells[size_t(c)].logical_root = c * root_step;
    p.n_antennas = 4;
    p.n_occasions = occasions;
    return p;
}

TEST(PrachDetectorCuda, MatchesCpuLongFormats)
{
    GPUOFDM_REQUIRE_GPU();
    prach_detector_params p;
    p.cells = { { 22, 2, prach_restricted_set::unrestricted },
                { 24, 0, prach_restricted_set::type_a },
                { 300, 5, prach_restricted_set::type_b },
                { 800, 0, prach_restricted_set::unrestricted } };
    p.n_antennas = 4;
    p.n_occasions = 2;
    expect_cuda_matches_cpu(p,
                            { { 0, 0, 3, 4.5, -10 },
                              { 0, 1, 58, 2.0, -14 },
                              { 1, 0, 5, 6.0, -12 },
                              { 2, 1, 1, 3.0, -12 },
                              { 3, 0, 40, 100.0, -14 } },
                            false);
}

TEST(PrachDetectorCuda, MatchesCpuShortFormatsSharedContext)
{
    GPUOFDM_REQUIRE_GPU();
    prach_detector_params p = b4_cells(16, 8, 4, 3);
    p.idft_size = 512;
    std::vector<std::tuple<int, int, int, double, double>> ues;
    for (int c = 0; c < 16; c += 3)
        ues.emplace_back(c, (c / 3) % 3, (c * 7) % 64, 0.3 * c, -10.0);
    expect_cuda_matches_cpu(p, ues, true);
}

TEST(PrachDetectorCuda, MatchesCpuShortFormatManyCellsAndOccasions)
{
    // 50 cells x 4 antennas x 2 occasions of B4 (5.3 MB of bins), 22 roots a cell at N_CS
    // 46: the repetitions summed once a channel serve every root of it.
    GPUOFDM_REQUIRE_GPU();
    const prach_detector_params p = b4_cells(50, 2, 14, 2);
    std::vector<std::tuple<int, int, int, double, double>> ues;
    for (const int c : { 0, 15, 16, 17, 32, 33, 34, 49 })
        ues.emplace_back(c, c % 2, (c * 13) % 64, 0.25 * (c % 5), -12.0);
    expect_cuda_matches_cpu(p, ues, false);
}

// 16-bit bins of B4, 20 cells x 4 antennas: converted on the device as on the host.
TEST(PrachDetectorCuda, SixteenBitBinsMatchCpu)
{
    GPUOFDM_REQUIRE_GPU();
    const prach_detector_params p = b4_cells(20, 6, 14, 1);
    auto cpu = make_prach_detector(p, device_spec{});
    auto cuda = make_prach_detector(p, device_spec{ backend::cuda, 0 });
    prach_input in(*cpu);
    in.add_noise(1.0, 3);
    for (const int c : { 0, 7, 19 })
        in.add_preamble(c, 0, (c * 11) % 64, 0.5, db(-10), uint32_t(40 + c));
    const float scale = 1.0f / 1024;
    const auto q = quantized(in, scale);
    const auto want = cpu->detect_cs16(q.data(), in.stride, scale);
    const auto got = cuda->detect_cs16(q.data(), in.stride, scale);
    EXPECT_TRUE(test::near_rms(cuda->power_delay_profiles(), cpu->power_delay_profiles(), 1e-4));
    ASSERT_GE(want.size(), 3u);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) {
        EXPECT_EQ(got[i].cell, want[i].cell);
        EXPECT_EQ(got[i].preamble, want[i].preamble);
        EXPECT_EQ(got[i].delay_bins, want[i].delay_bins);
        EXPECT_NEAR(got[i].metric, want[i].metric, 1e-3 * want[i].metric);
    }
}

TEST(PrachDetectorCuda, MatchesCpuFormat2ManyCells)
{
    GPUOFDM_REQUIRE_GPU();
    prach_detector_params p;
    p.format = prach_format::f2;
    p.cells.assign(40, prach_cell_params{ 0, 1, prach_restricted_set::unrestricted });
    for (int c = 0; c < 40; c++)
        p.cells[size_t(c)].logical_root = c * 20;
    p.n_antennas = 2;
    expect_cuda_matches_cpu(p, { { 0, 0, 0, 0.0, -15 }, { 39, 0, 63, 10.5, -15 } }, false);
}

// More preambles in one call than the first copy back holds (256): 5 cells x 64 occasions
// with one UE each come back whole, in the twin's order.
TEST(PrachDetectorCuda, MatchesCpuWithMorePreamblesThanOneCopy)
{
    GPUOFDM_REQUIRE_GPU();
    const prach_detector_params p = b4_cells(5, 8, 4, 64);
    std::vector<std::tuple<int, int, int, double, double>> ues;
    for (int c = 0; c < 5; c++)
        for (int o = 0; o < 64; o++)
            ues.emplace_back(c, o, (c * 64 + o * 5) % 64, 0.25 * (o % 4), -6.0);
    expect_cuda_matches_cpu(p, ues, false);
}

TEST(PrachDetectorCuda, NonFiniteBinsNameTheirCellAndOccasion)
{
    GPUOFDM_REQUIRE_GPU();
    expect_non_finite_named(device_spec{ backend::cuda, 0 });
}

#endif // GPUOFDM_HAVE_CUDA

} // namespace
} // namespace gr::gpuofdm::core
