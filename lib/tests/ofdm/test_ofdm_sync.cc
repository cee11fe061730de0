/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// ofdm_sync: the frame geometry of each standard on fixed synchronizer results (stub
// synchronizers, so the expected indices are the standards' numbers, worked by hand), and
// the derotation against exp(-j cfo k) in long double.

#include "ofdm/ofdm_sync.h"
#include "wifi/wifi_sync_common.h"
#include "test_util.h"

#include <cmath>
#include <complex>
#include <random>

using namespace gr::gpuofdm;
using core::cfloat;

namespace {

//! A wifi_sync whose backend reports fixed candidates (ltf_start relative to the buffer);
//! wifi_sync's own rule (wifi_sync_select) turns them into frames.
class stub_wifi_sync : public core::wifi_sync
{
public:
    explicit stub_wifi_sync(std::vector<core::wifi_sync_candidate> c)
        : core::wifi_sync(core::wifi_sync_params{}), d_cands(std::move(c))
    {
    }
    core::device_spec device() const override { return {}; }

protected:
    void find_candidates(const cfloat*,
                         size_t,
                         size_t n_end,
                         std::vector<core::wifi_sync_candidate>& out) override
    {
        for (const auto& c : d_cands)
            if (c.n < n_end)
                out.push_back(c);
    }

private:
    std::vector<core::wifi_sync_candidate> d_cands;
};

//! A wimax_sync that reports fixed bursts.
class stub_wimax_sync : public core::wimax_sync
{
public:
    stub_wimax_sync(int cp_div, std::vector<core::wimax_sync_result> r)
        : core::wimax_sync([cp_div] {
              core::wimax_sync_params p;
              p.cp_div = cp_div;
              return p;
          }()),
          d_results(std::move(r))
    {
    }
    core::device_spec device() const override { return {}; }
    std::vector<core::wimax_sync_result> detect(const cfloat*, size_t, size_t) override
    {
        return d_results;
    }

private:
    std::vector<core::wimax_sync_result> d_results;
};

} // namespace

TEST(ofdm_sync, wifi_frame_geometry)
{
    // Candidates with T1 at buffer index 150 and 600 (well apart: the search resumes 208
    // after T1). The frame starts 192 before T1 (10 short periods and GI2), not before 0;
    // the search resumes 208 after T1 (T1, T2, SIGNAL).
    std::vector<core::wifi_sync_candidate> c(2);
    c[0].n = 0;
    c[0].ltf_start = 150;
    c[0].ltf_metric = 0.8f;
    c[1].n = 400;
    c[1].ltf_start = 600;
    c[1].cfo = 0.01f;
    c[1].metric = 0.9f;
    c[1].ltf_metric = 0.8f;
    core::ofdm_sync sync(std::make_unique<stub_wifi_sync>(c));
    EXPECT_FALSE(sync.wimax());
    EXPECT_EQ(sync.lookback(), 512u);
    std::vector<cfloat> x(2000);
    // The buffer starts at stream index 1000; T1 at 150 is before search_from.
    auto f = sync.detect(x.data(), x.size(), 1000, 200);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].ltf_start, 1600u);
    EXPECT_EQ(f[0].start, 1408u);
    EXPECT_EQ(f[0].resume, 1808u);
    EXPECT_EQ(f[0].cfo, double(0.01f));
    EXPECT_EQ(f[0].metric, 0.9f);
    EXPECT_EQ(f[0].ltf_metric, 0.8f);
    f = sync.detect(x.data(), x.size(), 0, 0);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].ltf_start, 150u);
    EXPECT_EQ(f[0].start, 0u) << "T1 at 150: the frame cannot start 192 before it";
    EXPECT_EQ(f[0].resume, 358u);
    EXPECT_EQ(f[1].start, 408u);
}

TEST(ofdm_sync, wimax_burst_geometry)
{
    // cp_div 4: symbols of 256 + 64 = 320 samples; the second symbol's useful part is 320 +
    // 64 after the start, the search resumes after both symbols, 640 after it. cp_div 32:
    // 264, 264 + 8, 528.
    std::vector<core::wimax_sync_result> r(1);
    r[0].start = 40;
    r[0].cfo = -0.02f;
    r[0].metric = 0.7f;
    r[0].preamble_metric = 0.6f;
    for (int cp_div : { 4, 32 }) {
        core::ofdm_sync sync(std::make_unique<stub_wimax_sync>(cp_div, r));
        EXPECT_TRUE(sync.wimax());
        std::vector<cfloat> x(2000);
        const auto f = sync.detect(x.data(), x.size(), 5000, 0);
        ASSERT_EQ(f.size(), 1u);
        EXPECT_EQ(f[0].start, 5040u);
        EXPECT_EQ(f[0].ltf_start, cp_div == 4 ? 5040u + 384 : 5040u + 272);
        EXPECT_EQ(f[0].resume, cp_div == 4 ? 5040u + 640 : 5040u + 528);
        EXPECT_EQ(f[0].cfo, double(-0.02f));
        EXPECT_EQ(f[0].ltf_metric, 0.6f);
    }
}

TEST(ofdm_sync, derotation_follows_the_exact_phase)
{
    std::mt19937 rng(3);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<cfloat> x(5000);
    for (auto& v : x)
        v = cfloat(g(rng), g(rng));
    for (double cfo : { 0.0, 1e-3, -0.37, 3.0 }) {
        for (uint64_t offset : { uint64_t(0), uint64_t(777), uint64_t(1) << 33 }) {
            std::vector<cfloat> y(x.size());
            core::ofdm_sync_derotate(x.data(), y.data(), x.size(), cfo, offset);
            double worst = 0.0;
            for (size_t i = 0; i < x.size(); i++) {
                const long double ph =
                    -(long double)cfo * (long double)(offset + i); // the exact phase
                const std::complex<long double> want =
                    std::complex<long double>(x[i].real(), x[i].imag()) *
                    std::complex<long double>(std::cos(ph), std::sin(ph));
                worst = std::max(
                    worst,
                    double(std::abs(std::complex<long double>(y[i].real(), y[i].imag()) - want) /
                           std::abs(want)));
            }
            // The float rounding of the factor and the product (about 2e-7), and the double
            // phase's own error far into a frame: cfo k rounded (half an ulp, 1.1e-16
            // relative) and reduced by the double 2 pi (off by 2.4e-16: 4e-17 of cfo k);
            // the rotator's drift over 512 steps is far below both.
            const double tol = 4e-7 + 1.5e-16 * std::abs(cfo) * double(offset + x.size());
            EXPECT_LT(worst, tol) << "cfo " << cfo << " offset " << offset;
        }
    }
}

TEST(ofdm_sync, derotation_in_place_and_in_pieces_of_512)
{
    // The phase is exact at the first sample and every 512 after it: pieces that start on
    // those samples give the same floats as one call.
    std::mt19937 rng(5);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<cfloat> x(2000);
    for (auto& v : x)
        v = cfloat(g(rng), g(rng));
    const double cfo = 0.0123;
    std::vector<cfloat> whole(x.size()), pieces(x.size());
    core::ofdm_sync_derotate(x.data(), whole.data(), x.size(), cfo, 10);
    for (size_t at = 0; at < x.size(); at += 1024)
        core::ofdm_sync_derotate(x.data() + at, pieces.data() + at,
                                 std::min<size_t>(1024, x.size() - at), cfo, 10 + at);
    EXPECT_EQ(pieces, whole);
    std::vector<cfloat> in_place = x;
    core::ofdm_sync_derotate(in_place.data(), in_place.data(), x.size(), cfo, 10);
    EXPECT_EQ(in_place, whole);
}
