/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.16 long-preamble synchronizer's backends: make_wimax_sync gives the CPU twin for
// the CPU; the CUDA backend gives the CPU twin's bursts (same start, CFO within 1e-4
// rad/sample, same metrics) on streams of bursts with noise, CFO and multipath, on noise
// alone, with NaNs, on small pieces with search_from, for every cyclic prefix.

#include "rx_test_util.h"
#include "test_util.h"
#include "tx_test_vectors.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_tx.h"

#include <cmath>
#include <limits>
#include <random>

using namespace gr::gpuofdm;
using core::cfloat;

namespace {

const core::device_spec cpu{};

//! n_bursts bursts of rate 1 with random gaps (some 0), after lead zeros, through a 3-tap
//! channel with CFO and noise.
std::vector<cfloat> burst_stream(int cp_div,
                                 size_t n_bursts,
                                 double cfo,
                                 float n0,
                                 uint32_t seed,
                                 std::vector<size_t>* starts = nullptr)
{
    std::mt19937 rng(seed);
    core::wimax_tx_params tp;
    tp.cp_div = cp_div;
    tp.pad = true;
    tp.max_burst_bytes = 65535;
    tp.scale = float(256.0 / std::sqrt(200.0));
    auto tx = core::make_wimax_tx(tp, cpu);
    std::vector<cfloat> out(500 + rng() % 300);
    for (size_t i = 0; i < n_bursts; i++) {
        std::vector<uint8_t> data(10 + rng() % 150);
        for (auto& b : data)
            b = uint8_t(rng());
        core::wimax_burst_request r{ data.data(), data.size(), 1, 7 };
        const size_t at = out.size();
        if (starts)
            starts->push_back(at);
        out.resize(at + tx->burst_samples(r.len, r.rate_id));
        tx->process(&r, 1, out.data() + at);
        out.resize(out.size() + (i % 3 == 0 ? 0 : rng() % 1500));
    }
    out.resize(out.size() + 600);
    test::apply_channel(out, { { 0.9f, 0.1f }, { 0.3f, -0.2f }, { 0.1f, 0.1f } }, cfo, n0, seed);
    return out;
}

core::wimax_sync_params sync_params(int cp_div)
{
    core::wimax_sync_params p;
    p.cp_div = cp_div;
    p.hold = 0; // the preamble only: bursts follow back to back
    return p;
}

::testing::AssertionResult same_bursts(const std::vector<core::wimax_sync_result>& gpu,
                                       const std::vector<core::wimax_sync_result>& ref)
{
    if (gpu.size() != ref.size())
        return ::testing::AssertionFailure()
               << "CUDA found " << gpu.size() << ", CPU " << ref.size();
    for (size_t i = 0; i < gpu.size(); i++) {
        if (gpu[i].start != ref[i].start)
            return ::testing::AssertionFailure()
                   << "burst " << i << ": CUDA start " << gpu[i].start << ", CPU " << ref[i].start;
        if (!(std::abs(gpu[i].cfo - ref[i].cfo) <= 1e-4f) ||
            !(std::abs(gpu[i].metric - ref[i].metric) <= 1e-5f) ||
            !(std::abs(gpu[i].preamble_metric - ref[i].preamble_metric) <= 1e-5f))
            return ::testing::AssertionFailure()
                   << "burst " << i << ": CUDA cfo " << gpu[i].cfo << " metric " << gpu[i].metric
                   << ", CPU " << ref[i].cfo << " " << ref[i].metric;
    }
    return ::testing::AssertionSuccess();
}

} // namespace

