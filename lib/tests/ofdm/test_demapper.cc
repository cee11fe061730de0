/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Soft demapper: noiseless points give LLR signs equal to their bits; LLR values against a
// brute-force max-log over every point of a constellation built here from the 802.11a
// tables (17-8 .. 17-11, K_MOD of 17-7) in double precision; noise variance and per-point
// gain scaling; hard decisions; CUDA against the CPU twin; parameter checks.

#include "ofdm/demapper.h"
#include "test_util.h"

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>

using namespace gr::gpuofdm;
using core::cfloat;
using core::modulation;

namespace {

const core::device_spec cpu{};
const modulation all_mods[] = { modulation::bpsk, modulation::qpsk, modulation::qam16,
                                modulation::qam64 };

// Tables 17-8 .. 17-11: the level of the axis bits, first bit first.
const std::map<std::string, int> axis_table = {
    { "0", -1 },   { "1", 1 },                                  // BPSK, QPSK
    { "00", -3 },  { "01", -1 },  { "11", 1 },   { "10", 3 },   // 16-QAM
    { "000", -7 }, { "001", -5 }, { "011", -3 }, { "010", -1 }, // 64-QAM
    { "110", 1 },  { "111", 3 },  { "101", 5 },  { "100", 7 },
};

unsigned n_bits(modulation m)
{
    return m == modulation::bpsk ? 1 : m == modulation::qpsk ? 2 : m == modulation::qam16 ? 4 : 6;
}

double kmod(modulation m)
{
    return m == modulation::bpsk    ? 1.0
           : m == modulation::qpsk  ? 1 / std::sqrt(2.0)
           : m == modulation::qam16 ? 1 / std::sqrt(10.0)
                                    : 1 / std::sqrt(42.0);
}

struct ref_point {
    std::string bits; //!< b0 b1 ... as '0'/'1'
    double re, im;
};

//! Every point of m from the tables, independent of constellation.h.
std::vector<ref_point> table_points(modulation m)
{
    const unsigned n = n_bits(m);
    std::vector<ref_point> pts;
    for (unsigned label = 0; label < (1u << n); label++) {
        std::string s;
        for (unsigned i = 0; i < n; i++)
            s += char('0' + ((label >> (n - 1 - i)) & 1));
        ref_point p;
        p.bits = s;
        if (n == 1) {
            p.re = kmod(m) * axis_table.at(s);
            p.im = 0;
        } else {
            p.re = kmod(m) * axis_table.at(s.substr(0, n / 2));
            p.im = kmod(m) * axis_table.at(s.substr(n / 2));
        }
        pts.push_back(p);
    }
    return pts;
}

//! Brute-force max-log LLRs of y over every point, weight w.
std::vector<double> brute_llr(const std::vector<ref_point>& pts, double re, double im, double w)
{
    const size_t n = pts[0].bits.size();
    std::vector<double> llr(n);
    for (size_t i = 0; i < n; i++) {
        double d0 = std::numeric_limits<double>::infinity(), d1 = d0;
        for (const auto& p : pts) {
            const double d = (re - p.re) * (re - p.re) + (im - p.im) * (im - p.im);
            if (p.bits[i] == '1')
                d1 = std::min(d1, d);
            else
                d0 = std::min(d0, d);
        }
        llr[i] = w * (d1 - d0);
    }
    return llr;
}

//! Noisy points around random constellation points, a few far outside the grid.
std::vector<cfloat> noisy_points(modulation m, size_t n, uint32_t seed)
{
    const auto pts = table_points(m);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<size_t> pick(0, pts.size() - 1);
    std::normal_distribution<float> g(0.0f, 0.25f);
    std::vector<cfloat> y(n);
    for (size_t j = 0; j < n; j++) {
        const auto& p = pts[pick(rng)];
        const float s = j % 50 == 0 ? 8.0f : 1.0f; // outliers
        y[j] = cfloat(float(p.re) + s * g(rng), float(p.im) + s * g(rng));
    }
    return y;
}

} // namespace