TEST(wimax_sync, cpu_twin_finds_every_burst)
{
    for (int cp_div : { 4, 32 }) {
        std::vector<size_t> starts;
        const auto x = burst_stream(cp_div, 6, 0.01, 1e-2f, uint32_t(cp_div), &starts);
        auto s = core::make_wimax_sync(sync_params(cp_div), cpu);
        EXPECT_EQ(s->device().kind, core::backend::cpu);
        const auto a = s->detect(x.data(), x.size());
        ASSERT_EQ(a.size(), starts.size());
        for (size_t i = 0; i < a.size(); i++) {
            EXPECT_LE(std::abs(long(a[i].start) - long(starts[i])), 4) << "burst " << i;
            EXPECT_NEAR(a[i].cfo, 0.01, 2e-3);
        }
    }
    EXPECT_TRUE(test::throws_invalid([] { core::make_wimax_sync(sync_params(5), cpu); }, "cp_div"));
}

#ifdef GPUOFDM_HAVE_CUDA

TEST(wimax_sync, cuda_matches_cpu_on_bursts_noise_and_nans)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    for (int cp_div : { 4, 8, 16, 32 }) {
        for (double cfo : { -0.12, 0.0, 0.07 }) {
            std::vector<size_t> starts;
            auto x = burst_stream(cp_div, 10, cfo, 3e-2f, uint32_t(cp_div * 100 + 7), &starts);
            auto g = core::make_wimax_sync(sync_params(cp_div), gpu);
            ASSERT_EQ(g->device().kind, core::backend::cuda);
            auto c = core::make_wimax_sync(sync_params(cp_div), cpu);
            const auto a = c->detect(x.data(), x.size());
            EXPECT_EQ(a.size(), starts.size()) << "cp_div " << cp_div << " cfo " << cfo;
            EXPECT_TRUE(same_bursts(g->detect(x.data(), x.size()), a));
            // search_from in the middle, and again (the device memory is reused).
            const size_t from = starts[starts.size() / 2] + 1;
            EXPECT_TRUE(same_bursts(g->detect(x.data(), x.size(), from),
                                    c->detect(x.data(), x.size(), from)));
            // NaNs and Infs sprinkled in.
            std::mt19937 rng{ uint32_t(cp_div) };
            for (int k = 0; k < 40; k++)
                x[rng() % x.size()] = k % 2 ? cfloat(std::numeric_limits<float>::quiet_NaN(), 0)
                                            : cfloat(1, std::numeric_limits<float>::infinity());
            EXPECT_TRUE(same_bursts(g->detect(x.data(), x.size()), c->detect(x.data(), x.size())));
        }
    }
    // Noise only, and digital silence after loud samples: no burst on either.
    std::mt19937 rng(5);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<cfloat> noise(300000);
    for (auto& v : noise)
        v = cfloat(nd(rng), nd(rng));
    for (size_t i = 200000; i < noise.size(); i++)
        noise[i] = 0;
    auto g = core::make_wimax_sync(sync_params(4), gpu);
    auto c = core::make_wimax_sync(sync_params(4), cpu);
    const auto a = c->detect(noise.data(), noise.size());
    EXPECT_TRUE(a.empty());
    EXPECT_TRUE(same_bursts(g->detect(noise.data(), noise.size()), a));
    EXPECT_TRUE(g->detect(noise.data(), 100).empty()); // shorter than any timing window
}

TEST(wimax_sync, cuda_matches_cpu_on_small_pieces)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    std::mt19937 rng(3);
    for (int cp_div : { 4, 32 }) {
        const auto x = burst_stream(cp_div, 8, 0.03, 1e-2f, uint32_t(cp_div + 1));
        auto g = core::make_wimax_sync(sync_params(cp_div), gpu);
        auto c = core::make_wimax_sync(sync_params(cp_div), cpu);
        // Pieces at every offset (not multiples of 128: the sums' grid moves with the
        // piece on both backends), of sizes around the lookback.
        size_t at = 0;
        while (at < x.size()) {
            const size_t n = std::min(x.size() - at, size_t(c->lookback() + rng() % 4000));
            const size_t from = rng() % 3 == 0 ? size_t(rng() % 500) : 0;
            EXPECT_TRUE(
                same_bursts(g->detect(x.data() + at, n, from), c->detect(x.data() + at, n, from)))
                << "piece at " << at << " of " << n;
            at += 1 + rng() % 3000;
        }
    }
}

#endif