TEST(demapper, noiseless_points_give_their_bits_as_llr_signs)
{
    for (auto m : all_mods) {
        const auto pts = table_points(m);
        const unsigned n = n_bits(m);
        std::vector<cfloat> y;
        for (const auto& p : pts)
            y.emplace_back(float(p.re), float(p.im));
        auto soft = core::make_demapper({ m, false, 0 }, cpu);
        auto hard = core::make_demapper({ m, true, 0 }, cpu);
        ASSERT_EQ(soft->bits_per_point(), n);
        std::vector<float> llr(y.size() * n), hb(y.size() * n);
        soft->process(y.data(), llr.data(), y.size(), 0.1f);
        hard->process(y.data(), hb.data(), y.size(), 0.1f);
        for (size_t j = 0; j < pts.size(); j++)
            for (unsigned i = 0; i < n; i++) {
                const bool one = pts[j].bits[i] == '1';
                // On a point, the nearest point of the other set is at least d_min away.
                const float dmin2 = float(4 * kmod(m) * kmod(m));
                EXPECT_GE(one ? -llr[j * n + i] : llr[j * n + i], 0.99f * dmin2 / 0.1f)
                    << "mod " << int(m) << " bits " << pts[j].bits << " bit " << i;
                EXPECT_EQ(hb[j * n + i], one ? -1.0f : 1.0f)
                    << "mod " << int(m) << " bits " << pts[j].bits << " bit " << i;
            }
    }
}

TEST(demapper, llrs_match_brute_force_max_log)
{
    for (auto m : all_mods) {
        const auto pts = table_points(m);
        const unsigned n = n_bits(m);
        const size_t n_pts = 2000;
        const auto y = noisy_points(m, n_pts, 1000 + unsigned(m));
        std::vector<float> gain(n_pts);
        std::mt19937 rng(77);
        std::uniform_real_distribution<float> u(0.0f, 2.0f);
        for (auto& g : gain)
            g = u(rng);
        const float nv = 0.37f;
        auto dm = core::make_demapper({ m, false, 0 }, cpu);
        std::vector<float> plain(n_pts * n), scaled(n_pts * n);
        dm->process(y.data(), plain.data(), n_pts, nv);
        dm->process(y.data(), scaled.data(), n_pts, nv, gain.data());
        size_t bad = 0;
        for (size_t j = 0; j < n_pts; j++) {
            const double r2 = std::norm(std::complex<double>(y[j]));
            for (int with_gain = 0; with_gain < 2; with_gain++) {
                const double w = (with_gain ? gain[j] : 1.0) / nv;
                const auto want = brute_llr(pts, y[j].real(), y[j].imag(), w);
                const float* got = (with_gain ? scaled.data() : plain.data()) + j * n;
                // Float squared distances of points within |y|: a few ulps of (|y| + 1)^2.
                const double tol = 1e-6 * w * (r2 + 2 * std::sqrt(r2) + 2);
                for (unsigned i = 0; i < n; i++)
                    if (!(std::fabs(got[i] - want[i]) <= tol) && bad++ < 5)
                        ADD_FAILURE()
                            << "mod " << int(m) << " point " << j << " bit " << i << " gain "
                            << with_gain << ": got " << got[i] << ", brute force " << want[i];
            }
        }
        EXPECT_EQ(bad, 0u) << "mod " << int(m);
    }
}

TEST(demapper, hard_decisions_are_the_nearest_point_and_zero_gain_erases)
{
    for (auto m : all_mods) {
        const auto pts = table_points(m);
        const unsigned n = n_bits(m);
        const auto y = noisy_points(m, 1000, 2000 + unsigned(m));
        auto hard = core::make_demapper({ m, true, 0 }, cpu);
        std::vector<float> hb(y.size() * n);
        hard->process(y.data(), hb.data(), y.size(), 2.0f);
        for (size_t j = 0; j < y.size(); j++) {
            size_t best = 0;
            double bd = 1e300;
            for (size_t p = 0; p < pts.size(); p++) {
                const double d = std::norm(std::complex<double>(y[j]) -
                                           std::complex<double>(pts[p].re, pts[p].im));
                if (d < bd) {
                    bd = d;
                    best = p;
                }
            }
            for (unsigned i = 0; i < n; i++)
                ASSERT_EQ(hb[j * n + i], pts[best].bits[i] == '1' ? -1.0f : 1.0f)
                    << "mod " << int(m) << " point " << j << " bit " << i;
        }
        // A gain of 0 (a dead carrier) gives LLR 0 for all its bits.
        auto soft = core::make_demapper({ m, false, 0 }, cpu);
        const std::vector<float> zero(y.size(), 0.0f);
        std::vector<float> llr(y.size() * n);
        soft->process(y.data(), llr.data(), y.size(), 1.0f, zero.data());
        for (float v : llr)
            ASSERT_EQ(v, 0.0f);
    }
}

TEST(demapper, batches_do_not_change_the_output)
{
    const auto y = noisy_points(modulation::qam64, 1001, 5);
    auto one = core::make_demapper({ modulation::qam64, false, 0 }, cpu);
    auto small = core::make_demapper({ modulation::qam64, false, 7 }, cpu);
    std::vector<float> a(y.size() * 6), b(y.size() * 6);
    one->process(y.data(), a.data(), y.size(), 0.5f);
    small->process(y.data(), b.data(), y.size(), 0.5f);
    EXPECT_EQ(a, b);
}

TEST(demapper, bad_parameters_throw_naming_them)
{
    auto dm = core::make_demapper({ modulation::qpsk, false, 0 }, cpu);
    cfloat y(0.5f, 0.5f);
    float out[2];
    for (float nv : { 0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(),
                      std::numeric_limits<float>::infinity() }) {
        try {
            dm->process(&y, out, 1, nv);
            ADD_FAILURE() << "noise_var " << nv << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("noise_var"), std::string::npos);
        }
    }
    try {
        core::make_demapper({ modulation::qpsk, false, (size_t(1) << 26) + 1 }, cpu);
        ADD_FAILURE() << "batch 2^26 + 1 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("batch"), std::string::npos);
    }
}

TEST(demapper, cuda_matches_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu = core::resolve_device("cuda:0");
    for (auto m : all_mods) {
        for (bool hard : { false, true }) {
            const unsigned n = n_bits(m);
            const size_t n_pts = 100003; // several launches of 2^15, a short last one
            const auto y = noisy_points(m, n_pts, 3000 + unsigned(m));
            std::vector<float> gain(n_pts);
            std::mt19937 rng(9);
            std::uniform_real_distribution<float> u(0.0f, 3.0f);
            for (auto& g : gain)
                g = u(rng);
            auto c = core::make_demapper({ m, hard, 1u << 15 }, cpu);
            auto d = core::make_demapper({ m, hard, 1u << 15 }, gpu);
            ASSERT_TRUE(d->device().is_cuda());
            for (int with_gain = 0; with_gain < 2; with_gain++) {
                const float* gp = with_gain ? gain.data() : nullptr;
                std::vector<float> a(n_pts * n), b(n_pts * n, 99.0f);
                c->process(y.data(), a.data(), n_pts, 0.2f, gp);
                d->process(y.data(), b.data(), n_pts, 0.2f, gp);
                size_t bad = 0, exact = 0;
                for (size_t i = 0; i < a.size(); i++) {
                    // Same rounding on both sides (demapper.h); allow an ulp or so anyway
                    // in case a host compiler contracts a product into an FMA.
                    const float tol = hard ? 0.0f : 1e-6f * (std::fabs(a[i]) + 5.0f);
                    exact += a[i] == b[i];
                    if (!(std::fabs(a[i] - b[i]) <= tol) && bad++ < 5)
                        ADD_FAILURE() << "mod " << int(m) << " hard " << hard << " value " << i
                                      << ": cpu " << a[i] << ", cuda " << b[i];
                }
                EXPECT_EQ(bad, 0u);
                RecordProperty("exact_" + std::to_string(int(m)) + "_" + std::to_string(hard) +
                                   "_" + std::to_string(with_gain),
                               std::to_string(exact) + "/" + std::to_string(a.size()));
            }
        }
    }
}
